/**
 * CUDA graphs: the capture protocol, captured graphs, scopes and modules. May depend on every other
 * internal package but {@code .bootstrap}.
 */
@NullMarked
package cuda.graph.internal.graph;

import org.jspecify.annotations.NullMarked;
