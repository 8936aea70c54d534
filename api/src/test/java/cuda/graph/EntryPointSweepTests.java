// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The rest of the public entry points (kernels, events, streams, devices, launch shapes, element
 * and parameter types) answer null, negative and closed arguments with a message naming the
 * parameter or the problem and the fix.
 */
class EntryPointSweepTests {

  private InstrumentedDriver driver;
  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    driver = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(driver);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    assertEquals(0, driver.ledger().live(HandleKind.DEVICE_MEMORY));
    stream.close();
    platform.close();
    assertTrue(driver.violations().isEmpty(), () -> "lifetime violations: " + driver.violations());
  }

  private static void assertAll(
      Class<? extends Throwable> type, Map<String, Executable> cases, String... phrases) {
    for (Map.Entry<String, Executable> c : cases.entrySet()) {
      Throwable e = assertThrows(type, c.getValue(), c.getKey());
      String message = e.getMessage();
      assertTrue(
          message != null && !message.contains("because \""), () -> c.getKey() + ": " + message);
      for (String phrase : phrases) {
        assertTrue(message.contains(phrase), () -> c.getKey() + ": '" + phrase + "' in " + message);
      }
    }
  }

  @Test
  void kernelEntryPointsNameTheirNullParameter() {
    Kernel kernel = KernelFixtures.ADD_ONE;
    LaunchConfig one = LaunchConfig.of(1, 1);
    Map<String, Executable> nulls = new LinkedHashMap<>();
    nulls.put("load(null)", () -> kernel.load(null));
    nulls.put("runReference(null, ...)", () -> kernel.runReference(null, 1, new int[1]));
    nulls.put("runReference(config, null)", () -> kernel.runReference(one, (Object[]) null));
    nulls.put("launch(null, ...)", () -> kernel.launch(null, 1, null));
    nulls.put("launch(config, null)", () -> kernel.launch(one, (Object[]) null));
    nulls.put("KernelParam.pointer(null)", () -> KernelParam.pointer(null));
    nulls.put("LaunchConfig(null, ..)", () -> new LaunchConfig(null, Dim3.of(1), 0));
    nulls.put("LaunchConfig(.., null, ..)", () -> new LaunchConfig(Dim3.of(1), null, 0));
    for (Map.Entry<String, Executable> c : nulls.entrySet()) {
      NullPointerException e = assertThrows(NullPointerException.class, c.getValue(), c.getKey());
      assertTrue(
          e.getMessage() != null && !e.getMessage().contains("because \""),
          () -> c.getKey() + ": " + e.getMessage());
    }
    assertEquals(
        "device", assertThrows(NullPointerException.class, () -> kernel.load(null)).getMessage());
    assertEquals(
        "config",
        assertThrows(NullPointerException.class, () -> kernel.runReference(null, 1, new int[1]))
            .getMessage());
  }

  @Test
  void opsOnAClosedEventAreRefusedWhenBuilt() {
    CudaEvent closed = platform.defaultDevice().newEvent();
    closed.close();
    Map<String, Executable> uses = new LinkedHashMap<>();
    uses.put("record()", closed::record);
    uses.put("waitFor()", closed::waitFor);
    uses.put("isDone()", closed::isDone);
    uses.put("synchronize()", closed::synchronize);
    assertAll(IllegalStateException.class, uses, closed.toString(), "is closed");
    try (CudaEvent open = platform.defaultDevice().newEvent()) {
      open.record().syncOn(stream);
      assertAll(
          IllegalStateException.class,
          Map.of("elapsedMillisSince(closed)", () -> open.elapsedMillisSince(closed)),
          "is closed");
    }
  }

  @Test
  void aClosedStreamSaysToMakeANewOne() {
    Stream closed = platform.defaultDevice().newStream();
    closed.close();
    Map<String, Executable> uses = new LinkedHashMap<>();
    uses.put("syncOn", () -> DeviceOp.value(1).syncOn(closed));
    uses.put("synchronize()", closed::synchronize);
    uses.put("isIdle()", closed::isIdle);
    uses.put("capture", () -> CudaGraph.capture(closed, DeviceOp.value(1)));
    assertAll(IllegalStateException.class, uses, "is closed", "create a new one");
  }

  @Test
  void aDeviceOfAClosedPlatformSaysThePlatformIsClosed() {
    CudaPlatform closing = SimulatorPlatforms.simulator();
    Device device = closing.defaultDevice();
    Stream s = device.newStream();
    closing.close();
    Map<String, Executable> uses = new LinkedHashMap<>();
    uses.put("newStream()", device::newStream);
    uses.put("newEvent()", device::newEvent);
    uses.put("allocateHost", () -> device.allocateHost(ElementType.I32, 1));
    uses.put("syncOn", () -> DeviceOp.value(1).syncOn(s));
    uses.put("synchronize()", s::synchronize);
    assertAll(IllegalStateException.class, uses, "is closed", "before closing it");
  }

  @Test
  void shapesAndLengthsBelowOneNameTheValue() {
    Map<String, Executable> bad = new LinkedHashMap<>();
    bad.put("Dim3.of(0)", () -> Dim3.of(0));
    bad.put("new Dim3(1, -2, 1)", () -> new Dim3(1, -2, 1));
    bad.put("LaunchConfig.of(0, 32)", () -> LaunchConfig.of(0, 32));
    assertAll(IllegalArgumentException.class, bad, "at least 1");
    assertAll(
        IllegalArgumentException.class,
        Map.of("withSharedMemory(-1)", () -> LaunchConfig.of(1, 1).withSharedMemory(-1)),
        "shared memory",
        "-1");
    assertAll(
        IllegalArgumentException.class,
        Map.of(
            "zeros(i32, -1)", () -> DeviceBuffer.zeros(ElementType.I32, -1),
            "allocateHost(f32, -3)",
                () -> platform.defaultDevice().allocateHost(ElementType.F32, -3)),
        "at least one",
        "-");
    assertAll(
        IllegalArgumentException.class,
        Map.of("roundRobin(0)", () -> SchedulingPolicy.roundRobin(0)),
        "at least one",
        "0");
    assertEquals(8, ElementType.values().size());
  }
}
