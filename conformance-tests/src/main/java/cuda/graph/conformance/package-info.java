/**
 * Contracts for CUDA driver providers and the cuda-graph API over them, and the instruments they
 * use: {@link cuda.graph.conformance.InstrumentedDriver} (live-handle ledger, use-after-destroy and
 * double-destroy detection, call log, fault injection), {@link
 * cuda.graph.conformance.ConformanceSession} (a platform over an instrumented driver that proves at
 * close that nothing leaked), and the test kernels in {@link
 * cuda.graph.conformance.ConformanceKernels}.
 */
@NullMarked
package cuda.graph.conformance;

import org.jspecify.annotations.NullMarked;
