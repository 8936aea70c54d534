// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.FunctionAttribute;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompiler;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code cuFuncGetAttribute} on the real driver: a kernel's static shared memory, and the dynamic
 * shared memory it may ask for, which starts at the device's per-block default less the static
 * amount and rises at most to the opt-in limit less it (cuda.h's rule, which the simulator models).
 */
@Tag("gpu")
class FunctionAttributeGpuTests extends GpuTest {

  private static final String SOURCE =
      """
      // 640 bytes of static shared memory, passed between threads so that nvcc keeps them.
      extern "C" __global__ void staged(int *p) {
        __shared__ int s[160];
        s[threadIdx.x % 160] = p[threadIdx.x];
        __syncthreads();
        p[threadIdx.x] = s[(threadIdx.x + 1) % 160];
      }
      extern "C" __global__ void plain(int *p) { p[threadIdx.x] += 1; }
      """;

  @Test
  void staticSharedMemoryLowersTheDynamicLimitWithAndWithoutOptIn() {
    Optional<RuntimeCompiler> nvrtc = driver.runtimeCompiler();
    assumeTrue(nvrtc.isPresent(), NvrtcCompiler.searchResult());
    String ptx =
        nvrtc.get().compileToPtx(SOURCE, "staged.cu", List.of("--gpu-architecture=compute_90"));
    int perBlock =
        driver.deviceGetAttribute(DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK, gpu.device);
    int optin =
        driver.deviceGetAttribute(DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, gpu.device);
    CuModule module = driver.moduleLoadData(ModuleImage.ptx(ptx));
    try {
      CuFunction staged = driver.moduleGetFunction(module, "staged");
      CuFunction plain = driver.moduleGetFunction(module, "plain");
      assertEquals(640, driver.funcGetAttribute(staged, FunctionAttribute.SHARED_SIZE_BYTES));
      assertEquals(0, driver.funcGetAttribute(plain, FunctionAttribute.SHARED_SIZE_BYTES));
      assertEquals(
          perBlock - 640,
          driver.funcGetAttribute(staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES));
      assertEquals(
          perBlock,
          driver.funcGetAttribute(plain, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES));

      CudaDriverException over =
          assertThrows(
              CudaDriverException.class,
              () ->
                  driver.funcSetAttribute(
                      staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - 640 + 1));
      assertEquals(CuResult.INVALID_VALUE, over.status());
      driver.funcSetAttribute(staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - 640);
      assertEquals(
          optin - 640,
          driver.funcGetAttribute(staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES));
    } finally {
      driver.moduleUnload(module);
    }
  }

  @Test
  void anAttributeTheDriverDoesNotKnowIsAnInvalidValue() {
    CudaDriverException e =
        assertThrows(CudaDriverException.class, () -> driver.funcGetAttribute(kernels.saxpy, 9999));
    assertEquals(CuResult.INVALID_VALUE, e.status());
    assertEquals(DriverCall.FUNC_GET_ATTRIBUTE, e.call());
  }
}
