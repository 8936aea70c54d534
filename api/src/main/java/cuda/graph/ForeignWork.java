// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * The body of a {@link GraphNode#foreign} node: enqueues work on a raw stream through another CUDA
 * library (NCCL, cuBLAS, ...) that records into graph captures.
 *
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface ForeignWork {

  /**
   * Enqueues asynchronous, capturable work on {@code stream}; must neither synchronize the stream
   * nor keep the handle, the addresses or {@code stream} itself past its return.
   *
   * @param stream the raw stream, its device and the addresses of the node's declared buffers;
   *     valid only during this call
   */
  void enqueue(ForeignStream stream);
}
