// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.CudaEventImpl;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A CUDA event: a marker recorded into a stream's work, for ordering work across streams and for
 * timing. {@link #record()} and {@link #waitFor()} are ops; {@link #isDone()}, {@link
 * #synchronize()} and {@link #elapsedMillisSince} observe it from the host.
 *
 * <p>An event belongs to one device. {@link #close()} is idempotent; the handle is destroyed once
 * no execution uses it. An event that becomes unreachable without being closed is closed by a
 * cleaner. Thread-safe.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface CudaEvent extends AutoCloseable permits CudaEventImpl {

  /** {@return an op that records this event after the work before it on its stream} */
  @CheckReturnValue
  DeviceOp<@Nullable Void> record();

  /** {@return an op that makes the rest of its stream's work wait for this event's last record} */
  @CheckReturnValue
  DeviceOp<@Nullable Void> waitFor();

  /** {@return whether the work of the last record has completed (true if never recorded)} */
  boolean isDone();

  /** Blocks until the work of the last record has completed. */
  void synchronize();

  /**
   * {@return the GPU time in milliseconds between the completion of {@code start} and of this
   * event}
   *
   * @param start the earlier event; both events must have been recorded and their work completed
   */
  float elapsedMillisSince(CudaEvent start);

  /** {@return the device this event belongs to} */
  Device device();

  /** Destroys the event once no execution uses it. Idempotent. */
  void close();
}
