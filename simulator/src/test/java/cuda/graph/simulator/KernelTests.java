// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.INT;
import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.FunctionAttribute;
import cuda.graph.spi.KernelArguments;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Kernel launch: spec §5 (validation, arguments) and §3.7 (value semantics in graphs). */
@Timeout(20)
class KernelTests {

  @AutoClose final SimFixture f = SimFixture.start();

  private void launchProbe(int gx, int gy, int gz, int bx, int by, int bz, int smem) {
    f.driver.launchKernel(f.fn("probe"), gx, gy, gz, bx, by, bz, smem, f.stream, f.noArgs());
  }

  @ParameterizedTest(name = "grid ({0},{1},{2}) block ({3},{4},{5}) smem {6}")
  @CsvSource({
    "1, 1, 1, 1025, 1, 1, 0",
    "1, 1, 1, 1024, 2, 1, 0",
    "1, 1, 1, 1, 1, 65, 0",
    "1, 1, 1, 1, 2048, 1, 0",
    "1, 1, 1, 2048, 1, 1, 0",
    "1, 1, 1, 0, 1, 1, 0",
    "1, 1, 1, 1, 0, 1, 0",
    "1, 1, 1, 1, 1, 0, 0",
    "0, 1, 1, 1, 1, 1, 0",
    "1, 0, 1, 1, 1, 1, 0",
    "1, 1, 0, 1, 1, 1, 0",
    "1, 65536, 1, 1, 1, 1, 0",
    "1, 1, 65536, 1, 1, 1, 0",
    "-2147483648, 1, 1, 1, 1, 1, 0", // grid x = 2^31 as an unsigned int
    "-1, 1, 1, 1, 1, 1, 0", // grid x = 2^32 - 1 as an unsigned int
    "1, 1, 1, 1, 1, 1, 49156", // 48 KiB + 4 bytes of dynamic shared memory
    "1, 1, 1, 1, 1, 1, 1048576",
  })
  void invalidLaunchShapesReturnInvalidValueSynchronouslyAndRunNothing(
      int gx, int gy, int gz, int bx, int by, int bz, int smem) {
    CudaDriverException e = assertStatus(1, () -> launchProbe(gx, gy, gz, bx, by, bz, smem));
    assertEquals(DriverCall.LAUNCH_KERNEL, e.call());
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, f.probes.get());
  }

  @ParameterizedTest(name = "grid ({0},{1},{2}) block ({3},{4},{5}) smem {6}")
  @CsvSource({
    "1, 1, 1, 1024, 1, 1, 0",
    "1, 1, 1, 1, 1024, 1, 0",
    "1, 1, 1, 1, 1, 64, 0",
    "1, 1, 1, 32, 32, 1, 0",
    "2147483647, 65535, 65535, 1, 1, 1, 0",
    "1, 1, 1, 1, 1, 1, 49152", // exactly 48 KiB
  })
  void launchShapesAtTheLimitsAreAccepted(
      int gx, int gy, int gz, int bx, int by, int bz, int smem) {
    assertDoesNotThrow(() -> launchProbe(gx, gy, gz, bx, by, bz, smem));
    f.driver.streamSynchronize(f.stream);
    assertEquals(1, f.probes.get());
  }

  @Test
  void moreThan48KiBOfDynamicSharedMemoryRunsOnlyOnceTheKernelOptsInAsFarAsTheDeviceAllows() {
    assertStatus(1, () -> launchProbe(1, 1, 1, 1, 1, 1, 64 * 1024));
    f.driver.funcSetAttribute(
        f.fn("probe"), FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024);
    assertDoesNotThrow(() -> launchProbe(1, 1, 1, 1, 1, 1, 64 * 1024));
    CudaDriverException over = assertStatus(1, () -> launchProbe(1, 1, 1, 1, 1, 1, 64 * 1024 + 4));
    assertTrue(over.getMessage().contains("was allowed 65536"), over.getMessage());
    CudaDriverException beyond =
        assertStatus(
            1,
            () ->
                f.driver.funcSetAttribute(
                    f.fn("probe"), FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, 232448 + 1));
    assertEquals(DriverCall.FUNC_SET_ATTRIBUTE, beyond.call());
    f.driver.streamSynchronize(f.stream);
    assertEquals(1, f.probes.get());
  }

  @Test
  void functionHandleZeroReturnsInvalidHandle() {
    assertStatus(
        400,
        () -> f.driver.launchKernel(new CuFunction(0), 1, 1, 1, 1, 1, 1, 0, f.stream, f.noArgs()));
  }

  @Test
  void javaKernelRunsOncePerLaunchAndSeesTheLaunchShape() {
    f.driver.launchKernel(f.fn("probe"), 4, 3, 2, 64, 2, 1, 1024, f.stream, f.noArgs());
    f.driver.streamSynchronize(f.stream);
    assertEquals(1, f.probes.get());
    SimFixture.Probe seen = f.lastProbe.get();
    assertNotNull(seen);
    assertEquals("(4, 3, 2)", seen.grid());
    assertEquals("(64, 2, 1)", seen.block());
    assertEquals(1024, seen.sharedMemoryBytes());
    assertEquals(0, seen.argumentCount());
  }

  @Test
  void javaKernelReadsItsArgumentsAndWritesDeviceMemory() {
    long src = f.allocInt();
    long dst = f.allocInt();
    f.writeInt(src, 314);
    f.launch("copyInt", f.stream, f.ptrPtrArgs(dst, src));
    f.driver.streamSynchronize(f.stream);
    assertEquals(314, f.readInt(dst));
  }

  @Test
  void argumentValuesAreCopiedAtTheLaunchCall() {
    long p = f.allocInt();
    KernelArguments args = f.ptrIntArgs(p, 7);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.launch("store", f.stream, args);
    args.setI32(1, 8);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertEquals(7, f.readInt(p));
  }

  @Test
  void capturedArgumentValuesAreCopiedAtCaptureTime() {
    long p = f.allocInt();
    KernelArguments args = f.ptrIntArgs(p, 7);
    CuGraph g = f.capture(() -> f.launch("store", f.stream, args));
    args.setI32(1, 8);
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(7, f.readInt(p));
  }

  @Test
  void capturedHostToDeviceCopyReadsTheHostBufferWhenTheGraphExecutes() {
    long p = f.allocInt();
    MemorySegment host = f.hostInt(100);
    CuGraph g = f.capture(() -> f.driver.memcpyHtoDAsync(p, host, 4, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    host.set(INT, 0, 300);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(300, f.readInt(p));
  }

  @Test
  void launchOfAFunctionWithoutAJavaReferenceReturnsNotSupportedNamingWithReference() {
    CuFunction ptxOnly = f.fn("ptxOnly");
    CudaDriverException e =
        assertStatus(
            801, () -> f.driver.launchKernel(ptxOnly, 1, 1, 1, 1, 1, 1, 0, f.stream, f.ptrArg(0)));
    // The API's way to give one, as its users know it, then the SPI's.
    assertTrue(
        e.getMessage().contains("add one with KernelImage.withReference(\"ptxOnly\", ...)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("ModuleImage.withJavaKernel"), e.getMessage());
  }
}
