// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUfunction_attribute} values that {@link CudaDriver#funcGetAttribute} reads and {@link
 * CudaDriver#funcSetAttribute} sets.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class FunctionAttribute {

  /**
   * {@code CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES}, read-only: the kernel's static shared memory per
   * block (its {@code __shared__} variables), in bytes. A block's dynamic shared memory comes on
   * top of it: without an opt-in a launch may ask for {@link
   * DeviceAttribute#MAX_SHARED_MEMORY_PER_BLOCK} less this, and with one {@link
   * DeviceAttribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN} less this.
   *
   * @since 0.2.0
   */
  public static final int SHARED_SIZE_BYTES = 1;

  /**
   * {@code CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}: the most dynamic shared memory a
   * launch of the kernel may ask for. It starts at the device's {@link
   * DeviceAttribute#MAX_SHARED_MEMORY_PER_BLOCK} (48 KiB) less the kernel's static shared memory
   * ({@link #SHARED_SIZE_BYTES}); a launch that asks for more needs it raised first, up to {@link
   * DeviceAttribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN} less the static shared memory.
   */
  public static final int MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

  private FunctionAttribute() {}
}
