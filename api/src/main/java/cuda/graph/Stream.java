// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.StreamImpl;
import org.apiguardian.api.API;

/**
 * A CUDA stream: work executed on it runs in submission order, asynchronously to the host.
 *
 * <p>A stream belongs to one {@link Device}. It is safe to use from several threads (their work
 * interleaves in submission order). {@link #close()} is idempotent; the stream's handle is
 * destroyed once no execution is using it, and work already queued still completes. A stream that
 * becomes unreachable without being closed is closed by a cleaner. Using a closed stream fails with
 * {@link IllegalStateException}.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface Stream extends AutoCloseable permits StreamImpl {

  /** {@return the device this stream belongs to} */
  Device device();

  /**
   * Blocks until all work submitted to this stream so far has completed.
   *
   * @throws CudaDriverError if that work failed
   */
  void synchronize();

  /** {@return whether all work submitted so far has completed (never blocks)} */
  boolean isIdle();

  /** {@return whether {@link #close()} was called} */
  boolean isClosed();

  /** Closes the stream; queued work still completes. Idempotent. */
  void close();
}
