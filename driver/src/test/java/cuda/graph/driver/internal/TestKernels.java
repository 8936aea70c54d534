// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;

/**
 * The kernels of {@code src/test/cuda/kernels.cu}, loaded from the PTX committed beside the tests,
 * with helpers that launch them; {@link #ptx(String)} reads the other PTX files committed there.
 */
final class TestKernels implements AutoCloseable {

  /** Spin length that keeps a stream busy for tens of milliseconds (about 50 ms at 2 GHz). */
  static final long BUSY_CYCLES = 100_000_000L;

  /** Threads per block of the element-wise kernels. */
  static final int BLOCK = 256;

  final CudaDriver driver;
  final CuModule module;
  final CuFunction saxpy;
  final CuFunction fill;
  final CuFunction add;
  final CuFunction spin;

  private TestKernels(CudaDriver driver, CuModule module) {
    this.driver = driver;
    this.module = module;
    this.saxpy = driver.moduleGetFunction(module, "saxpy");
    this.fill = driver.moduleGetFunction(module, "fill_u32");
    this.add = driver.moduleGetFunction(module, "add_u32");
    this.spin = driver.moduleGetFunction(module, "spin");
  }

  /** {@return the PTX text of the test kernels} */
  static String ptx() {
    return ptx("kernels.ptx");
  }

  /** {@return the PTX text of {@code resource}, committed beside the tests} */
  static String ptx(String resource) {
    try (InputStream in = TestKernels.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            resource + " is missing beside " + TestKernels.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Loads the kernels into the current context. */
  static TestKernels load(CudaDriver driver) {
    return new TestKernels(driver, driver.moduleLoadData(ModuleImage.ptx(ptx())));
  }

  static int grid(int n) {
    return (n + BLOCK - 1) / BLOCK;
  }

  /** Launches {@code fill_u32(p, value, n)}. */
  void fill(CuStream stream, long p, int value, int n) {
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8, 4, 4);
      args.setI64(0, p);
      args.setI32(1, value);
      args.setI32(2, n);
      driver.launchKernel(fill, grid(n), 1, 1, BLOCK, 1, 1, 0, stream, args);
    }
  }

  /** Launches {@code add_u32(p, value, n)}. */
  void add(CuStream stream, long p, int value, int n) {
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8, 4, 4);
      args.setI64(0, p);
      args.setI32(1, value);
      args.setI32(2, n);
      driver.launchKernel(add, grid(n), 1, 1, BLOCK, 1, 1, 0, stream, args);
    }
  }

  /** Launches {@code saxpy(a, x, y, n)}. */
  void saxpy(CuStream stream, float a, long x, long y, int n) {
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 4, 8, 8, 4);
      args.setF32(0, a);
      args.setI64(1, x);
      args.setI64(2, y);
      args.setI32(3, n);
      driver.launchKernel(saxpy, grid(n), 1, 1, BLOCK, 1, 1, 0, stream, args);
    }
  }

  /** Launches {@code spin(cycles)} on one thread, keeping the stream busy. */
  void spin(CuStream stream, long cycles) {
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8);
      args.setI64(0, cycles);
      driver.launchKernel(spin, 1, 1, 1, 1, 1, 1, 0, stream, args);
    }
  }

  @Override
  public void close() {
    driver.moduleUnload(module);
  }
}
