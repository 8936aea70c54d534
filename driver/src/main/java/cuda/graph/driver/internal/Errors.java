// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The one place a {@code CUresult} becomes an exception.
 *
 * <p>{@link #check} costs a compare on success; on failure the exception names the entry's SPI
 * call, the status with its {@code CUDA_ERROR_*} name, and the driver's own description from {@code
 * cuGetErrorString} (which also covers codes newer than {@link CuResult}'s table).
 */
final class Errors {

  private Errors() {}

  /**
   * Throws {@link CudaDriverException} for {@code entry}'s call unless {@code status} is {@code
   * CUDA_SUCCESS}.
   */
  static void check(int status, CuEntry entry) {
    if (status != CuResult.SUCCESS) {
      throw failure(status, entry, null);
    }
  }

  /**
   * {@return the exception for a failed call of {@code entry}}, its detail being the driver's
   * description of the status followed by {@code extra} (a JIT log, a kernel name), when given, and
   * by the symbol bound, when it is an older ABI than the call names
   *
   * @throws IllegalArgumentException for an entry that serves no SPI call
   */
  static CudaDriverException failure(int status, CuEntry entry, @Nullable String extra) {
    DriverCall call = entry.call();
    if (call == null) {
      throw new IllegalArgumentException(entry + " serves no SPI call to name in a failure");
    }
    String note = entry.bindingNote();
    String more = note == null ? extra : extra == null ? note : extra + "; " + note;
    return new CudaDriverException(
        status, call, detail(status, driverName(status), driverString(status), more));
  }

  /**
   * {@return the exception for a call whose entry point the bound driver is too old to export}:
   * {@code CUDA_ERROR_NOT_SUPPORTED}, made without calling the entry point, its detail saying which
   * driver the call needs ({@link #newerDriverNeeded})
   */
  static CudaDriverException notSupported(CuEntry entry, int driverVersion) {
    return failure(CuResult.NOT_SUPPORTED, entry, newerDriverNeeded(entry, driverVersion));
  }

  /**
   * {@return what a call newer than the driver says about it}: the entry point, the CUDA version
   * that introduced it, the driver's, and the fix
   */
  static String newerDriverNeeded(CuEntry entry, int driverVersion) {
    String needed = CudaProvider.cudaVersion(entry.firstDriver());
    return ("%s is new in CUDA %s and this NVIDIA driver supports CUDA %s: update the NVIDIA"
            + " driver to one supporting CUDA %s or newer to use it")
        .formatted(entry.symbol(), needed, CudaProvider.cudaVersion(driverVersion), needed);
  }

  /**
   * Composes an exception detail: the driver's description of the status, prefixed with the
   * driver's name for it when {@link CuResult} does not know the code, then {@code extra}.
   */
  static @Nullable String detail(
      int status,
      Optional<String> driverName,
      Optional<String> driverString,
      @Nullable String extra) {
    StringBuilder detail = new StringBuilder();
    if (CuResult.nameOf(status).isEmpty() && driverName.isPresent()) {
      detail.append(driverName.get());
    }
    String description = driverString.or(() -> CuResult.descriptionOf(status)).orElse("");
    if (!description.isEmpty()) {
      if (!detail.isEmpty()) {
        detail.append(": ");
      }
      detail.append(description);
    }
    if (extra != null && !extra.isEmpty()) {
      if (!detail.isEmpty()) {
        detail.append("; ");
      }
      detail.append(extra);
    }
    return detail.isEmpty() ? null : detail.toString();
  }

  /** {@return {@code cuGetErrorName} of a status; empty for a code the driver does not know} */
  static Optional<String> driverName(int status) {
    return describe(CuEntry.GET_ERROR_NAME, status);
  }

  /** {@return {@code cuGetErrorString} of a status; empty for a code the driver does not know} */
  static Optional<String> driverString(int status) {
    return describe(CuEntry.GET_ERROR_STRING, status);
  }

  /** Calls {@code cuGetErrorName} or {@code cuGetErrorString}, which share one signature. */
  private static Optional<String> describe(CuEntry getter, int status) {
    MemorySegment out = Scratch.get().zeroedSlot(7);
    int result;
    try {
      result = (int) getter.handle().invokeExact(status, out);
    } catch (Throwable t) {
      throw Downcall.rethrow(t);
    }
    return result == CuResult.SUCCESS
        ? Optional.ofNullable(Ffm.cString(out.get(ValueLayout.JAVA_LONG, 0)))
        : Optional.empty();
  }
}
