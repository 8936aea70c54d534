// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompiler;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Modules from PTX (good and bad), function lookup, and kernel launches checked on the host. */
@Tag("gpu")
class ModuleLaunchGpuTests extends GpuTest {

  private static final int N = 10_000;

  private CuStream stream;

  @BeforeEach
  void createStream() {
    stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
  }

  @AfterEach
  void destroyStream() {
    driver.streamSynchronize(stream);
    driver.streamDestroy(stream);
  }

  @Test
  void aModuleLoadsFromPtxAndUnloads() {
    CuModule module = driver.moduleLoadData(ModuleImage.ptx(TestKernels.ptx()));
    try {
      CuFunction saxpy = driver.moduleGetFunction(module, "saxpy");
      assertNotEquals(0, saxpy.address());
    } finally {
      driver.moduleUnload(module);
    }
  }

  @Test
  void anUnknownKernelIsNotFound() {
    CudaDriverException failure =
        assertThrows(
            CudaDriverException.class,
            () -> driver.moduleGetFunction(kernels.module, "no_such_kernel"));
    assertEquals(CuResult.NOT_FOUND, failure.status());
    assertEquals(DriverCall.MODULE_GET_FUNCTION, failure.call());
    assertTrue(failure.getMessage().contains("no_such_kernel"), failure.getMessage());
  }

  @Test
  void brokenPtxFailsWithTheJitLog() {
    String broken = ".version 8.0\n.target sm_90\n.address_size 64\nnot ptx at all\n";
    CudaDriverException failure =
        assertThrows(
            CudaDriverException.class, () -> driver.moduleLoadData(ModuleImage.ptx(broken)));
    assertEquals(CuResult.INVALID_PTX, failure.status());
    assertEquals(DriverCall.MODULE_LOAD_DATA, failure.call());
    assertNotNull(failure.detail());
    assertTrue(failure.detail().contains("JIT log:"), failure.getMessage());
    assertTrue(failure.detail().contains("ptxas"), failure.getMessage());
  }

  @Test
  void ptxFromTheFutureIsAnUnsupportedVersion() {
    String future = ".version 99.0\n.target sm_90\n.address_size 64\n";
    CudaDriverException failure =
        assertThrows(
            CudaDriverException.class, () -> driver.moduleLoadData(ModuleImage.ptx(future)));
    assertEquals(CuResult.UNSUPPORTED_PTX_VERSION, failure.status());
    assertTrue(
        String.valueOf(failure.detail()).contains("update the NVIDIA driver"),
        failure.getMessage());
  }

  @Test
  void garbageIsNotAnImage() {
    byte[] garbage = new byte[256];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = (byte) (i * 37 + 11);
    }
    CudaDriverException failure =
        assertThrows(
            CudaDriverException.class,
            () -> driver.moduleLoadData(ModuleImage.of(ImageFormat.CUBIN, garbage)));
    assertEquals(CuResult.INVALID_IMAGE, failure.status());
  }

  @Test
  void saxpyComputesOnTheDevice() {
    long bytes = N * 4L;
    long x = driver.memAlloc(bytes);
    long y = driver.memAlloc(bytes);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment hostX = arena.allocate(ValueLayout.JAVA_FLOAT, N);
      MemorySegment hostY = arena.allocate(ValueLayout.JAVA_FLOAT, N);
      for (int i = 0; i < N; i++) {
        hostX.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
        hostY.setAtIndex(ValueLayout.JAVA_FLOAT, i, 2f * i);
      }
      driver.memcpyHtoD(x, hostX, bytes);
      driver.memcpyHtoD(y, hostY, bytes);
      kernels.saxpy(stream, 3f, x, y, N);
      driver.streamSynchronize(stream);
      driver.memcpyDtoH(hostY, y, bytes);
      for (int i = 0; i < N; i++) {
        assertEquals(5f * i, hostY.getAtIndex(ValueLayout.JAVA_FLOAT, i), "y[" + i + "]");
      }
    } finally {
      driver.memFree(x);
      driver.memFree(y);
    }
  }

  @Test
  void argumentValuesAreCopiedWhenTheLaunchIsIssued() {
    long p = driver.memAlloc(4);
    MemorySegment host = driver.memAllocHost(4);
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8, 4, 4);
      args.setI64(0, p);
      args.setI32(1, 7);
      args.setI32(2, 1);
      kernels.spin(stream, TestKernels.BUSY_CYCLES); // the fill runs long after the launch call
      driver.launchKernel(kernels.fill, 1, 1, 1, 1, 1, 1, 0, stream, args);
      args.setI32(1, 8);
      driver.memcpyDtoHAsync(host, p, 4, stream);
      driver.streamSynchronize(stream);
      assertEquals(7, host.get(ValueLayout.JAVA_INT, 0));
    } finally {
      driver.memFree(p);
      driver.memFreeHost(host);
    }
  }

  @Test
  void impossibleLaunchConfigurationsAreInvalid() {
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8);
      args.setI64(0, 1);
      for (int[] shape : new int[][] {{1, 1025}, {0, 1}, {1, 0}}) {
        CudaDriverException failure =
            assertThrows(
                CudaDriverException.class,
                () ->
                    driver.launchKernel(
                        kernels.spin, shape[0], 1, 1, shape[1], 1, 1, 0, stream, args));
        assertEquals(
            CuResult.INVALID_VALUE, failure.status(), "grid " + shape[0] + " block " + shape[1]);
        assertEquals(DriverCall.LAUNCH_KERNEL, failure.call());
      }
    }
  }

  @Test
  void nvrtcOutputLoadsAndRuns() {
    Optional<RuntimeCompiler> nvrtc = driver.runtimeCompiler();
    assumeTrue(nvrtc.isPresent(), NvrtcCompiler.searchResult());
    String ptx =
        nvrtc
            .get()
            .compileToPtx(
                "extern \"C\" __global__ void twice(int* p) { p[threadIdx.x] *= 2; }",
                "twice.cu",
                List.of("--gpu-architecture=compute_90"));
    CuModule module = driver.moduleLoadData(ModuleImage.ptx(ptx));
    long p = driver.memAlloc(32 * 4);
    try (Arena arena = Arena.ofConfined()) {
      driver.memsetD32Async(p, 21, 32, stream);
      KernelArguments args = KernelArguments.allocate(arena, 8);
      args.setI64(0, p);
      driver.launchKernel(
          driver.moduleGetFunction(module, "twice"), 1, 1, 1, 32, 1, 1, 0, stream, args);
      MemorySegment host = arena.allocate(ValueLayout.JAVA_INT, 32);
      driver.streamSynchronize(stream);
      driver.memcpyDtoH(host, p, 32 * 4);
      for (int i = 0; i < 32; i++) {
        assertEquals(42, host.getAtIndex(ValueLayout.JAVA_INT, i));
      }
    } finally {
      driver.memFree(p);
      driver.moduleUnload(module);
    }
  }
}
