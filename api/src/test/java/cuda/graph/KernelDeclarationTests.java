// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ParamInfo;
import cuda.graph.spi.support.ForwardingCudaDriver;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A kernel's declaration is checked against the kernel its image defines, on every provider: from
 * the PTX {@code .entry} when a PTX kernel is declared, from the PTX NVRTC produced when a CUDA
 * source kernel first loads on a device, and from the parameter sizes the driver reports ({@code
 * cuFuncGetParamInfo}) when a cubin or fatbin kernel first loads on a device, skipped where the
 * driver cannot tell. The check is made once per kernel and device, never on the launch path.
 */
class KernelDeclarationTests {

  private static final String SAXPY_PTX =
      """
      .version 9.0
      .target sm_90
      .address_size 64
      .visible .entry saxpy(
      \t.param .u32 saxpy_param_0,
      \t.param .f32 saxpy_param_1,
      \t.param .u64 saxpy_param_2,
      \t.param .u64 saxpy_param_3
      )
      { ret; }
      """;

  /** A cubin as far as the simulator looks at one: the ELF magic. */
  private static final byte[] CUBIN = {0x7F, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};

  private static final String TRIPLE_SOURCE =
      """
      extern "C" __global__ void triple(int n, int* data) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) { data[i] *= 3; }
      }
      """;

  private static final JavaKernel SAXPY =
      call -> {
        int n = call.i32(0);
        float a = call.f32(1);
        MemorySegment x = call.memory(2, 4L * n);
        MemorySegment y = call.memory(3, 4L * n);
        for (int i = 0; i < n; i++) {
          y.setAtIndex(
              JAVA_FLOAT_UNALIGNED,
              i,
              a * x.getAtIndex(JAVA_FLOAT_UNALIGNED, i) + y.getAtIndex(JAVA_FLOAT_UNALIGNED, i));
        }
      };

  private static final JavaKernel TRIPLE =
      call -> {
        int n = call.i32(0);
        MemorySegment data = call.memory(1, 4L * n);
        for (int i = 0; i < n; i++) {
          data.setAtIndex(JAVA_INT_UNALIGNED, i, 3 * data.getAtIndex(JAVA_INT_UNALIGNED, i));
        }
      };

  // ---- PTX: checked when declared

  @Test
  void aPtxDeclarationWithTooFewParametersIsRefusedNamingBothSignatures() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KernelImage.ptx(SAXPY_PTX).kernel("saxpy", KernelParam.I32, KernelParam.POINTER));
    assertEquals(
        "kernel saxpy is declared saxpy(i32, ptr) but ptx defines saxpy(.u32, .f32, .u64, .u64):"
            + " 4 parameters, not 2; declare the kernel with the parameters of its .entry",
        e.getMessage());
  }

  @Test
  void aPtxDeclarationOfAnotherKindIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                KernelImage.ptx(SAXPY_PTX)
                    .kernel(
                        "saxpy",
                        KernelParam.I32,
                        KernelParam.I32,
                        KernelParam.POINTER,
                        KernelParam.POINTER));
    assertTrue(
        e.getMessage().contains(": parameter 1 is .f32, which i32 cannot pass;"), e.getMessage());
  }

  // ---- CUDA C++: checked from the compiled PTX when the kernel first loads

  @Test
  void aCudaSourceDeclarationIsCheckedAgainstTheCompiledPtxWhenItLoads() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      Kernel wrong =
          KernelImage.cudaSource("triple.cu", TRIPLE_SOURCE)
              .withReference("triple", TRIPLE)
              .kernel("triple", KernelParam.pointer(ElementType.I32));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> wrong.load(platform.defaultDevice()));
      assertEquals(
          "kernel triple is declared triple(i32*) but triple.cu defines triple(.u32, .u64):"
              + " 2 parameters, not 1; declare the kernel with the parameters of its .entry",
          e.getMessage());
      // Still refused on the next use, and on the launch path too.
      try (Stream stream = platform.defaultDevice().newStream()) {
        IllegalArgumentException again =
            assertThrows(
                IllegalArgumentException.class,
                () ->
                    DeviceBuffer.zeros(ElementType.I32, 1)
                        .then(b -> wrong.launch(LaunchConfig.of(1, 1), b).andThen(b.free()))
                        .syncOn(stream));
        assertEquals(e.getMessage(), again.getMessage());
      }
    }
  }

  @Test
  void aMatchingCudaSourceDeclarationLaunches() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel triple =
          KernelImage.cudaSource("triple.cu", TRIPLE_SOURCE)
              .withReference("triple", TRIPLE)
              .kernel("triple", KernelParam.I32, KernelParam.pointer(ElementType.I32));
      int[] result =
          DeviceBuffer.fromArray(new int[] {1, 2})
              .then(
                  b ->
                      triple
                          .launch(LaunchConfig.of(1, 2), 2, b)
                          .andThen(b.toIntArray())
                          .zip(b.free(), (r, x) -> r))
              .syncOn(stream);
      assertArrayEquals(new int[] {3, 6}, result);
    }
  }

  // ---- cubin and fatbin: checked from the driver's parameter sizes when the kernel first loads

  @Test
  void aCubinDeclarationIsCheckedAgainstTheSizesTheDriverReports() {
    InstrumentedDriver driver = new InstrumentedDriver(new ReportsSizes(4, 4, 8, 8));
    try (CudaPlatform platform = SimulatorPlatforms.over(driver)) {
      Kernel wrong =
          KernelImage.cubin(CUBIN)
              .withReference("saxpy", call -> {})
              .kernel("saxpy", KernelParam.I32, KernelParam.POINTER);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> wrong.load(platform.defaultDevice()));
      assertEquals(
          "kernel saxpy is declared saxpy(i32, ptr) but cubin defines saxpy(4, 4, 8, 8 bytes):"
              + " 4 parameters, not 2; declare the kernel with parameters of those sizes (the"
              + " driver reports sizes, not types)",
          e.getMessage());
    }
  }

  @Test
  void aCubinDeclarationWithTooFewParametersIsRefusedOnTheSimulatorAsOnTheDriver() {
    // saxpy.cubin is nvcc's cubin of the first program's saxpy.cu: saxpy(int, float, float*,
    // float*).
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel wrong =
          KernelImage.cubin(saxpyCubin())
              .withReference("saxpy", SAXPY)
              .kernel("saxpy", KernelParam.I32, KernelParam.POINTER);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  DeviceBuffer.zeros(ElementType.I32, 1)
                      .then(b -> wrong.launch(LaunchConfig.of(1, 1), 1, b).andThen(b.free()))
                      .syncOn(stream));
      assertEquals(
          "kernel saxpy is declared saxpy(i32, ptr) but cubin defines saxpy(4, 4, 8, 8 bytes):"
              + " 4 parameters, not 2; declare the kernel with parameters of those sizes (the"
              + " driver reports sizes, not types)",
          e.getMessage());
    }
  }

  @Test
  void aCubinParameterOfAnotherWidthIsRefusedOnTheSimulator() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      Kernel wrong =
          KernelImage.cubin(saxpyCubin())
              .withReference("saxpy", SAXPY)
              .kernel(
                  "saxpy",
                  KernelParam.I32,
                  KernelParam.F64,
                  KernelParam.pointer(ElementType.F32),
                  KernelParam.pointer(ElementType.F32));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> wrong.load(platform.defaultDevice()));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "kernel saxpy is declared saxpy(i32, f64, f32*, f32*) but cubin defines"
                      + " saxpy(4, 4, 8, 8 bytes): parameter 1 is 4 bytes, which f64 (8 bytes)"
                      + " cannot pass;"),
          e.getMessage());
    }
  }

  @Test
  void aMatchingCubinDeclarationLaunchesOnTheSimulator() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel saxpy =
          KernelImage.cubin(saxpyCubin())
              .withReference("saxpy", SAXPY)
              .kernel(
                  "saxpy",
                  KernelParam.I32,
                  KernelParam.F32,
                  KernelParam.pointer(ElementType.F32),
                  KernelParam.pointer(ElementType.F32));
      float[] result =
          DeviceBuffer.fromArray(new float[] {1, 2})
              .zip(DeviceBuffer.fromArray(new float[] {10, 20}), (x, y) -> List.of(x, y))
              .then(
                  xy ->
                      saxpy
                          .launch(LaunchConfig.of(1, 1), 2, 3f, xy.get(0), xy.get(1))
                          .andThen(xy.get(1).toFloatArray())
                          .zip(xy.get(0).free().andThen(xy.get(1).free()), (r, x) -> r))
              .syncOn(stream);
      assertArrayEquals(new float[] {13, 26}, result);
    }
  }

  @Test
  void aFatbinParameterOfAnotherSizeIsRefused() {
    byte[] fatbin = {0x50, (byte) 0xED, 0x55, (byte) 0xBA, 1, 0, 0x10, 0};
    try (CudaPlatform platform = SimulatorPlatforms.over(new ReportsSizes(4, 4, 8, 8))) {
      Kernel wrong =
          KernelImage.fatbin(fatbin)
              .withReference("saxpy", call -> {})
              .kernel(
                  "saxpy",
                  KernelParam.I32,
                  KernelParam.F64,
                  KernelParam.POINTER,
                  KernelParam.POINTER);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> wrong.load(platform.defaultDevice()));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "kernel saxpy is declared saxpy(i32, f64, ptr, ptr) but fatbin defines"
                      + " saxpy(4, 4, 8, 8 bytes): parameter 1 is 4 bytes, which f64 (8 bytes)"
                      + " cannot pass;"),
          e.getMessage());
      // The driver knows sizes, not types: a float declared as an int passes.
      Kernel sameSizes =
          KernelImage.fatbin(fatbin)
              .withReference("saxpy", call -> {})
              .kernel(
                  "saxpy", KernelParam.I32, KernelParam.I32, KernelParam.POINTER, KernelParam.I64);
      assertDoesNotThrow(() -> sameSizes.load(platform.defaultDevice()));
    }
  }

  @Test
  void theCheckIsMadeOncePerKernelAndDeviceNeverOnTheLaunchPath() {
    InstrumentedDriver driver =
        new InstrumentedDriver(new ReportsSizes(Simulator.builder().devices(2).build(), 4, 8));
    try (CudaPlatform platform = SimulatorPlatforms.over(driver)) {
      KernelImage image = KernelImage.cubin(CUBIN).withReference("k", call -> {});
      Kernel k = image.kernel("k", KernelParam.F32, KernelParam.POINTER);
      for (Device device : platform.devices()) {
        try (Stream stream = device.newStream()) {
          DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
          for (int i = 0; i < 3; i++) {
            k.launch(LaunchConfig.of(1, 1), 1f, buffer).syncOn(stream);
          }
          buffer.free().syncOn(stream);
        }
      }
      // Per device: parameters 0 and 1, then the empty answer at 2.
      assertEquals(2 * 3, driver.calls().count(DriverCall.FUNC_GET_PARAM_INFO));
      // Another declaration of the same kernel is checked on its own.
      image.kernel("k", KernelParam.I32, KernelParam.I64).load(platform.defaultDevice());
      assertEquals(3 * 3, driver.calls().count(DriverCall.FUNC_GET_PARAM_INFO));
    }
  }

  @Test
  void whereTheDriverCannotTellTheCheckIsSkipped() {
    // A cubin stand-in without section headers: the simulator answers NOT_SUPPORTED.
    InstrumentedDriver driver = new InstrumentedDriver(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(driver);
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel k =
          KernelImage.cubin(CUBIN)
              .withReference("k", call -> call.memory(0, 4).set(JAVA_INT_UNALIGNED, 0, 7))
              .kernel("k", KernelParam.pointer(ElementType.I32));
      int[] result =
          DeviceBuffer.zeros(ElementType.I32, 1)
              .then(
                  b ->
                      k.launch(LaunchConfig.of(1, 1), b)
                          .andThen(b.toIntArray())
                          .zip(b.free(), (r, x) -> r))
              .syncOn(stream);
      assertArrayEquals(new int[] {7}, result);
      assertEquals(1, driver.calls().count(DriverCall.FUNC_GET_PARAM_INFO), "asked once");
      assertEquals(1, driver.calls().count(DriverCall.FUNC_GET_PARAM_INFO, Outcome.FAILED));
    }
  }

  // ---- the simulator's message for a kernel it cannot run

  @Test
  void aKernelWithoutAJavaReferenceFailsOnTheSimulatorNamingWithReference() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel noReference =
          KernelImage.ptx(SAXPY_PTX)
              .kernel(
                  "saxpy",
                  KernelParam.I32,
                  KernelParam.F32,
                  KernelParam.pointer(ElementType.F32),
                  KernelParam.pointer(ElementType.F32));
      CudaDriverError e =
          assertThrows(
              CudaDriverError.class,
              () ->
                  DeviceBuffer.zeros(ElementType.F32, 1)
                      .then(
                          x ->
                              noReference
                                  .launch(LaunchConfig.of(1, 1), 1, 2f, x, x)
                                  .andThen(x.free()))
                      .syncOn(stream));
      assertTrue(
          e.getMessage().contains("add one with KernelImage.withReference(\"saxpy\", ...)"),
          e.getMessage());
    }
  }

  /** {@return nvcc's cubin of examples-java/src/main/cuda/saxpy.cu, for sm_90} */
  private static byte[] saxpyCubin() {
    try (InputStream in = KernelDeclarationTests.class.getResourceAsStream("saxpy.cubin")) {
      return Objects.requireNonNull(in, "saxpy.cubin").readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A simulator whose every function reports the given parameter sizes, whatever its image: a
   * fatbin's, which the simulator itself cannot tell, or any count of parameters a test needs.
   */
  private static final class ReportsSizes extends ForwardingCudaDriver {

    private final long[] sizes;

    ReportsSizes(long... sizes) {
      this(Simulator.create(), sizes);
    }

    ReportsSizes(CudaDriver simulator, long... sizes) {
      super(simulator);
      this.sizes = sizes;
    }

    @Override
    public Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index) {
      if (index < 0 || index >= sizes.length) {
        return Optional.empty();
      }
      long offset = 0; // each parameter at the next offset aligned to its size
      for (int i = 0; i < index; i++) {
        long next = offset + sizes[i];
        offset = (next + sizes[i + 1] - 1) / sizes[i + 1] * sizes[i + 1];
      }
      return Optional.of(new ParamInfo(offset, sizes[index]));
    }
  }
}
