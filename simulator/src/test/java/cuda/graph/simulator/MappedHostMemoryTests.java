// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.INT;
import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.HostAllocFlags;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import cuda.graph.testkit.LifetimeViolation;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mapped host memory ({@code cuMemHostAlloc} with {@code CU_MEMHOSTALLOC_DEVICEMAP}, {@code
 * cuMemHostGetDevicePointer_v2}, {@code cuMemFreeHost}): its device pointer reaches the very bytes
 * of the host segment, kernels' writes are seen by the host while the kernel still runs, and the
 * mapping dies with the memory.
 */
@Timeout(20)
class MappedHostMemoryTests {

  private static final int MAPPED = HostAllocFlags.PORTABLE | HostAllocFlags.DEVICEMAP;
  private static final VarHandle INT_HANDLE = ValueLayout.JAVA_INT.varHandle();

  @AutoClose final SimFixture f = SimFixture.instrumented();

  @Test
  void theDevicePointerReachesTheBytesOfTheHostSegmentBothWays() {
    MemorySegment host = f.driver.memHostAlloc(64, MAPPED);
    long device = f.driver.memHostGetDevicePointer(host, 0);

    f.store(f.stream, device, 42);
    f.driver.streamSynchronize(f.stream);
    assertEquals(42, host.get(INT, 0), "a kernel's store lands in the host segment");

    host.set(INT, 0, 7);
    long copy = f.allocInt();
    f.launch("copyInt", f.stream, f.ptrPtrArgs(copy, device));
    f.driver.streamSynchronize(f.stream);
    assertEquals(7, f.readInt(copy), "a kernel reads what the host wrote, without a copy");

    f.driver.memFreeHost(host);
  }

  @Test
  void mappedMemoryIsNativePageAlignedAndOfTheRequestedSize() {
    MemorySegment host = f.driver.memHostAlloc(100, MAPPED);
    assertTrue(host.isNative());
    assertEquals(100, host.byteSize());
    assertEquals(0, host.address() % 4096);
    f.driver.memFreeHost(host);
  }

  @Test
  void aSliceOfTheMemoryHasTheDevicePointerAtTheSameOffset() {
    MemorySegment host = f.driver.memHostAlloc(256, MAPPED);
    long base = f.driver.memHostGetDevicePointer(host, 0);
    assertEquals(base + 48, f.driver.memHostGetDevicePointer(host.asSlice(48), 0));
    f.driver.memFreeHost(host);
  }

  @Test
  void everyDeviceSeesTheMemoryAtTheSameDevicePointer() {
    try (SimFixture two = SimFixture.start(Simulator.builder().devices(2))) {
      MemorySegment host = two.driver.memHostAlloc(64, MAPPED);
      long seenFromDevice0 = two.driver.memHostGetDevicePointer(host, 0);
      CuContext other = two.driver.devicePrimaryCtxRetain(two.driver.deviceGet(1));
      two.driver.ctxSetCurrent(other);
      assertEquals(seenFromDevice0, two.driver.memHostGetDevicePointer(host, 0));
      two.driver.ctxSetCurrent(two.context);
      two.driver.memFreeHost(host);
    }
  }

  @Test
  void mappedMemoryDoesNotCountAgainstDeviceMemory() {
    long freeBefore = f.driver.memGetInfo().freeBytes();
    MemorySegment host = f.driver.memHostAlloc(1 << 20, MAPPED);
    f.driver.memHostGetDevicePointer(host, 0);
    assertEquals(freeBefore, f.driver.memGetInfo().freeBytes());
    f.driver.memFreeHost(host);
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(longs = {0, -1, Long.MIN_VALUE})
  void memHostAllocOfNoBytesReturnsInvalidValue(long bytes) {
    assertStatus(CuResult.INVALID_VALUE, () -> f.driver.memHostAlloc(bytes, MAPPED));
  }

  @Test
  void memHostAllocOfMoreThanAnyHostHasReturnsOutOfMemory() {
    CudaDriverException e =
        assertStatus(CuResult.OUT_OF_MEMORY, () -> f.driver.memHostAlloc(1L << 62, MAPPED));
    assertEquals(DriverCall.MEM_HOST_ALLOC, e.call());
  }

  @ParameterizedTest(name = "flags {0}")
  @ValueSource(ints = {8, 0x10, -1})
  void memHostAllocWithAnUnknownFlagReturnsInvalidValue(int flags) {
    assertStatus(CuResult.INVALID_VALUE, () -> f.driver.memHostAlloc(64, flags));
  }

  @Test
  void memHostAllocWithoutACurrentContextReturnsInvalidContext() {
    f.driver.ctxSetCurrent(null);
    assertStatus(CuResult.INVALID_CONTEXT, () -> f.driver.memHostAlloc(64, MAPPED));
  }

  @Test
  void memoryAllocatedWithoutDeviceMapHasNoDevicePointer() {
    MemorySegment portableOnly = f.driver.memHostAlloc(64, HostAllocFlags.PORTABLE);
    MemorySegment pinned = f.driver.memAllocHost(64);
    CudaDriverException e =
        assertStatus(
            CuResult.INVALID_VALUE, () -> f.driver.memHostGetDevicePointer(portableOnly, 0));
    assertTrue(e.getMessage().contains("CU_MEMHOSTALLOC_DEVICEMAP"), e.getMessage());
    assertStatus(CuResult.INVALID_VALUE, () -> f.driver.memHostGetDevicePointer(pinned, 0));
    assertStatus(
        CuResult.INVALID_VALUE, () -> f.driver.memHostGetDevicePointer(f.arena.allocate(64), 0));
    f.driver.memFreeHost(portableOnly);
    f.driver.memFreeHost(pinned);
  }

  @Test
  void memHostGetDevicePointerTakesNoFlags() {
    MemorySegment host = f.driver.memHostAlloc(64, MAPPED);
    assertStatus(CuResult.INVALID_VALUE, () -> f.driver.memHostGetDevicePointer(host, 1));
    f.driver.memFreeHost(host);
  }

  @Test
  void theDevicePointerIsNotDeviceMemoryToFree() {
    MemorySegment host = f.driver.memHostAlloc(256, MAPPED);
    long device = f.driver.memHostGetDevicePointer(host, 0);
    assertStatus(CuResult.INVALID_VALUE, () -> f.simulator.memFree(device));
    assertStatus(CuResult.INVALID_VALUE, () -> f.simulator.memFreeAsync(device, f.stream));
    f.driver.memFreeHost(host);
  }

  @Test
  void copiesAndFillsReachMappedMemoryThroughItsDevicePointer() {
    MemorySegment host = f.driver.memHostAlloc(256, MAPPED);
    long device = f.driver.memHostGetDevicePointer(host, 0);
    f.driver.memsetD32Async(device, 9, 64, f.stream);
    long copy = f.allocInt();
    f.driver.memcpyDtoDAsync(copy, device + 8, 4, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(9, host.get(INT, 252));
    assertEquals(9, f.readInt(copy));
    f.driver.memFreeHost(host);
  }

  @Test
  void afterTheFreeTheSegmentAndTheDevicePointerAreDead() {
    MemorySegment host = f.driver.memHostAlloc(64, MAPPED);
    long device = f.driver.memHostGetDevicePointer(host, 0);
    f.driver.memFreeHost(host);

    assertThrows(IllegalStateException.class, () -> host.get(INT, 0));
    assertStatus(CuResult.INVALID_VALUE, () -> f.simulator.memsetD32Async(device, 1, 16, f.stream));
    f.simulator.launchKernel(f.fn("poke"), 1, 1, 1, 1, 1, 1, 0, f.stream, f.ptrArg(device));
    assertStatus(CuResult.ILLEGAL_ADDRESS, () -> f.driver.streamSynchronize(f.stream));
  }

  @Test
  void theInstrumentCountsMappedMemoryAsHostMemoryAndCatchesItsDevicePointerAfterTheFree() {
    long liveBefore = f.instruments().ledger().live(HandleKind.HOST_MEMORY);
    MemorySegment host = f.driver.memHostAlloc(64, MAPPED);
    long device = f.driver.memHostGetDevicePointer(host, 0);
    assertEquals(liveBefore + 1, f.instruments().ledger().live(HandleKind.HOST_MEMORY));
    assertEquals(
        liveBefore + 1,
        f.instruments().ledger().live(HandleKind.HOST_MEMORY),
        "asking for the device pointer allocates nothing");

    f.driver.memFreeHost(host);
    assertEquals(liveBefore, f.instruments().ledger().live(HandleKind.HOST_MEMORY));

    LifetimeViolation useAfterFree =
        assertThrows(
            LifetimeViolation.class, () -> f.driver.memsetD32Async(device + 4, 1, 1, f.stream));
    assertTrue(useAfterFree.getMessage().contains("cuMemFreeHost"), useAfterFree.getMessage());
    assertThrows(LifetimeViolation.class, () -> f.driver.memFreeHost(host), "freed exactly once");
    assertThrows(
        LifetimeViolation.class,
        () -> f.driver.memHostGetDevicePointer(host, 0),
        "no device pointer of freed memory");
  }

  @Test
  void aFailedFreeLeavesTheMappingUsable() {
    MemorySegment host = f.driver.memHostAlloc(64, MAPPED);
    long device = f.driver.memHostGetDevicePointer(host, 0);
    f.instruments().faults().failNth(DriverCall.MEM_FREE_HOST, 1, CuResult.INVALID_VALUE);
    assertStatus(CuResult.INVALID_VALUE, () -> f.driver.memFreeHost(host));
    assertDoesNotThrow(() -> f.driver.memsetD32Async(device, 3, 16, f.stream));
    f.driver.streamSynchronize(f.stream);
    assertEquals(3, host.get(INT, 60));
    f.driver.memFreeHost(host);
  }

  /**
   * A kernel publishes values one at a time: it stores slot {@code i}, fences, stores the count
   * {@code i + 1}, then waits until the host acknowledges it through another mapped word. The host
   * reads each value while the launch is still running (the stream reports it not ready), which
   * only a kernel whose writes are visible during its execution lets it do.
   */
  @Test
  void theHostReadsEachValueAKernelPublishesWhileTheKernelStillRuns() {
    int n = 16;
    MemorySegment values = f.driver.memHostAlloc(4L * n, MAPPED);
    MemorySegment control = f.driver.memHostAlloc(16, MAPPED); // [published, acknowledged, timeout]
    CuFunction publish = publishKernel();
    KernelArguments args = KernelArguments.allocate(f.arena, 4, 8, 8);
    args.setI32(0, n);
    args.setI64(1, f.driver.memHostGetDevicePointer(values, 0));
    args.setI64(2, f.driver.memHostGetDevicePointer(control, 0));

    f.driver.launchKernel(publish, 1, 1, 1, 1, 1, 1, 0, f.stream, args);

    for (int i = 0; i < n; i++) {
      int count = i + 1;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while ((int) INT_HANDLE.getAcquire(control, 0L) < count) {
        assertTrue(System.nanoTime() < deadline, "value " + i + " was not published in 5 s");
        Thread.onSpinWait();
      }
      assertEquals(1000 + 7 * i, (int) INT_HANDLE.getAcquire(values, 4L * i), "slot " + i);
      assertFalse(f.driver.streamQuery(f.stream), "the kernel is still running at value " + i);
      INT_HANDLE.setRelease(control, 4L, count);
    }
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, control.get(INT, 8), "the kernel never timed out waiting for the host");
    f.driver.memFreeHost(values);
    f.driver.memFreeHost(control);
  }

  /** The publishing kernel of the test above, as a Java kernel of a module of its own. */
  private CuFunction publishKernel() {
    var module =
        f.driver.moduleLoadData(
            ModuleImage.ptx(SimFixture.ptx("publish"))
                .withJavaKernel(
                    "publish",
                    l -> {
                      int n = l.i32(0);
                      MemorySegment values = l.deviceMemory(l.pointer(1), 4L * n);
                      MemorySegment control = l.deviceMemory(l.pointer(2), 12);
                      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                      for (int i = 0; i < n; i++) {
                        values.set(INT, 4L * i, 1000 + 7 * i);
                        VarHandle.fullFence(); // __threadfence_system()
                        INT_HANDLE.setRelease(control, 0L, i + 1);
                        while ((int) INT_HANDLE.getAcquire(control, 4L) < i + 1) {
                          if (System.nanoTime() > deadline) {
                            INT_HANDLE.setRelease(control, 8L, 1);
                            return;
                          }
                          Thread.onSpinWait();
                        }
                      }
                    }));
    CuFunction publish = f.driver.moduleGetFunction(module, "publish");
    assertNotEquals(0L, publish.address());
    return publish;
  }
}
