// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Kernel declarations are checked against the kernel on the provider under test: a declaration that
 * does not fit a PTX kernel's {@code .entry} is refused when it is made, naming both signatures,
 * before any driver call; one that fits launches; a CUDA C++ kernel is checked against the PTX the
 * provider's compiler produced when it loads; and the provider reports a PTX kernel's parameters
 * ({@code cuFuncGetParamInfo}) where the ABI lays them out, which is what the check of cubin and
 * fatbin kernels relies on.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface KernelDeclarationContract extends ConformanceContract {

  /** A CUDA C++ kernel {@code scale(int n, float k, float *x)}, for the compiled-kernel checks. */
  String SCALE_SOURCE =
      """
      extern "C" __global__ void scale(int n, float k, float *x) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] = x[i] * k;
      }
      """;

  /**
   * A PTX kernel whose parameters need every kind of alignment: {@code kinds(unsigned char, short,
   * float2, int *, int4, int)}. It is only loaded, never launched.
   */
  String KINDS_PTX =
      """
      .version 8.0
      .target sm_90
      .address_size 64

      .visible .entry kinds(
      \t.param .u8 kinds_param_0,
      \t.param .u16 kinds_param_1,
      \t.param .align 8 .b8 kinds_param_2[8],
      \t.param .u64 kinds_param_3,
      \t.param .align 16 .b8 kinds_param_4[16],
      \t.param .u32 kinds_param_5
      )
      {
      \tret;
      }
      """;

  /**
   * A declaration of a PTX kernel with fewer parameters than its {@code .entry}, or one of another
   * kind, is refused when it is made, naming the declaration and the {@code .entry}, without a
   * driver call.
   */
  @Test
  default void aMismatchedPtxDeclarationIsRefusedNamingBothSignatures() {
    try (ConformanceSession s = openSession()) {
      long calls = s.driver().calls().records().size();
      IllegalArgumentException fewer =
          assertThrows(
              IllegalArgumentException.class,
              () -> ConformanceKernels.IMAGE.kernel("saxpy", KernelParam.I32, KernelParam.POINTER));
      assertEquals(
          "kernel saxpy is declared saxpy(i32, ptr) but ptx defines saxpy(.u32, .f32, .u64, .u64):"
              + " 4 parameters, not 2; declare the kernel with the parameters of its .entry",
          fewer.getMessage());
      IllegalArgumentException kind =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  ConformanceKernels.IMAGE.kernel(
                      "saxpy",
                      KernelParam.I32,
                      KernelParam.I32,
                      KernelParam.POINTER,
                      KernelParam.POINTER));
      assertEquals(
          "kernel saxpy is declared saxpy(i32, i32, ptr, ptr) but ptx defines saxpy(.u32, .f32,"
              + " .u64, .u64): parameter 1 is .f32, which i32 cannot pass; declare the kernel with"
              + " the parameters of its .entry",
          kind.getMessage());
      assertEquals(calls, s.driver().calls().records().size(), "no driver call was made");
    }
  }

  /** A declaration that fits the {@code .entry}, with untyped pointers, launches and computes. */
  @Test
  default void aMatchingPtxDeclarationLaunches() {
    try (ConformanceSession s = openSession()) {
      Kernel saxpy =
          ConformanceKernels.IMAGE.kernel(
              "saxpy", KernelParam.I32, KernelParam.F32, KernelParam.POINTER, KernelParam.POINTER);
      float[] x = {1, 2, 3};
      float[] y = {10, 20, 30};
      DeviceBuffer<Float> dx = s.own(DeviceBuffer.fromArray(x).syncOn(s.stream()));
      DeviceBuffer<Float> dy = s.own(DeviceBuffer.fromArray(y).syncOn(s.stream()));
      float[] result =
          saxpy
              .launch(LaunchConfig.covering(3, ConformanceKernels.BLOCK), 3, 2f, dx, dy)
              .andThen(dy.toFloatArray())
              .syncOn(s.stream());
      ConformanceKernels.saxpy(2f, x, y);
      assertArrayEquals(y, result);
    }
  }

  /**
   * A declaration of a CUDA C++ kernel is checked against the {@code .entry} of the PTX the
   * provider's compiler produced, when the kernel first loads: the same messages as for PTX.
   * Skipped where the provider cannot compile CUDA C++.
   */
  @Test
  default void aMismatchedDeclarationOfACompiledKernelIsRefusedWhenItLoads() {
    try (ConformanceSession s = openSession()) {
      Assumptions.assumeTrue(
          s.driver().runtimeCompiler().isPresent(), "the provider cannot compile CUDA C++");
      KernelImage image = KernelImage.cudaSource("scale.cu", SCALE_SOURCE);
      Kernel fewer = image.kernel("scale", KernelParam.I32, KernelParam.F32);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> fewer.load(s.device()));
      assertEquals(
          "kernel scale is declared scale(i32, f32) but scale.cu defines scale(.u32, .f32, .u64):"
              + " 3 parameters, not 2; declare the kernel with the parameters of its .entry",
          e.getMessage());
      Kernel kind = image.kernel("scale", KernelParam.I32, KernelParam.I32, KernelParam.POINTER);
      IllegalArgumentException k =
          assertThrows(IllegalArgumentException.class, () -> kind.load(s.device()));
      assertEquals(
          "kernel scale is declared scale(i32, i32, ptr) but scale.cu defines scale(.u32, .f32,"
              + " .u64): parameter 1 is .f32, which i32 cannot pass; declare the kernel with the"
              + " parameters of its .entry",
          k.getMessage());
      image
          .kernel("scale", KernelParam.I32, KernelParam.F32, KernelParam.pointer(ElementType.F32))
          .load(s.device());
    }
  }

  /**
   * {@code cuFuncGetParamInfo} of a PTX kernel gives each parameter at the next offset its
   * alignment allows, with its size, and nothing past the last. Skipped where the provider answers
   * {@code CUDA_ERROR_NOT_SUPPORTED} (a driver older than CUDA 12.4).
   */
  @Test
  default void aPtxKernelsParametersAreWhereTheAbiLaysThemOut() {
    try (ConformanceSession s = openSession()) {
      Optional<List<ParamInfo>> parameters = onOwnThread(s.driver(), KINDS_PTX, "kinds");
      Assumptions.assumeTrue(parameters.isPresent(), "the provider cannot tell (NOT_SUPPORTED)");
      assertEquals(
          List.of(
              new ParamInfo(0, 1),
              new ParamInfo(2, 2),
              new ParamInfo(8, 8),
              new ParamInfo(16, 8),
              new ParamInfo(32, 16),
              new ParamInfo(48, 4)),
          parameters.get());
    }
  }

  /**
   * Loads {@code ptx} into device 0's primary context on a thread of its own (so the platform's
   * binding of the test thread is left alone), reads the parameters of {@code entry}, and unloads
   * it; empty where the driver answers NOT_SUPPORTED.
   */
  private static Optional<List<ParamInfo>> onOwnThread(
      CudaDriver driver, String ptx, String entry) {
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread thread =
        Thread.ofPlatform()
            .name("param-info")
            .start(
                () -> {
                  int device = driver.deviceGet(0);
                  driver.ctxSetCurrent(driver.devicePrimaryCtxRetain(device));
                  try {
                    CuModule module = driver.moduleLoadData(ModuleImage.ptx(ptx));
                    try {
                      outcome.set(parameters(driver, driver.moduleGetFunction(module, entry)));
                    } finally {
                      driver.moduleUnload(module);
                    }
                  } catch (RuntimeException | Error e) {
                    outcome.set(e);
                  } finally {
                    driver.ctxSetCurrent(null);
                    driver.devicePrimaryCtxRelease(device);
                  }
                });
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the parameters were read", e);
    }
    return switch (outcome.get()) {
      case CudaDriverException e when e.status() == CuResult.NOT_SUPPORTED -> Optional.empty();
      case RuntimeException e -> throw e;
      case Error e -> throw e;
      case List<?> list -> Optional.of(list.stream().map(ParamInfo.class::cast).toList());
      case null, default -> throw new IllegalStateException("no outcome: " + outcome.get());
    };
  }

  private static List<ParamInfo> parameters(CudaDriver driver, CuFunction function) {
    List<ParamInfo> parameters = new ArrayList<>();
    for (Optional<ParamInfo> p = driver.funcGetParamInfo(function, 0);
        p.isPresent();
        p = driver.funcGetParamInfo(function, parameters.size())) {
      parameters.add(p.get());
    }
    return parameters;
  }
}
