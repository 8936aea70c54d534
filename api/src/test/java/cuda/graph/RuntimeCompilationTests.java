// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CUDA C++ compiled at run time, through the simulator's stand-in for NVRTC. */
class RuntimeCompilationTests {

  private static final String SOURCE =
      """
      extern "C" __global__ void triple(int n, int* data) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) { data[i] *= 3; }
      }
      """;

  private static final JavaKernel TRIPLE =
      call -> {
        int n = call.i32(0);
        MemorySegment data = call.memory(1, 4L * n);
        for (int i = 0; i < n; i++) {
          data.setAtIndex(JAVA_INT_UNALIGNED, i, 3 * data.getAtIndex(JAVA_INT_UNALIGNED, i));
        }
      };

  private InstrumentedDriver simulator;
  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    simulator = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
  }

  @Test
  void cudaSourceCompilesAtFirstUseAndItsKernelRuns() {
    Kernel triple =
        KernelImage.cudaSource("triple.cu", SOURCE, "--std=c++17")
            .withReference("triple", TRIPLE)
            .kernel("triple", KernelParam.I32, KernelParam.pointer(ElementType.I32));
    long loadsBefore = simulator.calls().count(DriverCall.MODULE_LOAD_DATA);

    int[] result =
        DeviceBuffer.fromArray(new int[] {1, 2, 3})
            .then(
                b ->
                    triple
                        .launch(LaunchConfig.covering(3, 32), 3, b)
                        .andThen(b.toIntArray())
                        .zip(b.free(), (r, x) -> r))
            .syncOn(stream);

    assertArrayEquals(new int[] {3, 6, 9}, result);
    assertTrue(
        simulator.calls().count(DriverCall.MODULE_LOAD_DATA) == loadsBefore + 1,
        "compiled and loaded once");
    triple
        .launch(LaunchConfig.of(1, 1), 0, DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream))
        .syncOn(stream);
    assertTrue(
        simulator.calls().count(DriverCall.MODULE_LOAD_DATA) == loadsBefore + 1,
        "the loaded module is reused");
  }

  @Test
  void aBrokenSourceFailsWithTheCompilersLog() {
    Kernel broken =
        KernelImage.cudaSource("broken.cu", "extern \"C\" __global__ void k(int n) { if (n) { }")
            .kernel("k", KernelParam.I32);

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> broken.launch(LaunchConfig.of(1, 1), 1).syncOn(stream));

    assertTrue(e.getMessage().startsWith("broken.cu does not compile:"), e.getMessage());
    assertTrue(e.getMessage().contains("expected a \"}\""), e.getMessage());
    assertInstanceOf(RuntimeCompilationException.class, e.getCause());
  }

  @Test
  void anUnknownCompilerOptionIsReportedAsTheCompilerReportsIt() {
    Kernel k =
        KernelImage.cudaSource("options.cu", SOURCE, "--no-such-option")
            .kernel("triple", KernelParam.I32, KernelParam.POINTER);

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DeviceBuffer.zeros(ElementType.I32, 1)
                    .then(b -> k.launch(LaunchConfig.of(1, 1), 1, b))
                    .syncOn(stream));

    assertTrue(e.getMessage().contains("unrecognized option --no-such-option"), e.getMessage());
  }
}
