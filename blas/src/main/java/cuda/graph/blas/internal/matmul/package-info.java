/**
 * The implementation of the public matmul API: {@code Blas} and {@code Workspace}, the checks of a
 * node against its device and workspace, the plans cached per product, the resolution of a public
 * {@code Matmul} into the backend contract, and the choice of backend by provider; depends on
 * cuda.graph, cuda.graph.blas, {@code .plan} and {@code .simulated}.
 */
@NullMarked
package cuda.graph.blas.internal.matmul;

import org.jspecify.annotations.NullMarked;
