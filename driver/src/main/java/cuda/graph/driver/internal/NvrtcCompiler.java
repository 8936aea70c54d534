// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link RuntimeCompiler} over NVRTC: one program per call, created, compiled, read and destroyed
 * within the call, so instances hold no native state and are safe to share between threads.
 */
final class NvrtcCompiler implements RuntimeCompiler {

  /** {@code NVRTC_SUCCESS}. */
  private static final int SUCCESS = 0;

  private static final System.Logger LOG = System.getLogger("cuda.graph.driver");

  private NvrtcCompiler() {}

  /** {@return the compiler, when NVRTC can be loaded in this process} */
  static Optional<RuntimeCompiler> find() {
    return Instance.VALUE;
  }

  /** {@return why {@link #find()} is empty, or what it loaded} */
  static String searchResult() {
    return NvrtcLibrary.found().reason();
  }

  @Override
  public String version() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment major = arena.allocate(JAVA_INT);
      MemorySegment minor = arena.allocate(JAVA_INT);
      int status = Nvrtc.nvrtcVersion(major, minor);
      if (status != SUCCESS) {
        throw new IllegalStateException("nvrtcVersion returned " + resultName(status));
      }
      return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
    }
  }

  @Override
  public String compileToPtx(String source, String programName, List<String> options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(programName, "programName");
    List<String> opts = List.copyOf(options);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment program = arena.allocate(ADDRESS);
      int status =
          Nvrtc.nvrtcCreateProgram(
              program,
              arena.allocateFrom(source),
              arena.allocateFrom(programName),
              0,
              MemorySegment.NULL,
              MemorySegment.NULL);
      if (status != SUCCESS) {
        throw new RuntimeCompilationException(status, resultName(status), programName, "");
      }
      try {
        return compile(arena, program.get(JAVA_LONG, 0), programName, opts);
      } finally {
        destroy(program, programName);
      }
    }
  }

  private static String compile(
      Arena arena, long program, String programName, List<String> options) {
    MemorySegment optionArray = arena.allocate(ADDRESS, Math.max(1, options.size()));
    for (int i = 0; i < options.size(); i++) {
      optionArray.setAtIndex(ADDRESS, i, arena.allocateFrom(options.get(i)));
    }
    int status = Nvrtc.nvrtcCompileProgram(program, options.size(), optionArray);
    String log = log(arena, program);
    if (status != SUCCESS) {
      throw new RuntimeCompilationException(status, resultName(status), programName, log);
    }
    if (!log.isEmpty()) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "cuda.graph.driver: NVRTC compiled {0} with messages:\n{1}",
          programName,
          log);
    }
    MemorySegment size = arena.allocate(JAVA_LONG);
    check(Nvrtc.nvrtcGetPTXSize(program, size), programName, log);
    // The size includes the trailing NUL, which getString drops.
    MemorySegment ptx = arena.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
    check(Nvrtc.nvrtcGetPTX(program, ptx), programName, log);
    return ptx.getString(0);
  }

  /** {@return the program log, without trailing white space; empty when NVRTC has none} */
  private static String log(Arena arena, long program) {
    MemorySegment size = arena.allocate(JAVA_LONG);
    if (Nvrtc.nvrtcGetProgramLogSize(program, size) != SUCCESS || size.get(JAVA_LONG, 0) <= 1) {
      return "";
    }
    MemorySegment log = arena.allocate(size.get(JAVA_LONG, 0));
    if (Nvrtc.nvrtcGetProgramLog(program, log) != SUCCESS) {
      return "";
    }
    return log.getString(0).strip();
  }

  private static void destroy(MemorySegment program, String programName) {
    int status = Nvrtc.nvrtcDestroyProgram(program);
    if (status != SUCCESS) {
      // Nothing the caller can do about a program NVRTC will not free; say so and go on.
      LOG.log(
          System.Logger.Level.WARNING,
          "cuda.graph.driver: nvrtcDestroyProgram({0}) returned {1}",
          programName,
          resultName(status));
    }
  }

  private static void check(int status, String programName, String log) {
    if (status != SUCCESS) {
      throw new RuntimeCompilationException(status, resultName(status), programName, log);
    }
  }

  /** {@return NVRTC's name for a result, e.g. {@code NVRTC_ERROR_COMPILATION}} */
  static String resultName(int result) {
    String name = Ffm.cString(Nvrtc.nvrtcGetErrorString(result));
    return name == null ? "nvrtcResult " + result : name;
  }

  @Override
  public String toString() {
    return "NvrtcCompiler[" + searchResult() + "]";
  }

  private static final class Instance {
    static final Optional<RuntimeCompiler> VALUE =
        NvrtcLibrary.found().lookup().isPresent()
            ? Optional.of(new NvrtcCompiler())
            : Optional.empty();
  }
}
