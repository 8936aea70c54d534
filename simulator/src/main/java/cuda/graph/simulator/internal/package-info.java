/** The simulator's implementation; not exported. */
@NullMarked
package cuda.graph.simulator.internal;

import org.jspecify.annotations.NullMarked;
