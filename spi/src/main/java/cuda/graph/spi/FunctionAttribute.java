// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

/**
 * {@code CUfunction_attribute} values that {@link CudaDriver#funcSetAttribute} sets.
 *
 * @since 0.1.0
 */
public final class FunctionAttribute {

  /**
   * {@code CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}: the most dynamic shared memory a
   * launch of the kernel may ask for. Above the device's {@link
   * DeviceAttribute#MAX_SHARED_MEMORY_PER_BLOCK} (48 KiB) a launch needs it raised first, up to
   * {@link DeviceAttribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN} less the kernel's static shared
   * memory.
   */
  public static final int MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

  private FunctionAttribute() {}
}
