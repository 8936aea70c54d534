// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * NVRTC failed to compile a program. Carries the {@code nvrtcResult} (e.g. 6, {@code
 * NVRTC_ERROR_COMPILATION}), its name and the program's compile log.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class RuntimeCompilationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The {@code nvrtcResult} NVRTC returned. */
  private final int nvrtcResult;

  /** The {@code NVRTC_*} name of {@link #nvrtcResult}. */
  private final String resultName;

  /** The program's compile log; may be empty. */
  private final String log;

  /**
   * Reports a failed compilation; the message names the program and the result and ends with the
   * log, if any.
   *
   * @param nvrtcResult the {@code nvrtcResult} NVRTC returned, e.g. 6
   * @param resultName its {@code NVRTC_*} name, e.g. {@code NVRTC_ERROR_COMPILATION}
   * @param programName the program's name, as given to {@link RuntimeCompiler#compileToPtx}
   * @param log the compile log, possibly blank
   */
  public RuntimeCompilationException(
      int nvrtcResult, String resultName, String programName, String log) {
    super(
        "NVRTC could not compile "
            + programName
            + ": "
            + resultName
            + " ("
            + nvrtcResult
            + ")"
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
