/**
 * The kit's test kernels: PTX compiled from {@code src/main/cuda/conformance_kernels.cu}, each with
 * the Java reference the simulator runs, shared by the contracts and the op-sequence arbitraries.
 */
@NullMarked
package cuda.graph.conformance.kernels;

import org.jspecify.annotations.NullMarked;
