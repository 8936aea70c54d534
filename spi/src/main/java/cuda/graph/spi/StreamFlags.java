// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Flags of {@code cuStreamCreate}.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class StreamFlags {
  /**
   * {@code CU_STREAM_DEFAULT}: a blocking stream, implicitly synchronized with the legacy stream.
   */
  public static final int DEFAULT = 0;

  /**
   * {@code CU_STREAM_NON_BLOCKING}: independent of the legacy stream; the only kind to capture on.
   */
  public static final int NON_BLOCKING = 1;

  private StreamFlags() {}
}
