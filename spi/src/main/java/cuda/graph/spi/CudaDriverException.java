// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A driver call returned a {@code CUresult} other than {@code CUDA_SUCCESS}.
 *
 * <p>Carries the numeric status (CUDA's own value, see {@link CuResult}), the call that returned
 * it, and optional detail from the provider (a JIT log, the reason a simulated kernel failed).
 * Nothing else about the failure is implied: whether the call changed any state is what the driver
 * specification says for that call and status.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public class CudaDriverException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The {@code CUresult} the call returned; never {@code CUDA_SUCCESS}. */
  private final int status;

  /** The driver entry point that failed. */
  private final DriverCall call;

  /** What the provider added about the failure, or null. */
  private final @Nullable String detail;

  /**
   * Reports that {@code call} returned {@code status}, with no detail.
   *
   * @param status the {@code CUresult} the call returned; not {@code CUDA_SUCCESS}
   * @param call the driver entry point that failed
   * @throws IllegalArgumentException if {@code status} is {@code CUDA_SUCCESS}
   */
  public CudaDriverException(int status, DriverCall call) {
    this(status, call, null);
  }

  /**
   * Reports that {@code call} returned {@code status}; the message is the call's symbol, the
   * status's name and code and, when present, {@code detail}.
   *
   * @param status the {@code CUresult} the call returned; not {@code CUDA_SUCCESS}
   * @param call the driver entry point that failed
   * @param detail what the provider adds (a JIT log, a simulator explanation); null or empty for
   *     none
   * @throws IllegalArgumentException if {@code status} is {@code CUDA_SUCCESS}
   */
  public CudaDriverException(int status, DriverCall call, @Nullable String detail) {
    super(message(status, call, detail));
    if (status == CuResult.SUCCESS) {
      throw new IllegalArgumentException("CUDA_SUCCESS is not a failure of " + call.symbol());
    }
    this.status = status;
    this.call = call;
    this.detail = detail;
  }

  private static String message(int status, DriverCall call, @Nullable String detail) {
    String base = call.symbol() + " returned " + CuResult.describe(status);
    return detail == null || detail.isEmpty() ? base : base + ": " + detail;
  }

  /** {@return the {@code CUresult} the call returned, never {@code CUDA_SUCCESS}} */
  public int status() {
    return status;
  }

  /** {@return the driver entry point that failed} */
  public DriverCall call() {
    return call;
  }

  /** {@return provider-supplied detail (a JIT log, a simulator explanation), or null} */
  public @Nullable String detail() {
    return detail;
  }
}
