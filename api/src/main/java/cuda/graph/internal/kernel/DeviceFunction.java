// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.CudaDriverError;
import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.FunctionAttribute;

/**
 * A kernel's function on one device, shared by every declaration of the kernel there, with the
 * dynamic shared memory its launches were allowed. A block's shared memory is the kernel's static
 * shared memory ({@code __shared__} variables) plus the launch's dynamic amount, so the driver lets
 * a launch ask for the device's {@code MAX_SHARED_MEMORY_PER_BLOCK} (48 KiB) less the static amount
 * unless the function opts in, and for at most {@code MAX_SHARED_MEMORY_PER_BLOCK_OPTIN} less it
 * when it does. The static amount is read from the driver before the first launch that asks for
 * dynamic shared memory (a launch without any needs neither), and only then.
 */
final class DeviceFunction {

  final CuFunction handle;

  /**
   * The dynamic shared memory a launch may ask for without a check or a driver call: 0 until a
   * launch asks for more, then at least what the device gives without opting in, and raised with
   * each opt-in.
   */
  private volatile int allowed;

  /**
   * The kernel's static shared memory in bytes, -1 until read; written under this object's lock.
   */
  private volatile int staticSharedBytes = -1;

  DeviceFunction(CuFunction handle) {
    this.handle = handle;
  }

  /**
   * {@return whether a launch asking for {@code bytes} of dynamic shared memory needs {@link
   * #allow}}
   */
  boolean needsAllowing(int bytes) {
    return bytes > allowed;
  }

  /** {@return the kernel's static shared memory where it was read already, else 0} */
  int knownStaticSharedBytes() {
    return Math.max(0, staticSharedBytes);
  }

  /**
   * Lets launches on {@code device} ask for {@code bytes} of dynamic shared memory: checks the
   * amount beside the kernel's static shared memory against the device's opt-in limit, and opts the
   * function in ({@code cuFuncSetAttribute} with {@code
   * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}) where it is more than the device gives
   * without. Runs once per larger amount; the device must be bound.
   *
   * @param kernel the kernel launched, for the message
   * @throws IllegalArgumentException when the block would have more shared memory than the device
   *     gives one that opts in, before any driver call but the static size's
   */
  synchronized void allow(DeviceImpl device, int bytes, KernelImpl kernel) {
    if (bytes <= allowed) {
      return;
    }
    CudaDriver driver = device.platform().driver();
    int staticBytes = staticSharedBytes;
    if (staticBytes < 0) {
      staticBytes = readStaticSharedBytes(driver);
      staticSharedBytes = staticBytes;
    }
    device.checkSharedMemory(bytes, staticBytes, kernel);
    int withoutOptIn = Math.max(0, device.launchLimits().maxSharedMemoryPerBlock() - staticBytes);
    if (bytes > withoutOptIn) {
      driver.funcSetAttribute(handle, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
    }
    allowed = Math.max(bytes, withoutOptIn);
  }

  /**
   * {@return the static shared memory the driver reports}, or 0 where it cannot tell (a simulator
   * that does not read the image's device code): the check then counts the dynamic amount alone, as
   * the driver's limit would for a kernel without static shared memory
   */
  private int readStaticSharedBytes(CudaDriver driver) {
    try {
      return Math.max(0, driver.funcGetAttribute(handle, FunctionAttribute.SHARED_SIZE_BYTES));
    } catch (CudaDriverError e) {
      if (e.code() == CuResult.NOT_SUPPORTED) {
        return 0;
      }
      throw e;
    }
  }
}
