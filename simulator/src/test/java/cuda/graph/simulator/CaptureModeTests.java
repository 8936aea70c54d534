// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.HostAllocFlags;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Spec §3.2: which calls each capture mode prohibits. Unless a test says otherwise, the capture
 * runs on the fixture's non-blocking stream, has one kernel captured first, and the calling
 * thread's own mode is the default GLOBAL.
 */
@Timeout(20)
class CaptureModeTests {

  // Instrumented: some tests read what crossed the driver boundary from the shared ledger.
  @AutoClose final SimFixture f = SimFixture.instrumented();

  private final long counter = f.allocInt();

  private void beginWithOneKernel(CaptureMode mode) {
    f.driver.streamBeginCapture(f.stream, mode);
    f.inc(f.stream, counter);
  }

  /**
   * A "potentially unsafe" call made while the calling thread's own capture runs in {@code mode}:
   * GLOBAL and THREAD_LOCAL captures prohibit it (900 and invalidation, then end capture 901); a
   * RELAXED capture allows it.
   */
  private void assertUnsafe(CaptureMode mode, Executable call) {
    beginWithOneKernel(mode);
    if (mode == CaptureMode.RELAXED) {
      assertDoesNotThrow(call);
      assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
      assertNotNull(f.driver.streamEndCapture(f.stream));
    } else {
      assertStatus(900, call);
      assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
      assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    }
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
  }

  /** A call every mode allows: returns normally and leaves the capture ACTIVE. */
  private CuGraph assertAllowed(CaptureMode mode, Executable call) {
    beginWithOneKernel(mode);
    assertDoesNotThrow(call);
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertNotNull(g);
    return g;
  }

  // ---- potentially unsafe calls, own thread

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void memAllocIsProhibitedInGlobalAndThreadLocalCaptureAndAllowedInRelaxed(CaptureMode mode) {
    assertUnsafe(mode, () -> f.driver.memAlloc(256));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void memFreeIsProhibitedInGlobalAndThreadLocalCaptureAndAllowedInRelaxed(CaptureMode mode) {
    long q = f.driver.memAlloc(256);
    long liveBefore = f.instruments().ledger().live(HandleKind.DEVICE_MEMORY);
    assertUnsafe(mode, () -> f.driver.memFree(q));
    long liveAfter = f.instruments().ledger().live(HandleKind.DEVICE_MEMORY);
    if (mode == CaptureMode.RELAXED) {
      assertEquals(liveBefore - 1, liveAfter, "RELAXED: the memory was freed");
    } else {
      assertEquals(liveBefore, liveAfter, "a prohibited free does not free the memory");
      assertDoesNotThrow(() -> f.driver.memFree(q), "it can still be freed after the capture");
    }
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void memAllocHostIsProhibitedInGlobalAndThreadLocalCaptureAndAllowedInRelaxed(CaptureMode mode) {
    assertUnsafe(mode, () -> f.driver.memAllocHost(64));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void memHostAllocIsProhibitedInGlobalAndThreadLocalCaptureAndAllowedInRelaxed(CaptureMode mode) {
    assertUnsafe(
        mode, () -> f.driver.memHostAlloc(64, HostAllocFlags.PORTABLE | HostAllocFlags.DEVICEMAP));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void eventQueryOfAnUncapturedEventIsProhibitedExceptInRelaxed(CaptureMode mode) {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventRecord(e, f.newStream());
    assertUnsafe(mode, () -> f.driver.eventQuery(e));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void eventSynchronizeOfAnUncapturedEventIsProhibitedExceptInRelaxed(CaptureMode mode) {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventRecord(e, f.newStream());
    assertUnsafe(mode, () -> f.driver.eventSynchronize(e));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void streamQueryOfAnUnrelatedIdleStreamIsProhibitedExceptInRelaxed(CaptureMode mode) {
    CuStream idle = f.newStream();
    assertUnsafe(mode, () -> f.driver.streamQuery(idle));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void streamSynchronizeOfAnUnrelatedIdleStreamIsProhibitedExceptInRelaxed(CaptureMode mode) {
    CuStream idle = f.newStream();
    assertUnsafe(mode, () -> f.driver.streamSynchronize(idle));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void streamQueryOfTheLegacyStreamIsProhibitedExceptInRelaxed(CaptureMode mode) {
    assertUnsafe(mode, () -> f.driver.streamQuery(CuStream.LEGACY));
  }

  @ParameterizedTest
  @EnumSource(
      value = CaptureMode.class,
      names = {"GLOBAL", "RELAXED"})
  void moduleUnloadIsProhibitedInGlobalCaptureAndAllowedInRelaxed(CaptureMode mode) {
    CuModule m = f.driver.moduleLoadData(ModuleImage.ptx(SimFixture.ptx("spare")));
    long modulesBefore = f.instruments().ledger().live(HandleKind.MODULE);
    assertUnsafe(mode, () -> f.driver.moduleUnload(m));
    long expected = mode == CaptureMode.RELAXED ? modulesBefore - 1 : modulesBefore;
    assertEquals(expected, f.instruments().ledger().live(HandleKind.MODULE));
  }

  // ---- allowed calls

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void synchronousCopiesAreAllowedAndRunImmediately(CaptureMode mode) {
    long p = f.allocInt();
    MemorySegment in = f.hostInt(77);
    MemorySegment out = f.hostInt(0);
    assertAllowed(
        mode,
        () -> {
          f.driver.memcpyHtoD(p, in, 4);
          f.driver.memcpyDtoH(out, p, 4);
        });
    assertEquals(77, out.get(SimFixture.INT, 0));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void moduleLoadAndGetFunctionAreAllowedAndTheNewFunctionsLaunchIsCaptured(CaptureMode mode) {
    long p = f.allocInt();
    CuFunction[] fresh = new CuFunction[1];
    beginWithOneKernel(mode);
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.ptx(SimFixture.ptx("fresh"))
                .withJavaKernel("fresh", l -> SimFixture.at(l, 0).set(SimFixture.INT, 0, 55)));
    fresh[0] = f.driver.moduleGetFunction(m, "fresh");
    f.driver.launchKernel(fresh[0], 1, 1, 1, 1, 1, 1, 0, f.stream, f.ptrArg(p));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.KERNEL, GraphNodeType.KERNEL), f.nodeTypes(g));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void streamCreateEventCreateAndMemGetInfoAreAllowed(CaptureMode mode) {
    assertAllowed(
        mode,
        () -> {
          f.driver.streamCreate(StreamFlags.NON_BLOCKING);
          f.driver.eventCreate(0);
          f.driver.memGetInfo();
        });
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void launchIntoAnUnrelatedStreamRunsEagerlyAndIsNotCaptured(CaptureMode mode) {
    long p = f.allocInt();
    CuStream unrelated = f.newStream();
    CuGraph g =
        assertAllowed(
            mode,
            () -> {
              f.store(unrelated, p, 31);
              CaptureMode previous = f.driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
              try {
                f.driver.streamSynchronize(unrelated); // allowed for a RELAXED thread
              } finally {
                f.driver.threadExchangeStreamCaptureMode(previous);
              }
              assertEquals(31, f.readInt(p), "ran while the capture was still active");
            });
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void launchOntoTheLegacyStreamRunsEagerlyWhenTheCapturingStreamIsNonBlocking(CaptureMode mode) {
    long p = f.allocInt();
    CuGraph g =
        assertAllowed(
            mode,
            () -> {
              f.store(CuStream.NULL, p, 32);
              assertEquals(
                  32, f.readInt(p), "the synchronous copy on the legacy stream follows the kernel");
            });
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
  }

  // ---- other threads (cross-thread matrix)

  @ParameterizedTest(name = "capture {0}, other thread {1} => {2}")
  @CsvSource({
    "GLOBAL, GLOBAL, 900",
    "GLOBAL, THREAD_LOCAL, 0",
    "GLOBAL, RELAXED, 0",
    "THREAD_LOCAL, GLOBAL, 0",
    "THREAD_LOCAL, THREAD_LOCAL, 0",
    "THREAD_LOCAL, RELAXED, 0",
    "RELAXED, GLOBAL, 0",
    "RELAXED, THREAD_LOCAL, 0",
    "RELAXED, RELAXED, 0",
  })
  void memAllocOnAnotherThreadFollowsTheCrossThreadMatrix(
      CaptureMode captureMode, CaptureMode threadMode, int expected) {
    beginWithOneKernel(captureMode);
    Executable otherThread =
        () ->
            f.onNewThread(
                () -> {
                  f.driver.threadExchangeStreamCaptureMode(threadMode);
                  return f.driver.memAlloc(256);
                });
    if (expected == 900) {
      assertStatus(900, otherThread);
      assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream), "the main thread's capture");
      assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    } else {
      assertDoesNotThrow(otherThread);
      assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
      assertNotNull(f.driver.streamEndCapture(f.stream));
    }
  }

  @ParameterizedTest(name = "capture {0} => {1}")
  @CsvSource({"GLOBAL, 900", "THREAD_LOCAL, 0", "RELAXED, 0"})
  void eventQueryOfAnUncapturedEventOnAnotherGlobalThread(CaptureMode captureMode, int expected) {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventRecord(e, f.newStream());
    f.driver.eventSynchronize(e);
    beginWithOneKernel(captureMode);
    Executable otherThread = () -> f.onNewThread(() -> f.driver.eventQuery(e));
    assertCrossThread(expected, otherThread);
  }

  @ParameterizedTest(name = "capture {0} => {1}")
  @CsvSource({"GLOBAL, 900", "THREAD_LOCAL, 0", "RELAXED, 0"})
  void streamSynchronizeOfAnUnrelatedStreamOnAnotherGlobalThread(
      CaptureMode captureMode, int expected) {
    CuStream unrelated = f.newStream();
    beginWithOneKernel(captureMode);
    Executable otherThread = () -> f.onNewThread(() -> f.driver.streamSynchronize(unrelated));
    assertCrossThread(expected, otherThread);
  }

  private void assertCrossThread(int expected, Executable otherThread) {
    if (expected == 900) {
      assertStatus(900, otherThread);
      assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
      assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    } else {
      assertDoesNotThrow(otherThread);
      assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
      assertNotNull(f.driver.streamEndCapture(f.stream));
    }
  }

  @Test
  void watchdogThreadInThreadLocalModeMayQueryEventsDuringAnotherThreadsGlobalCapture() {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventRecord(e, f.newStream());
    beginWithOneKernel(CaptureMode.GLOBAL);
    boolean done =
        f.onNewThread(
            () -> {
              CaptureMode previous =
                  f.driver.threadExchangeStreamCaptureMode(CaptureMode.THREAD_LOCAL);
              try {
                f.driver.eventSynchronize(e);
                return f.driver.eventQuery(e);
              } finally {
                f.driver.threadExchangeStreamCaptureMode(previous);
              }
            });
    assertTrue(done);
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    assertNotNull(f.driver.streamEndCapture(f.stream));
  }

  // ---- threadExchangeStreamCaptureMode

  @Test
  void threadExchangeReturnsThePreviousModeStartingFromGlobal() {
    assertEquals(CaptureMode.GLOBAL, f.driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED));
    assertEquals(
        CaptureMode.RELAXED, f.driver.threadExchangeStreamCaptureMode(CaptureMode.THREAD_LOCAL));
    assertEquals(
        CaptureMode.THREAD_LOCAL, f.driver.threadExchangeStreamCaptureMode(CaptureMode.GLOBAL));
  }

  @Test
  void threadCaptureModeIsPerThread() {
    f.driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
    try {
      CaptureMode otherDefault =
          f.onNewThread(() -> f.driver.threadExchangeStreamCaptureMode(CaptureMode.GLOBAL));
      assertEquals(CaptureMode.GLOBAL, otherDefault);
    } finally {
      f.driver.threadExchangeStreamCaptureMode(CaptureMode.GLOBAL);
    }
  }

  @Test
  void relaxedThreadModeAllowsUnsafeCallsDuringItsOwnGlobalCapture() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    CaptureMode previous = f.driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
    try {
      assertDoesNotThrow(() -> f.driver.memFree(f.driver.memAlloc(256)));
    } finally {
      f.driver.threadExchangeStreamCaptureMode(previous);
    }
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    assertNotNull(f.driver.streamEndCapture(f.stream));
  }

  @Test
  void threadLocalThreadModeIsStillProhibitedDuringItsOwnGlobalCapture() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    CaptureMode previous = f.driver.threadExchangeStreamCaptureMode(CaptureMode.THREAD_LOCAL);
    try {
      assertStatus(900, () -> f.driver.memAlloc(256));
    } finally {
      f.driver.threadExchangeStreamCaptureMode(previous);
    }
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }

  @Test
  void relaxedThreadModeIsStillProhibitedFromCallsThatConflictWithCapture() {
    CuEvent e = f.driver.eventCreate(0);
    beginWithOneKernel(CaptureMode.GLOBAL);
    f.driver.eventRecord(e, f.stream);
    CaptureMode previous = f.driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
    try {
      assertStatus(907, () -> f.driver.eventQuery(e));
    } finally {
      f.driver.threadExchangeStreamCaptureMode(previous);
    }
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }
}
