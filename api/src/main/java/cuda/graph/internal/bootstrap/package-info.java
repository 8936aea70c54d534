/**
 * Choosing and opening the process-wide provider: {@code ServiceLoader} discovery, the selection
 * rules and their report, and making the system platform once. Depends on {@code cuda.graph} and
 * {@code cuda.graph.spi} only.
 */
@NullMarked
package cuda.graph.internal.bootstrap;

import org.jspecify.annotations.NullMarked;
