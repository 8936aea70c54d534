// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Flags of {@code cuEventCreate}, {@code cuEventRecordWithFlags} and {@code cuStreamWaitEvent}.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class EventFlags {
  /** {@code CU_EVENT_DEFAULT}: timing enabled, spin on synchronize. */
  public static final int DEFAULT = 0;

  /** {@code CU_EVENT_BLOCKING_SYNC}. */
  public static final int BLOCKING_SYNC = 1;

  /** {@code CU_EVENT_DISABLE_TIMING}: cheaper; {@code cuEventElapsedTime} rejects it. */
  public static final int DISABLE_TIMING = 2;

  /** {@code CU_EVENT_INTERPROCESS}: requires {@link #DISABLE_TIMING}. */
  public static final int INTERPROCESS = 4;

  /** {@code CU_EVENT_RECORD_EXTERNAL}: in a capture, record as an event-record node. */
  public static final int RECORD_EXTERNAL = 1;

  /** {@code CU_EVENT_WAIT_EXTERNAL}: in a capture, wait as a wait-event node. */
  public static final int WAIT_EXTERNAL = 1;

  private EventFlags() {}
}
