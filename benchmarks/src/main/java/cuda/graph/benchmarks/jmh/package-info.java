// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * JMH benchmarks of host-side costs that need no GPU: building and executing op trees, kernel
 * argument packing, the execution lock and the completion machinery, all on the simulator. Run them
 * with {@code benchmarks/run-jmh.sh}; they are never part of the test build.
 */
@NullMarked
package cuda.graph.benchmarks.jmh;

import org.jspecify.annotations.NullMarked;
