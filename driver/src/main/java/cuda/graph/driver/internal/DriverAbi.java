// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bound driver's version, the entries it selects for the calls whose ABI changed, and whether
 * it has the calls newer than the oldest driver supported, read once.
 *
 * <p>The JVM initializes this class on the first call that needs it, which comes after {@link
 * CudaProvider#availability()} bound the library; from then on the choices are constants the JIT
 * folds.
 */
final class DriverAbi {

  /** The bound driver's {@code cuDriverGetVersion}. */
  static final int VERSION = readVersion();

  /** {@code cuStreamGetCaptureInfo}'s entry: {@code _v3} from 12.3, else {@code _v2}. */
  static final CuEntry CAPTURE_INFO = CuEntry.boundFor(DriverCall.STREAM_GET_CAPTURE_INFO, VERSION);

  /** {@code cuEventElapsedTime}'s entry: {@code _v2} from 12.8, else the original. */
  static final CuEntry ELAPSED_TIME = CuEntry.boundFor(DriverCall.EVENT_ELAPSED_TIME, VERSION);

  /**
   * Whether the driver has {@code cuFuncGetParamInfo} (CUDA 12.4 and newer); without it {@link
   * FfmCudaDriver#funcGetParamInfo} answers {@code CUDA_ERROR_NOT_SUPPORTED}.
   */
  static final boolean HAS_PARAM_INFO = binds(CuEntry.FUNC_GET_PARAM_INFO);

  private DriverAbi() {}

  /**
   * {@return whether the bound driver gets {@code entry} bound}: false only for an entry point
   * newer than the driver ({@link CuEntry#firstDriver()}), whose call then fails with {@code
   * CUDA_ERROR_NOT_SUPPORTED} ({@link Errors#notSupported})
   */
  static boolean binds(CuEntry entry) {
    return entry.usedWith(VERSION);
  }

  private static int readVersion() {
    // Its own arena, not the thread's Scratch: this first runs inside a call that holds slots.
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment version = arena.allocate(ValueLayout.JAVA_INT);
      int status;
      try {
        status = (int) CuEntry.DRIVER_GET_VERSION.handle().invokeExact(version);
      } catch (Throwable t) {
        throw Downcall.rethrow(t);
      }
      if (status != CuResult.SUCCESS) {
        // Availability already read the version successfully, so this cannot happen; fail loudly.
        throw new IllegalStateException("cuDriverGetVersion returned " + status);
      }
      return version.get(ValueLayout.JAVA_INT, 0);
    }
  }
}
