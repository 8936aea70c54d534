// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * CUDA's {@code CUresult} values, with the names {@code cuGetErrorName} returns and the texts
 * {@code cuGetErrorString} returned on driver 580 (CUDA 13.0).
 *
 * <p>Providers report failures with these numbers, so the same failure reads the same on every
 * provider. The table is data only: a provider backed by the real driver should prefer the driver's
 * own names, which also cover codes newer than this table.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class CuResult {

  /** {@code CUDA_SUCCESS}: "no error". */
  public static final int SUCCESS = 0;

  /** {@code CUDA_ERROR_INVALID_VALUE}: "invalid argument". */
  public static final int INVALID_VALUE = 1;

  /** {@code CUDA_ERROR_OUT_OF_MEMORY}: "out of memory". */
  public static final int OUT_OF_MEMORY = 2;

  /** {@code CUDA_ERROR_NOT_INITIALIZED}: "initialization error". */
  public static final int NOT_INITIALIZED = 3;

  /** {@code CUDA_ERROR_DEINITIALIZED}: "driver shutting down". */
  public static final int DEINITIALIZED = 4;

  /** {@code CUDA_ERROR_STUB_LIBRARY}: "CUDA driver is a stub library". */
  public static final int STUB_LIBRARY = 34;

  /** {@code CUDA_ERROR_NO_DEVICE}: "no CUDA-capable device is detected". */
  public static final int NO_DEVICE = 100;

  /** {@code CUDA_ERROR_INVALID_DEVICE}: "invalid device ordinal". */
  public static final int INVALID_DEVICE = 101;

  /** {@code CUDA_ERROR_INVALID_IMAGE}: "device kernel image is invalid". */
  public static final int INVALID_IMAGE = 200;

  /** {@code CUDA_ERROR_INVALID_CONTEXT}: "invalid device context". */
  public static final int INVALID_CONTEXT = 201;

  /**
   * {@code CUDA_ERROR_NO_BINARY_FOR_GPU}: "no kernel image is available for execution on the
   * device".
   */
  public static final int NO_BINARY_FOR_GPU = 209;

  /** {@code CUDA_ERROR_INVALID_PTX}: "a PTX JIT compilation failed". */
  public static final int INVALID_PTX = 218;

  /**
   * {@code CUDA_ERROR_UNSUPPORTED_PTX_VERSION}: "the provided PTX was compiled with an unsupported
   * toolchain".
   */
  public static final int UNSUPPORTED_PTX_VERSION = 222;

  /** {@code CUDA_ERROR_INVALID_SOURCE}: "device kernel image is invalid". */
  public static final int INVALID_SOURCE = 300;

  /** {@code CUDA_ERROR_FILE_NOT_FOUND}: "file not found". */
  public static final int FILE_NOT_FOUND = 301;

  /** {@code CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND}: "shared object symbol not found". */
  public static final int SHARED_OBJECT_SYMBOL_NOT_FOUND = 302;

  /** {@code CUDA_ERROR_SHARED_OBJECT_INIT_FAILED}: "shared object initialization failed". */
  public static final int SHARED_OBJECT_INIT_FAILED = 303;

  /**
   * {@code CUDA_ERROR_OPERATING_SYSTEM}: "OS call failed or operation not supported on this OS".
   */
  public static final int OPERATING_SYSTEM = 304;

  /** {@code CUDA_ERROR_INVALID_HANDLE}: "invalid resource handle". */
  public static final int INVALID_HANDLE = 400;

  /** {@code CUDA_ERROR_ILLEGAL_STATE}: "the operation cannot be performed in the present state". */
  public static final int ILLEGAL_STATE = 401;

  /** {@code CUDA_ERROR_LOSSY_QUERY}: "attempted introspection would be semantically lossy". */
  public static final int LOSSY_QUERY = 402;

  /** {@code CUDA_ERROR_NOT_FOUND}: "named symbol not found". */
  public static final int NOT_FOUND = 500;

  /** {@code CUDA_ERROR_NOT_READY}: "device not ready". */
  public static final int NOT_READY = 600;

  /** {@code CUDA_ERROR_ILLEGAL_ADDRESS}: "an illegal memory access was encountered". */
  public static final int ILLEGAL_ADDRESS = 700;

  /** {@code CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES}: "too many resources requested for launch". */
  public static final int LAUNCH_OUT_OF_RESOURCES = 701;

  /** {@code CUDA_ERROR_LAUNCH_TIMEOUT}: "the launch timed out and was terminated". */
  public static final int LAUNCH_TIMEOUT = 702;

  /** {@code CUDA_ERROR_CONTEXT_IS_DESTROYED}: "context is destroyed". */
  public static final int CONTEXT_IS_DESTROYED = 709;

  /** {@code CUDA_ERROR_ASSERT}: "device-side assert triggered". */
  public static final int ASSERT = 710;

  /** {@code CUDA_ERROR_MISALIGNED_ADDRESS}: "misaligned address". */
  public static final int MISALIGNED_ADDRESS = 716;

  /** {@code CUDA_ERROR_LAUNCH_FAILED}: "unspecified launch failure". */
  public static final int LAUNCH_FAILED = 719;

  /** {@code CUDA_ERROR_NOT_PERMITTED}: "operation not permitted". */
  public static final int NOT_PERMITTED = 800;

  /** {@code CUDA_ERROR_NOT_SUPPORTED}: "operation not supported". */
  public static final int NOT_SUPPORTED = 801;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED}: "operation not permitted when stream is
   * capturing".
   */
  public static final int STREAM_CAPTURE_UNSUPPORTED = 900;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_INVALIDATED}: "operation failed due to a previous error during
   * capture".
   */
  public static final int STREAM_CAPTURE_INVALIDATED = 901;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_MERGE}: "operation would result in a merge of separate capture
   * sequences".
   */
  public static final int STREAM_CAPTURE_MERGE = 902;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_UNMATCHED}: "capture was not ended in the same stream as it
   * began".
   */
  public static final int STREAM_CAPTURE_UNMATCHED = 903;

  /** {@code CUDA_ERROR_STREAM_CAPTURE_UNJOINED}: "capturing stream has unjoined work". */
  public static final int STREAM_CAPTURE_UNJOINED = 904;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_ISOLATION}: "dependency created on uncaptured work in another
   * stream".
   */
  public static final int STREAM_CAPTURE_ISOLATION = 905;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_IMPLICIT}: "operation would make the legacy stream depend on a
   * capturing blocking stream".
   */
  public static final int STREAM_CAPTURE_IMPLICIT = 906;

  /**
   * {@code CUDA_ERROR_CAPTURED_EVENT}: "operation not permitted on an event last recorded in a
   * capturing stream".
   */
  public static final int CAPTURED_EVENT = 907;

  /**
   * {@code CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD}: "attempt to terminate a thread-local capture
   * sequence from another thread".
   */
  public static final int STREAM_CAPTURE_WRONG_THREAD = 908;

  /** {@code CUDA_ERROR_TIMEOUT}: "wait operation timed out". */
  public static final int TIMEOUT = 909;

  /**
   * {@code CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE}: "the graph update was not performed because it
   * included changes which violated constraints specific to instantiated graph update".
   */
  public static final int GRAPH_EXEC_UPDATE_FAILURE = 910;

  /** {@code CUDA_ERROR_UNKNOWN}: "unknown error". */
  public static final int UNKNOWN = 999;

  private record Entry(String name, String description) {}

  private static final Map<Integer, Entry> TABLE = new TreeMap<>();

  private static void add(int code, String name, String description) {
    TABLE.put(code, new Entry(name, description));
  }

  static {
    add(0, "CUDA_SUCCESS", "no error");
    add(1, "CUDA_ERROR_INVALID_VALUE", "invalid argument");
    add(2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory");
    add(3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error");
    add(4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down");
    add(5, "CUDA_ERROR_PROFILER_DISABLED", "profiler disabled while using external profiling tool");
    add(34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library");
    add(36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "API call requires a newer CUDA driver");
    add(46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable");
    add(100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected");
    add(101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal");
    add(102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "device doesn't have valid Grid license");
    add(200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid");
    add(201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context");
    add(202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "context already current");
    add(
        209,
        "CUDA_ERROR_NO_BINARY_FOR_GPU",
        "no kernel image is available for execution on the device");
    add(214, "CUDA_ERROR_ECC_UNCORRECTABLE", "uncorrectable ECC error encountered");
    add(215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "limit is not supported on this architecture");
    add(
        216,
        "CUDA_ERROR_CONTEXT_ALREADY_IN_USE",
        "exclusive-thread device already in use by a different thread");
    add(218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed");
    add(221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found");
    add(
        222,
        "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
        "the provided PTX was compiled with an unsupported toolchain.");
    add(223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation was disabled");
    add(300, "CUDA_ERROR_INVALID_SOURCE", "device kernel image is invalid");
    add(301, "CUDA_ERROR_FILE_NOT_FOUND", "file not found");
    add(302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "shared object symbol not found");
    add(303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "shared object initialization failed");
    add(304, "CUDA_ERROR_OPERATING_SYSTEM", "OS call failed or operation not supported on this OS");
    add(400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle");
    add(401, "CUDA_ERROR_ILLEGAL_STATE", "the operation cannot be performed in the present state");
    add(402, "CUDA_ERROR_LOSSY_QUERY", "attempted introspection would be semantically lossy");
    add(500, "CUDA_ERROR_NOT_FOUND", "named symbol not found");
    add(600, "CUDA_ERROR_NOT_READY", "device not ready");
    add(700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered");
    add(701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch");
    add(702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated");
    add(708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "primary context active");
    add(709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed");
    add(710, "CUDA_ERROR_ASSERT", "device-side assert triggered");
    add(714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error");
    add(715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered");
    add(716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address");
    add(
        717,
        "CUDA_ERROR_INVALID_ADDRESS_SPACE",
        "operation not supported on global/shared address space");
    add(718, "CUDA_ERROR_INVALID_PC", "invalid program counter");
    add(719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure");
    add(720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks in cooperative launch");
    add(800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted");
    add(801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported");
    add(
        900,
        "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
        "operation not permitted when stream is capturing");
    add(
        901,
        "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
        "operation failed due to a previous error during capture");
    add(
        902,
        "CUDA_ERROR_STREAM_CAPTURE_MERGE",
        "operation would result in a merge of separate capture sequences");
    add(
        903,
        "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED",
        "capture was not ended in the same stream as it began");
    add(904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "capturing stream has unjoined work");
    add(
        905,
        "CUDA_ERROR_STREAM_CAPTURE_ISOLATION",
        "dependency created on uncaptured work in another stream");
    add(
        906,
        "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
        "operation would make the legacy stream depend on a capturing blocking stream");
    add(
        907,
        "CUDA_ERROR_CAPTURED_EVENT",
        "operation not permitted on an event last recorded in a capturing stream");
    add(
        908,
        "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD",
        "attempt to terminate a thread-local capture sequence from another thread");
    add(909, "CUDA_ERROR_TIMEOUT", "wait operation timed out");
    add(
        910,
        "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE",
        "the graph update was not performed because it included changes which violated constraints"
            + " specific to instantiated graph update");
    add(
        911,
        "CUDA_ERROR_EXTERNAL_DEVICE",
        "an async error has occurred in external entity outside of CUDA");
    add(
        912,
        "CUDA_ERROR_INVALID_CLUSTER_SIZE",
        "a kernel launch error has occurred due to cluster misconfiguration");
    add(
        913,
        "CUDA_ERROR_FUNCTION_NOT_LOADED",
        "the function handle is not loaded when calling an API that requires a loaded function");
    add(999, "CUDA_ERROR_UNKNOWN", "unknown error");
  }

  private CuResult() {}

  /**
   * {@return the {@code CUDA_ERROR_*} name of a code, or empty for a code this table lacks}
   *
   * @param code a {@code CUresult} value
   */
  public static Optional<String> nameOf(int code) {
    Entry entry = TABLE.get(code);
    return entry == null ? Optional.empty() : Optional.of(entry.name());
  }

  /**
   * {@return the driver's description of a code, or empty for a code this table lacks}
   *
   * @param code a {@code CUresult} value
   */
  public static Optional<String> descriptionOf(int code) {
    Entry entry = TABLE.get(code);
    return entry == null ? Optional.empty() : Optional.of(entry.description());
  }

  /**
   * {@return {@code CUDA_ERROR_NAME (code)}, or {@code CUresult code} for an unknown code}
   *
   * @param code a {@code CUresult} value, known to this table or not
   */
  public static String describe(int code) {
    return nameOf(code).map(name -> name + " (" + code + ")").orElse("CUresult " + code);
  }

  /**
   * {@return whether a code is a sticky device error: once raised, every call that uses the context
   * reports it until the process ends}
   *
   * @param code a {@code CUresult} value
   */
  public static boolean isSticky(int code) {
    return code == ILLEGAL_ADDRESS
        || code == LAUNCH_TIMEOUT
        || code == ASSERT
        || (code >= 714 && code <= 719)
        || code == 226
        || code == 721;
  }
}
