// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.Device;
import cuda.graph.DeviceOp;
import cuda.graph.blas.internal.matmul.WorkspaceImpl;
import org.apiguardian.api.API;

/**
 * Device memory a matmul's algorithm may use as scratch, allocated by the user before any capture
 * and passed to {@link Blas#matmul}.
 *
 * <p><b>Ownership.</b> A matmul node declares its workspace as one of its buffers, so the library
 * leases it like a kernel argument: an eager execution holds it until its work is done, and a graph
 * that captured the node holds it as long as the graph, or any launch of it, can replay. {@link
 * #close()} drops only the owner's reference; the memory is freed when the last graph or execution
 * using it lets go. So destroying one graph never frees a workspace another graph captured, and a
 * graph never replays into freed memory.
 *
 * <p><b>Sharing.</b> The algorithm overwrites the workspace on every run, so two runs must never
 * overlap on the device. The library sees to it: a workspace is an {@linkplain
 * cuda.graph.DeviceBuffer#allocateExclusive exclusive buffer}, so every eager product and every
 * launch of a graph that captured one waits for the last use of its workspace on another stream.
 * Graphs and products that share one workspace are correct from any streams and threads, and run
 * one after the other; give each its own workspace where they should run at the same time. A shared
 * workspace needs the largest need among its matmuls, not the sum ({@link Blas#workspaceFor}).
 * Inside one graph the nodes run in the graph's order: matmuls in two parallel branches of one
 * capture must not share a workspace.
 *
 * <p>Allocation is an op like {@link cuda.graph.DeviceBuffer#allocate}: it runs on a stream, and a
 * capture refuses it, so nothing is allocated while a stream captures.
 *
 * <p>For example, one workspace for two products that run one after the other, closed while the
 * graph that captured them still replays:
 *
 * {@snippet class=cuda.graph.blas.JavadocSnippetsTests region=workspace}
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface Workspace extends AutoCloseable permits WorkspaceImpl {

  /**
   * {@return an op that allocates a workspace of {@code bytes} bytes on the executing stream's
   * device}
   *
   * @param bytes at least 1
   * @throws IllegalArgumentException if {@code bytes} is less than 1
   */
  @CheckReturnValue
  static DeviceOp<Workspace> allocate(long bytes) {
    return WorkspaceImpl.allocate(bytes);
  }

  /** {@return the size in bytes} */
  long byteSize();

  /** {@return the device the memory lives on} */
  Device device();

  /** {@return whether {@link #close()} was called (the memory may still be held by graphs)} */
  boolean isClosed();

  /**
   * Drops the owner's reference: the memory is freed once no execution or graph that uses it is
   * left. Idempotent. A matmul node cannot be made with a closed workspace.
   */
  @Override
  void close();
}
