// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import cuda.graph.spi.RuntimeCompiler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code cuFuncGetParamInfo} on the real driver: the offsets and sizes of the test kernels'
 * parameters, the empty answer past the last one, and {@code CUDA_ERROR_NOT_SUPPORTED} on a driver
 * older than 12.4.
 */
@Tag("gpu")
class ParamInfoGpuTests extends GpuTest {

  @Test
  void theTestKernelsParametersLieWhereTheAbiPutsThem() {
    assumeTrue(DriverAbi.HAS_PARAM_INFO, "the driver is older than CUDA 12.4");
    // saxpy(float a, const float* x, float* y, int n)
    assertEquals(
        List.of(info(0, 4), info(8, 8), info(16, 8), info(24, 4)), parameters(kernels.saxpy));
    // fill_u32(unsigned int* p, unsigned int value, int n)
    assertEquals(List.of(info(0, 8), info(8, 4), info(12, 4)), parameters(kernels.fill));
    // spin(long long cycles)
    assertEquals(List.of(info(0, 8)), parameters(kernels.spin));
  }

  @Test
  void pastTheLastParameterTheAnswerIsEmpty() {
    assumeTrue(DriverAbi.HAS_PARAM_INFO, "the driver is older than CUDA 12.4");
    assertEquals(Optional.empty(), driver.funcGetParamInfo(kernels.spin, 1));
    assertEquals(Optional.empty(), driver.funcGetParamInfo(kernels.saxpy, 4));
    assertEquals(Optional.empty(), driver.funcGetParamInfo(kernels.saxpy, 1000));
    assertEquals(Optional.empty(), driver.funcGetParamInfo(kernels.saxpy, -1));
  }

  @Test
  void compiledKernelsReportTheSizeOfEveryKindOfParameter() {
    assumeTrue(DriverAbi.HAS_PARAM_INFO, "the driver is older than CUDA 12.4");
    Optional<RuntimeCompiler> nvrtc = driver.runtimeCompiler();
    assumeTrue(nvrtc.isPresent(), NvrtcCompiler.searchResult());
    String ptx =
        nvrtc
            .get()
            .compileToPtx(
                """
                struct Pair { float a; double b; };
                extern "C" __global__ void kinds(char c, short s, int i, long long l, float f,
                    double d, float2 v, const int* p, Pair q) {}
                extern "C" __global__ void none() {}
                """,
                "kinds.cu",
                List.of("--gpu-architecture=compute_90"));
    CuModule module = driver.moduleLoadData(ModuleImage.ptx(ptx));
    try {
      assertEquals(
          List.of(
              info(0, 1),
              info(2, 2),
              info(4, 4),
              info(8, 8),
              info(16, 4),
              info(24, 8),
              info(32, 8),
              info(40, 8),
              info(48, 16)),
          parameters(driver.moduleGetFunction(module, "kinds")));
      assertEquals(List.of(), parameters(driver.moduleGetFunction(module, "none")));
    } finally {
      driver.moduleUnload(module);
    }
  }

  @Test
  void onADriverOlderThan12_4TheCallIsNotSupported() {
    assumeFalse(DriverAbi.HAS_PARAM_INFO, "the driver has cuFuncGetParamInfo");
    CudaDriverException failure =
        assertThrows(CudaDriverException.class, () -> driver.funcGetParamInfo(kernels.saxpy, 0));
    assertEquals(CuResult.NOT_SUPPORTED, failure.status());
    assertEquals(DriverCall.FUNC_GET_PARAM_INFO, failure.call());
  }

  private static List<ParamInfo> parameters(CuFunction function) {
    List<ParamInfo> parameters = new ArrayList<>();
    for (Optional<ParamInfo> p = driver.funcGetParamInfo(function, 0);
        p.isPresent();
        p = driver.funcGetParamInfo(function, parameters.size())) {
      parameters.add(p.get());
    }
    return parameters;
  }

  private static ParamInfo info(long offset, long size) {
    return new ParamInfo(offset, size);
  }
}
