package cuda.graph.spi;

/**
 * NVRTC failed to compile a program. Carries the {@code nvrtcResult} (e.g. 6,
 * {@code NVRTC_ERROR_COMPILATION}), its name and the program's compile log.
 */
public final class RuntimeCompilationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int nvrtcResult;
  private final String resultName;
  private final String log;

  public RuntimeCompilationException(int nvrtcResult, String resultName, String programName, String log) {
    super("NVRTC could not compile " + programName + ": " + resultName + " (" + nvrtcResult + ")"
        + (log.isBlank() ? "" : "\n" + log.strip()));
    this.nvrtcResult = nvrtcResult;
    this.resultName = resultName;
    this.log = log;
  }

  /** {@return the {@code nvrtcResult} code} */
  public int nvrtcResult() {
    return nvrtcResult;
  }

  /** {@return the {@code NVRTC_*} name of the result} */
  public String resultName() {
    return resultName;
  }

  /** {@return the compile log (may be empty)} */
  public String log() {
    return log;
  }
}
