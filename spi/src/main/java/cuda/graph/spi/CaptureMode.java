// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUstreamCaptureMode}: how a capture sequence, and a thread, interact with "potentially
 * unsafe" driver calls (allocation, synchronous frees, queries of uncaptured work).
 *
 * <p>A capture's mode is fixed when it begins; a thread's mode is read at every call and changed
 * with {@link CudaDriver#threadExchangeStreamCaptureMode}. A thread is prohibited from potentially
 * unsafe calls when its mode is {@link #GLOBAL} and it owns a non-relaxed capture or any thread
 * owns a {@code GLOBAL} capture, or when its mode is {@link #THREAD_LOCAL} and it owns a
 * non-relaxed capture. A prohibited call fails with {@code STREAM_CAPTURE_UNSUPPORTED} and
 * invalidates the capture that prohibited it.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum CaptureMode {
  /** {@code CU_STREAM_CAPTURE_MODE_GLOBAL} (0): the default mode of a thread. */
  GLOBAL(0),
  /** {@code CU_STREAM_CAPTURE_MODE_THREAD_LOCAL} (1). */
  THREAD_LOCAL(1),
  /** {@code CU_STREAM_CAPTURE_MODE_RELAXED} (2): prohibits nothing. */
  RELAXED(2);

  private final int code;

  CaptureMode(int code) {
    this.code = code;
  }

  /** {@return the {@code CU_STREAM_CAPTURE_MODE_*} value} */
  public int code() {
    return code;
  }

  /**
   * {@return the mode with a given {@code CU_STREAM_CAPTURE_MODE_*} value}
   *
   * @param code 0, 1 or 2
   * @throws IllegalArgumentException if no mode has {@code code}
   */
  public static CaptureMode ofCode(int code) {
    for (CaptureMode mode : values()) {
      if (mode.code == code) {
        return mode;
      }
    }
    throw new IllegalArgumentException("no CUstreamCaptureMode has the value " + code);
  }
}
