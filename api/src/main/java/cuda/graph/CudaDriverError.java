// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.spi.CuResult;
import java.io.Serial;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A CUDA driver call failed. Carries the {@code CUresult} code and name, the driver entry point
 * that returned it, and a sentence on what to do; the message holds all of them.
 *
 * <p>A {@linkplain #isSticky() sticky} error (a kernel touched memory outside its buffers, a device
 * assert) poisons the device's context for the rest of the process: every later call on that device
 * fails with the same code, so the process must be restarted to use the device again.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class CudaDriverError extends CudaException {

  @Serial private static final long serialVersionUID = 1L;

  /** The numeric {@code CUresult} the driver returned. */
  private final int code;

  /** The {@code CUDA_ERROR_*} name of {@link #code}. */
  private final String name;

  /** The driver entry point that returned {@link #code}. */
  private final String call;

  /** What the provider added about the failure, or null. */
  private final @Nullable String detail;

  /**
   * Reports that {@code call} returned {@code code} (named {@code name}); the message adds {@code
   * detail} and what the caller can do about the code.
   *
   * @param code the numeric {@code CUresult}, e.g. 700
   * @param name the {@code CUDA_ERROR_*} name of {@code code}
   * @param call the driver entry point that returned {@code code}, e.g. {@code cuStreamSynchronize}
   * @param detail what the provider knows beyond the code (a JIT log, a reason); null or blank adds
   *     nothing to the message
   * @param cause the exception that led to the failure, or null
   */
  public CudaDriverError(
      int code, String name, String call, @Nullable String detail, @Nullable Throwable cause) {
    super(message(code, name, call, detail), cause);
    this.code = code;
    this.name = name;
    this.call = call;
    this.detail = detail;
  }

  private static String message(int code, String name, String call, @Nullable String detail) {
    StringBuilder m =
        new StringBuilder(call)
            .append(" failed with ")
            .append(name)
            .append(" (")
            .append(code)
            .append(')');
    if (detail != null && !detail.isBlank()) {
      m.append(": ").append(detail);
    }
    String advice = adviceFor(code);
    if (!advice.isEmpty()) {
      m.append(". ").append(advice);
    }
    return m.toString();
  }

  /** {@return the numeric {@code CUresult}, e.g. 700} */
  public int code() {
    return code;
  }

  /** {@return the {@code CUDA_ERROR_*} name of the code} */
  public String errorName() {
    return name;
  }

  /** {@return the driver entry point that failed, e.g. {@code cuStreamSynchronize}} */
  public String call() {
    return call;
  }

  /** {@return what the provider added about this failure (a JIT log, a reason), or null} */
  public @Nullable String detail() {
    return detail;
  }

  /** {@return whether the device's context is now unusable for the rest of the process} */
  public boolean isSticky() {
    return CuResult.isSticky(code);
  }

  /**
   * {@return what a caller can do about a code, in one sentence; empty when there is nothing to
   * say}
   */
  private static String adviceFor(int code) {
    return switch (code) {
      case CuResult.OUT_OF_MEMORY ->
          "The device is out of memory: close buffers you no longer need or use smaller ones";
      case CuResult.NOT_INITIALIZED, CuResult.DEINITIALIZED ->
          "The driver is not initialized or is shutting down: use CudaPlatform.system() to get a"
              + " working driver";
      case CuResult.NO_DEVICE ->
          "No CUDA device is visible: check the GPU and driver, or use the simulator"
              + " (-Dcuda.graph.provider=simulator)";
      case CuResult.INVALID_DEVICE -> "Use a device ordinal below CudaPlatform.devices().size()";
      case CuResult.INVALID_IMAGE, CuResult.INVALID_PTX, CuResult.NO_BINARY_FOR_GPU ->
          "The kernel image does not load on this device: check that it was built for this GPU's"
              + " architecture";
      case CuResult.UNSUPPORTED_PTX_VERSION ->
          "The PTX is newer than this driver: update the NVIDIA driver or generate PTX with an"
              + " older toolkit";
      case CuResult.NOT_FOUND ->
          "The module has no kernel of that name: check the name (kernels should be declared extern"
              + " \"C\")";
      case CuResult.ILLEGAL_ADDRESS ->
          "A kernel or copy touched memory outside its buffers; the device context is unusable from"
              + " now on, restart the process";
      case CuResult.ASSERT ->
          "A device-side assertion failed; the device context is unusable from now on, restart the"
              + " process";
      case CuResult.LAUNCH_FAILED, CuResult.LAUNCH_TIMEOUT, CuResult.MISALIGNED_ADDRESS ->
          "The kernel failed on the device; the device context is unusable from now on, restart the"
              + " process";
      case CuResult.LAUNCH_OUT_OF_RESOURCES ->
          "The launch needs more registers or shared memory than a block has: use smaller blocks";
      case CuResult.STREAM_CAPTURE_UNSUPPORTED, CuResult.STREAM_CAPTURE_INVALIDATED ->
          "The call is not allowed while a stream captures a graph: do not synchronize, allocate or"
              + " query uncaptured work inside a capture";
      case CuResult.STREAM_CAPTURE_UNJOINED ->
          "Work forked to another stream during the capture was not joined back before the capture"
              + " ended";
      case CuResult.STREAM_CAPTURE_ISOLATION -> "A capture cannot wait on work recorded outside it";
      case CuResult.STREAM_CAPTURE_IMPLICIT ->
          "Capture on non-blocking streams (Device.newStream() creates them) so the legacy stream"
              + " stays independent";
      case CuResult.STREAM_CAPTURE_WRONG_THREAD ->
          "End a capture on the thread that began it, or capture in relaxed mode";
      case CuResult.GRAPH_EXEC_UPDATE_FAILURE ->
          "The new graph differs in shape from the instantiated one: capture it again instead of"
              + " updating";
      case CuResult.NOT_PERMITTED -> "Host callbacks must not call the CUDA driver";
      default -> "";
    };
  }
}
