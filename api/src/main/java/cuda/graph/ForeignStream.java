// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.exec.ForeignStreamImpl;
import org.apiguardian.api.API;

/**
 * What a {@link ForeignWork} may use while it enqueues: the raw stream, its device, and the device
 * addresses of the buffers its {@link GraphNode#foreign} node declared.
 *
 * <p>The node leases the declared buffers for as long as the work can run (until an eager
 * execution's work is done, or for the lifetime of a graph it was captured into), so an address
 * handed out here stays valid for the enqueued work. Valid only during {@link ForeignWork#enqueue},
 * on the thread that called it; afterwards every method throws {@link IllegalStateException}.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface ForeignStream permits ForeignStreamImpl {

  /** {@return the raw {@code CUstream} handle (a {@code cudaStream_t} to the runtime API)} */
  long handle();

  /** {@return the device the stream belongs to, whose context is current on this thread} */
  Device device();

  /** {@return whether the stream is being captured into a graph, so the work is recorded} */
  boolean isCapturing();

  /**
   * {@return the device address of {@code buffer}}
   *
   * @param buffer one of the buffers the node declared
   * @throws IllegalArgumentException if the node did not declare {@code buffer}: the library leases
   *     only declared buffers, so an undeclared one could be freed while the work reads it
   */
  long address(DeviceBuffer<?> buffer);

  /**
   * Runs {@code action} once, when this execution of the node lets go of what it holds: after the
   * work of an eager execution is done, or when the graph it was captured into is destroyed. A
   * foreign library's resource that the enqueued work uses (a communicator, a library handle) stays
   * alive until then if its owner counts these releases.
   *
   * @param action run once, on the thread that releases the execution's leases; it must not block
   *     or call CUDA, and what it throws is logged and dropped
   */
  void onRelease(Runnable action);
}
