/**
 * Execution of op trees: the one execution skeleton and the exhaustive switch over the op kinds
 * ({@code Executor}), the per-thread execution lock, memory ops, shared ops and graph launches. May
 * depend on {@code cuda.graph}, {@code .ops}, {@code .kernel} and {@code .runtime}.
 */
@NullMarked
package cuda.graph.internal.exec;

import org.jspecify.annotations.NullMarked;
