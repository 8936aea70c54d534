// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Benchmarks: the GPU launch-overhead application ({@link cuda.graph.benchmarks.LaunchOverhead}),
 * the ratio tables against the anchors ({@link cuda.graph.benchmarks.RatioTable}, {@link
 * cuda.graph.benchmarks.MatmulTable}) and JMH host-side benchmarks (package {@code jmh}).
 */
@NullMarked
package cuda.graph.benchmarks;

import org.jspecify.annotations.NullMarked;
