/**
 * Communicators, their collectives as graph nodes, the checks every provider shares, and the
 * backends that run them: NCCL through the binding, or the model of it on the simulator.
 */
@NullMarked
package cuda.graph.nccl.internal.comm;

import org.jspecify.annotations.NullMarked;
