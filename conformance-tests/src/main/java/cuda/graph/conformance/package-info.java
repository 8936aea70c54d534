// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Contracts for CUDA driver providers and the cuda-graph API over them, {@link
 * cuda.graph.conformance.ConformanceSession} (a platform over a {@link
 * cuda.graph.testkit.InstrumentedDriver} that proves at close that nothing leaked), and the test
 * kernels in {@link cuda.graph.conformance.kernels.ConformanceKernels}. The instruments themselves
 * (live-handle ledger, use-after-destroy and double-destroy detection, call log, fault injection)
 * are shared with the simulator's tests and live in the test kit, {@code cuda.graph.testkit}.
 */
@NullMarked
package cuda.graph.conformance;

import org.jspecify.annotations.NullMarked;
