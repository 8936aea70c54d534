/**
 * The model of cuBLASLt on the simulator: a Java reference matmul with cuBLASLt's rounding, run as
 * one kernel launch per node; depends on cuda.graph and {@code cuda.graph.blas.internal.plan}.
 */
@NullMarked
package cuda.graph.blas.internal.simulated;

import org.jspecify.annotations.NullMarked;
