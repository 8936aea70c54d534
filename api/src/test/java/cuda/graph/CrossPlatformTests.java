// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Objects of one platform used with another, both on device 0: the message says the object belongs
 * to another platform (not "lives on device 0 but the op executes on ... device 0"), no driver of
 * either platform sees the call, and both platforms go on working without leaking.
 */
class CrossPlatformTests {

  private InstrumentedDriver mine;
  private InstrumentedDriver theirs;
  private CudaPlatform platform;
  private CudaPlatform other;
  private Stream stream;
  private Stream foreignStream;

  @BeforeEach
  void openPlatforms() {
    mine = SimulatorPlatforms.instrumented(Simulator.builder().devices(2).build());
    theirs = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(mine);
    other = SimulatorPlatforms.over(theirs);
    stream = platform.defaultDevice().newStream();
    foreignStream = other.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatforms() {
    for (InstrumentedDriver d : List.of(mine, theirs)) {
      assertEquals(
          0, d.ledger().live(HandleKind.DEVICE_MEMORY), d.ledger().describeLive().toString());
      assertEquals(0, d.ledger().live(HandleKind.EVENT), d.ledger().describeLive().toString());
    }
    stream.close();
    foreignStream.close();
    platform.close();
    other.close();
    assertTrue(mine.violations().isEmpty(), () -> "lifetime violations: " + mine.violations());
    assertTrue(theirs.violations().isEmpty(), () -> "lifetime violations: " + theirs.violations());
  }

  /**
   * Asserts that {@code bad} fails naming another platform, that neither driver saw a call
   * meanwhile beyond the execution's own bookkeeping, and that both platforms still work.
   */
  private void refusedAsForeign(Executable bad, String what) {
    long myWork = work(mine);
    long theirWork = work(theirs);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad, what);
    assertTrue(e.getMessage().contains("another platform"), () -> what + ": " + e.getMessage());
    assertTrue(!e.getMessage().contains("lives on device"), () -> what + ": " + e.getMessage());
    assertEquals(myWork, work(mine), () -> what + ": this platform's driver did work");
    assertEquals(theirWork, work(theirs), () -> what + ": the other platform's driver did work");
    for (Stream s : List.of(stream, foreignStream)) {
      assertArrayEquals(
          new int[] {2, 2},
          DeviceBuffer.filled(ElementType.I32, 2, 2)
              .then(b -> b.toIntArray().zip(b.free(), (a, x) -> a))
              .syncOn(s));
    }
  }

  /** {@return how many calls that enqueue or observe work the driver has seen} */
  private static long work(InstrumentedDriver driver) {
    return driver.calls().records().stream()
        .map(LoggedCall::call)
        .filter(
            c ->
                switch (c) {
                  case MEMSET_D8_ASYNC,
                      MEMSET_D16_ASYNC,
                      MEMSET_D32_ASYNC,
                      MEMSET_D2D32_ASYNC,
                      MEMCPY_DTOD_ASYNC,
                      MEMCPY_HTOD_ASYNC,
                      MEMCPY_DTOH_ASYNC,
                      LAUNCH_KERNEL,
                      EVENT_RECORD,
                      STREAM_WAIT_EVENT,
                      EVENT_ELAPSED_TIME ->
                      true;
                  default -> false;
                })
        .count();
  }

  // ---- defect 7: buffers

  @Test
  void aBufferOfAnotherPlatformOnTheSameDeviceIsNamedAsSuch() {
    try (DeviceBuffer<Integer> ours = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        DeviceBuffer<Integer> foreign =
            DeviceBuffer.zeros(ElementType.I32, 4).syncOn(foreignStream);
        HostBuffer<Integer> foreignHost = other.defaultDevice().allocateHost(ElementType.I32, 4)) {
      refusedAsForeign(() -> foreign.fill(1).syncOn(stream), "fill");
      refusedAsForeign(() -> ours.fill(1).syncOn(foreignStream), "fill on their stream");
      refusedAsForeign(() -> ours.copyFrom(foreign).syncOn(stream), "copyFrom");
      refusedAsForeign(() -> foreign.toIntArray().syncOn(stream), "toIntArray");
      refusedAsForeign(
          () -> KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 4), 4, foreign).syncOn(stream),
          "kernel");
      refusedAsForeign(() -> ours.copyFrom(foreignHost).syncOn(stream), "copyFrom(HostBuffer)");
      refusedAsForeign(() -> ours.copyTo(foreignHost).syncOn(stream), "copyTo(HostBuffer)");
      assertArrayEquals(new int[4], ours.toIntArray().syncOn(stream), "nothing was written");
    }
  }

  @Test
  void aBufferOfAnotherDeviceOfTheSamePlatformIsStillNamedByDevice() {
    try (Stream onDevice1 = platform.device(1).newStream();
        DeviceBuffer<Integer> ours = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ours.fill(1).syncOn(onDevice1));
      assertTrue(e.getMessage().contains("device 0"), e.getMessage());
      assertTrue(!e.getMessage().contains("another platform"), e.getMessage());
    }
  }

  // ---- defect 5: events

  @Test
  void anEventOfAnotherPlatformIsRefusedWhenRecorded() {
    try (CudaEvent ours = platform.defaultDevice().newEvent();
        CudaEvent foreign = other.defaultDevice().newEvent()) {
      refusedAsForeign(() -> foreign.record().syncOn(stream), "record");
      refusedAsForeign(() -> ours.record().syncOn(foreignStream), "record on their stream");
    }
  }

  @Test
  void anEventOfAnotherPlatformIsRefusedWhenWaitedFor() {
    try (CudaEvent ours = platform.defaultDevice().newEvent();
        CudaEvent foreign = other.defaultDevice().newEvent()) {
      foreign.record().syncOn(foreignStream);
      ours.record().syncOn(stream);
      refusedAsForeign(() -> foreign.waitFor().syncOn(stream), "waitFor");
      refusedAsForeign(() -> ours.waitFor().syncOn(foreignStream), "waitFor on their stream");
    }
  }

  @Test
  void anEventOfAnotherPlatformIsRefusedAsTheStartOfATiming() {
    try (CudaEvent ours = platform.defaultDevice().newEvent();
        CudaEvent foreign = other.defaultDevice().newEvent()) {
      foreign.record().syncOn(foreignStream);
      ours.record().syncOn(stream);
      refusedAsForeign(() -> ours.elapsedMillisSince(foreign), "elapsedMillisSince");
      refusedAsForeign(() -> foreign.elapsedMillisSince(ours), "elapsedMillisSince, theirs");
      NullPointerException n =
          assertThrows(NullPointerException.class, () -> ours.elapsedMillisSince(null));
      assertEquals("start", n.getMessage());
      assertTrue(ours.elapsedMillisSince(ours) >= 0, "an event of the platform still times");
    }
  }

  @Test
  void anEventOfAnotherDeviceIsRefusedAsTheStartOfATiming() {
    try (Stream onDevice1 = platform.device(1).newStream();
        CudaEvent start = platform.device(1).newEvent();
        CudaEvent end = platform.defaultDevice().newEvent()) {
      start.record().syncOn(onDevice1);
      end.record().syncOn(stream);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> end.elapsedMillisSince(start));
      assertTrue(e.getMessage().contains("device 1"), e.getMessage());
      assertTrue(e.getMessage().contains("device 0"), e.getMessage());
    }
  }
}
