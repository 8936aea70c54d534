// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A stream, from {@code cuStreamCreate}; destroyed with {@code cuStreamDestroy_v2}. Three values
 * are special and never created or destroyed: {@link #NULL} and {@link #LEGACY} name the legacy
 * default stream, {@link #PER_THREAD} the calling thread's per-thread default stream.
 *
 * @param address the {@code CUstream} value the driver returned, or 0, 1 or 2 for a default stream
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CuStream(long address) implements CuHandle {

  /** The {@code NULL} stream: the legacy default stream. */
  public static final CuStream NULL = new CuStream(0);

  /**
   * {@code CU_STREAM_LEGACY}: the legacy default stream, which synchronizes with blocking streams.
   */
  public static final CuStream LEGACY = new CuStream(1);

  /** {@code CU_STREAM_PER_THREAD}: the calling thread's own default stream (a blocking stream). */
  public static final CuStream PER_THREAD = new CuStream(2);

  /** {@return whether this is one of the three special default-stream values} */
  public boolean isDefaultStream() {
    return address == 0 || address == 1 || address == 2;
  }

  @Override
  public HandleKind kind() {
    return HandleKind.STREAM;
  }

  @Override
  public String toString() {
    if (address == 0) {
      return "CUstream(NULL)";
    }
    if (address == 1) {
      return "CUstream(CU_STREAM_LEGACY)";
    }
    if (address == 2) {
      return "CUstream(CU_STREAM_PER_THREAD)";
    }
    return CuHandle.format(kind(), address);
  }
}
