// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The NVRTC entry points {@link NvrtcCompiler} uses: one static method per function, each with a
 * downcall handle in its own holder class. Handles are made on first use, which only happens once
 * {@link NvrtcLibrary} found the library. (The driver's entry points are described by {@link
 * CuEntry} instead; NVRTC's few functions have not needed that.)
 */
final class Nvrtc {

  private static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
  private static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
  private static final ValueLayout C_POINTER = ValueLayout.ADDRESS;

  private Nvrtc() {}

  /**
   * Calls {@code nvrtcGetErrorString}:
   *
   * {@snippet lang=c :
   * const char *nvrtcGetErrorString(nvrtcResult result);
   * }
   *
   * @return the address of a static string (as a {@code long}, read with {@link Ffm#cString})
   */
  static long nvrtcGetErrorString(int result) {
    try {
      return (long) nvrtcGetErrorString.MH.invokeExact(result);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcGetErrorString {
    static final MethodHandle MH =
        NvrtcLibrary.downcall("nvrtcGetErrorString", FunctionDescriptor.of(C_LONG, C_INT));
  }

  private static RuntimeException rethrow(Throwable thrown) {
    if (thrown instanceof RuntimeException e) {
      return e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
    throw new AssertionError("a downcall threw a checked exception", thrown);
  }

  /**
   * Calls {@code nvrtcVersion}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcVersion(int *major, int *minor);
   * }
   */
  static int nvrtcVersion(MemorySegment major, MemorySegment minor) {
    try {
      return (int) nvrtcVersion.MH.invokeExact(major, minor);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcVersion {
    static final MethodHandle MH =
        NvrtcLibrary.downcall("nvrtcVersion", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code nvrtcCreateProgram}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
   *     int numHeaders, const char * const *headers, const char * const *includeNames);
   * }
   */
  static int nvrtcCreateProgram(
      MemorySegment prog,
      MemorySegment src,
      MemorySegment name,
      int numHeaders,
      MemorySegment headers,
      MemorySegment includeNames) {
    try {
      return (int)
          nvrtcCreateProgram.MH.invokeExact(prog, src, name, numHeaders, headers, includeNames);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcCreateProgram {
    static final MethodHandle MH =
        NvrtcLibrary.downcall(
            "nvrtcCreateProgram",
            FunctionDescriptor.of(
                C_INT, C_POINTER, C_POINTER, C_POINTER, C_INT, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code nvrtcDestroyProgram}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog);
   * }
   */
  static int nvrtcDestroyProgram(MemorySegment prog) {
    try {
      return (int) nvrtcDestroyProgram.MH.invokeExact(prog);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcDestroyProgram {
    static final MethodHandle MH =
        NvrtcLibrary.downcall("nvrtcDestroyProgram", FunctionDescriptor.of(C_INT, C_POINTER));
  }

  /**
   * Calls {@code nvrtcCompileProgram}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions,
   *     const char * const *options);
   * }
   */
  static int nvrtcCompileProgram(long prog, int numOptions, MemorySegment options) {
    try {
      return (int) nvrtcCompileProgram.MH.invokeExact(prog, numOptions, options);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcCompileProgram {
    static final MethodHandle MH =
        NvrtcLibrary.downcall(
            "nvrtcCompileProgram", FunctionDescriptor.of(C_INT, C_LONG, C_INT, C_POINTER));
  }

  /**
   * Calls {@code nvrtcGetPTXSize}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet);
   * }
   */
  static int nvrtcGetPTXSize(long prog, MemorySegment ptxSizeRet) {
    try {
      return (int) nvrtcGetPTXSize.MH.invokeExact(prog, ptxSizeRet);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcGetPTXSize {
    static final MethodHandle MH =
        NvrtcLibrary.downcall("nvrtcGetPTXSize", FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code nvrtcGetPTX}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx);
   * }
   */
  static int nvrtcGetPTX(long prog, MemorySegment ptx) {
    try {
      return (int) nvrtcGetPTX.MH.invokeExact(prog, ptx);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcGetPTX {
    static final MethodHandle MH =
        NvrtcLibrary.downcall("nvrtcGetPTX", FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code nvrtcGetProgramLogSize}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet);
   * }
   */
  static int nvrtcGetProgramLogSize(long prog, MemorySegment logSizeRet) {
    try {
      return (int) nvrtcGetProgramLogSize.MH.invokeExact(prog, logSizeRet);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcGetProgramLogSize {
    static final MethodHandle MH =
        NvrtcLibrary.downcall(
            "nvrtcGetProgramLogSize", FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code nvrtcGetProgramLog}:
   *
   * {@snippet lang=c :
   * nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log);
   * }
   */
  static int nvrtcGetProgramLog(long prog, MemorySegment log) {
    try {
      return (int) nvrtcGetProgramLog.MH.invokeExact(prog, log);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class nvrtcGetProgramLog {
    static final MethodHandle MH =
        NvrtcLibrary.downcall(
            "nvrtcGetProgramLog", FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }
}
