/** The public API of cuda-graph. */
@NullMarked
package cuda.graph;

import org.jspecify.annotations.NullMarked;
