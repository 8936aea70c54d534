package cuda.graph.spi;

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
 */
public enum CaptureMode {
  GLOBAL(0),
  THREAD_LOCAL(1),
  RELAXED(2);

  private final int code;

  CaptureMode(int code) {
    this.code = code;
  }

  /** {@return the {@code CU_STREAM_CAPTURE_MODE_*} value} */
  public int code() {
    return code;
  }

  /** {@return the mode with a given {@code CU_STREAM_CAPTURE_MODE_*} value} */
  public static CaptureMode ofCode(int code) {
    for (CaptureMode mode : values()) {
      if (mode.code == code) {
        return mode;
      }
    }
    throw new IllegalArgumentException("no CUstreamCaptureMode has the value " + code);
  }
}
