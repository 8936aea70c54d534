/** Implementation of the public API; not exported. */
@NullMarked
package cuda.graph.internal;

import org.jspecify.annotations.NullMarked;
