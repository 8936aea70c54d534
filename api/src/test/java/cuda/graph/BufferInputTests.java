// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad input to buffers fails fast, before any driver call, with a message that names the problem
 * and the fix, and loses nothing: the platform goes on working and nothing leaks (checked on the
 * handle ledger after each test).
 */
class BufferInputTests {

  private InstrumentedDriver driver;
  private CudaPlatform platform;
  private Device device;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    driver = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(driver);
    device = platform.defaultDevice();
    stream = device.newStream();
  }

  @AfterEach
  void closePlatform() {
    // The platform still works ...
    assertArrayEquals(
        new int[] {5, 5},
        DeviceBuffer.filled(ElementType.I32, 2, 5)
            .then(b -> b.toIntArray().zip(b.free(), (a, x) -> a))
            .syncOn(stream));
    // ... and holds no memory of the test's.
    assertEquals(
        0,
        driver.ledger().live(HandleKind.DEVICE_MEMORY),
        driver.ledger().describeLive().toString());
    stream.close();
    platform.close();
    assertTrue(driver.violations().isEmpty(), () -> "lifetime violations: " + driver.violations());
  }

  /**
   * Asserts that {@code bad} throws {@code type} with all of {@code phrases}, calling no driver
   * entry point.
   */
  private <X extends Throwable> X refused(Class<X> type, Executable bad, String... phrases) {
    List<LoggedCall> before = driver.calls().records();
    X e = assertThrows(type, bad);
    String message = e.getMessage();
    assertTrue(message != null, () -> "no message: " + e);
    for (String phrase : phrases) {
      assertTrue(message.contains(phrase), () -> "\"" + phrase + "\" missing from: " + message);
    }
    List<LoggedCall> after = driver.calls().records();
    assertEquals(before, after.subList(0, Math.min(before.size(), after.size())));
    assertEquals(
        before.size(),
        after.size(),
        () -> "driver calls made: " + after.subList(before.size(), after.size()));
    return e;
  }

  // ---- defect 3: a boxed value of another element type

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void fillingWithABoxedValueOfAnotherElementTypeIsRefused() {
    try (DeviceBuffer<Float> floats = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        DeviceBuffer<Short> halves = DeviceBuffer.zeros(ElementType.F16, 4).syncOn(stream);
        HostBuffer<Float> host = device.allocateHost(ElementType.F32, 4)) {
      DeviceBuffer raw = floats;
      refused(
          IllegalArgumentException.class, () -> raw.fill(1), "f32", "Integer 1", "Float", "1.0f");
      refused(IllegalArgumentException.class, () -> raw.fill(1.0), "f32", "Double 1.0", "Float");
      DeviceBuffer rawHalves = halves;
      refused(IllegalArgumentException.class, () -> rawHalves.fill(1), "f16", "Integer 1", "Short");
      ElementType rawType = ElementType.F32;
      refused(
          IllegalArgumentException.class,
          () -> DeviceBuffer.filled(rawType, 4, 1),
          "f32",
          "Integer 1",
          "Float");
      HostBuffer rawHost = host;
      refused(IllegalArgumentException.class, () -> rawHost.set(0, 1), "f32", "Integer 1", "Float");

      // Nothing was written; values of the right type still work.
      assertArrayEquals(new float[4], floats.toFloatArray().syncOn(stream));
      halves.fill((short) 0x3c00).syncOn(stream);
      assertArrayEquals(
          new short[] {0x3c00, 0x3c00, 0x3c00, 0x3c00}, halves.toShortArray().syncOn(stream));
    }
  }

  // ---- defect 6: sizes that overflow

  @Test
  void anAllocationWhoseByteSizeOverflowsIsRefusedNamingTheSize() {
    long tooMany = Long.MAX_VALUE / 4;
    refused(
        IllegalArgumentException.class,
        () -> DeviceBuffer.allocate(ElementType.F64, tooMany),
        String.valueOf(tooMany),
        "f64",
        "bytes");
    refused(
        IllegalArgumentException.class,
        () -> DeviceBuffer.zeros(ElementType.I32, Long.MAX_VALUE),
        String.valueOf(Long.MAX_VALUE),
        "bytes");
    refused(
        IllegalArgumentException.class,
        () -> DeviceBuffer.filled(ElementType.I64, tooMany, 1L),
        "bytes");
    long host = driver.ledger().live(HandleKind.HOST_MEMORY);
    refused(
        IllegalArgumentException.class,
        () -> device.allocateHost(ElementType.F64, tooMany),
        String.valueOf(tooMany),
        "f64",
        "bytes");
    assertEquals(host, driver.ledger().live(HandleKind.HOST_MEMORY));
  }

  @Test
  void aSliceOutsideItsBufferIsRefusedNamingTheBuffer() {
    try (DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)) {
      for (long[] bad :
          new long[][] {
            {Long.MAX_VALUE, 2}, {2, Long.MAX_VALUE}, {-1, 2}, {0, -1}, {7, 2}, {9, 1}
          }) {
        refused(
            IndexOutOfBoundsException.class,
            () -> buffer.slice(bad[0], bad[1]),
            buffer.toString(),
            "slice(" + bad[0] + ", " + bad[1] + ")",
            "8");
      }
      refused(IllegalArgumentException.class, () -> buffer.slice(3, 0), "at least one element");
      assertEquals(1, buffer.slice(7, 1).length());
    }
  }

  // ---- defect 10: null arguments name their parameter

  @Test
  @SuppressWarnings("DataFlowIssue")
  void everyNullArgumentIsRefusedNamingItsParameter() {
    try (DeviceBuffer<Integer> ints = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        DeviceBuffer<Float> floats = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        HostBuffer<Integer> host = device.allocateHost(ElementType.I32, 4);
        HostBuffer<Float> hostFloats = device.allocateHost(ElementType.F32, 4)) {
      Map<String, Executable> nulls =
          Map.ofEntries(
              Map.entry("host.write(int[])", () -> host.write((int[]) null)),
              Map.entry("host.write(float[])", () -> hostFloats.write((float[]) null)),
              Map.entry("host.write(double[])", () -> host.write((double[]) null)),
              Map.entry("host.write(long[])", () -> host.write((long[]) null)),
              Map.entry("host.set", () -> host.set(0, null)),
              Map.entry("allocateHost", () -> device.allocateHost(null, 4)),
              Map.entry("attribute", () -> device.attribute((Device.Attribute) null)),
              Map.entry("fromArray(float[])", () -> DeviceBuffer.fromArray((float[]) null)),
              Map.entry("fromArray(double[])", () -> DeviceBuffer.fromArray((double[]) null)),
              Map.entry("fromArray(int[])", () -> DeviceBuffer.fromArray((int[]) null)),
              Map.entry("fromArray(long[])", () -> DeviceBuffer.fromArray((long[]) null)),
              Map.entry("fromArray(byte[])", () -> DeviceBuffer.fromArray((byte[]) null)),
              Map.entry(
                  "fromArray(type, short[])", () -> DeviceBuffer.fromArray(ElementType.F16, null)),
              Map.entry(
                  "fromArray(null, short[])", () -> DeviceBuffer.fromArray(null, new short[1])),
              Map.entry(
                  "fromSegment(type, null)", () -> DeviceBuffer.fromSegment(ElementType.I8, null)),
              Map.entry("allocate", () -> DeviceBuffer.allocate(null, 1)),
              Map.entry("zeros", () -> DeviceBuffer.zeros(null, 1)),
              Map.entry("filled(null, ..)", () -> DeviceBuffer.filled(null, 1, 1)),
              Map.entry("filled(.., null)", () -> DeviceBuffer.filled(ElementType.I32, 1, null)),
              Map.entry(
                  "copyFrom(DeviceBuffer)", () -> ints.copyFrom((DeviceBuffer<Integer>) null)),
              Map.entry("copyFrom(HostBuffer)", () -> ints.copyFrom((HostBuffer<Integer>) null)),
              Map.entry("copyTo", () -> ints.copyTo(null)),
              Map.entry("fill", () -> ints.fill(null)),
              Map.entry("write(int[])", () -> ints.write((int[]) null)),
              Map.entry("write(float[])", () -> floats.write((float[]) null)),
              Map.entry("write(double[])", () -> ints.write((double[]) null)),
              Map.entry("write(long[])", () -> ints.write((long[]) null)),
              Map.entry("write(MemorySegment)", () -> ints.write((MemorySegment) null)));
      for (Map.Entry<String, Executable> e : nulls.entrySet()) {
        NullPointerException npe =
            assertThrows(NullPointerException.class, e.getValue(), e.getKey());
        assertTrue(
            npe.getMessage() != null && !npe.getMessage().isBlank(),
            e.getKey() + " throws an NPE without a message");
        assertTrue(
            !npe.getMessage().contains("because"),
            e.getKey() + ": the JVM's helpful message, not a parameter name: " + npe.getMessage());
      }
    }
  }

  @Test
  void aLazyOpPassedWhereAKernelTakesABufferSaysToAllocateFirstOrCompose() {
    DeviceOp<DeviceBuffer<Integer>> lazy = DeviceBuffer.zeros(ElementType.I32, 3);
    IllegalArgumentException e =
        refused(
            IllegalArgumentException.class,
            () -> KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 3), 3, lazy),
            "argument 1 must be a DeviceBuffer<i32>",
            "an op (allocate i32[3]",
            "syncOn",
            "then");
    assertTrue(!e.getMessage().contains("AllocateOp"), "no internal class name: " + e.getMessage());
    refused(
        NullPointerException.class,
        () -> KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 3), (Object[]) null),
        "arguments");

    // Composed, the same op runs.
    assertArrayEquals(
        new int[] {1, 1, 1},
        lazy.then(
                b ->
                    KernelFixtures.ADD_ONE
                        .launch(LaunchConfig.of(1, 3), 3, b)
                        .andThen(b.toIntArray())
                        .zip(b.free(), (a, x) -> a))
            .syncOn(stream));
  }

  // ---- closed and wrong-type arguments

  @Test
  void opsOnAClosedBufferAreRefusedWhenBuilt() {
    DeviceBuffer<Integer> closed = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
    closed.close();
    try (DeviceBuffer<Integer> open = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        HostBuffer<Integer> host = device.allocateHost(ElementType.I32, 4)) {
      HostBuffer<Integer> closedHost = device.allocateHost(ElementType.I32, 4);
      closedHost.close();
      String name = closed.toString();
      List<Executable> uses =
          List.of(
              () -> closed.fill(1),
              () -> closed.copyFrom(open),
              () -> open.copyFrom(closed),
              () -> closed.copyFrom(host),
              () -> closed.copyTo(host),
              () -> closed.write(new int[4]),
              () -> closed.toIntArray(),
              () -> closed.toByteArray(),
              () -> closed.duplicate(),
              () -> closed.free());
      for (Executable use : uses) {
        refused(IllegalStateException.class, use, name, "is closed");
      }
      refused(
          IllegalStateException.class,
          () -> open.copyFrom(closedHost),
          closedHost.toString(),
          "is closed");
      refused(
          IllegalStateException.class,
          () -> open.copyTo(closedHost),
          closedHost.toString(),
          "is closed");

      // A kernel launch over a closed buffer is refused when it executes, before the launch call
      // (a capture of it begins, so that the capture protocol sees and ends it).
      GraphNode<?> launch = KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 4), 4, closed);
      long launches = driver.calls().count(DriverCall.LAUNCH_KERNEL);
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> launch.syncOn(stream));
      assertTrue(e.getMessage().contains(name + " is closed"), e.getMessage());
      assertEquals(launches, driver.calls().count(DriverCall.LAUNCH_KERNEL));
    }
  }

  @Test
  void readingOrWritingAnotherElementTypeNamesTheRightMethod() {
    try (DeviceBuffer<Integer> ints = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        DeviceBuffer<Short> halves = DeviceBuffer.zeros(ElementType.BF16, 4).syncOn(stream);
        HostBuffer<Integer> host = device.allocateHost(ElementType.I32, 4)) {
      refused(
          IllegalArgumentException.class, ints::toFloatArray, "holds i32, not f32", "toIntArray()");
      refused(
          IllegalArgumentException.class,
          () -> ints.write(new float[4]),
          "holds i32, not f32",
          "int[]");
      refused(IllegalArgumentException.class, ints::toShortArray, "i32", "toIntArray()");
      refused(IllegalArgumentException.class, halves::toIntArray, "bf16", "toShortArray()");
      refused(
          IllegalArgumentException.class,
          () -> halves.write(new int[4]),
          "bf16",
          "write(MemorySegment)");
      refused(
          IllegalArgumentException.class, host::toFloatArray, "holds i32, not f32", "toIntArray()");
      refused(
          IllegalArgumentException.class,
          () -> host.write(new long[4]),
          "holds i32, not i64",
          "int[]");
      refused(IllegalArgumentException.class, () -> host.write(new int[5]), "5", "4");
      refused(IllegalArgumentException.class, () -> ints.write(new int[3]), "3", "4");
      refused(IndexOutOfBoundsException.class, () -> host.get(4), host.toString(), "4");
      refused(IndexOutOfBoundsException.class, () -> host.set(-1, 1), host.toString(), "-1");
    }
  }

  // ---- defect 11: a host buffer's segment never outlives its memory

  @Test
  void aHostBuffersAccessorsFailWithItsOwnMessageOnceClosed() {
    HostBuffer<Integer> host = device.allocateHost(ElementType.I32, 4);
    MemorySegment segment = host.segment();
    segment.setAtIndex(ValueLayout.JAVA_INT, 0, 42);
    assertEquals(42, host.get(0));
    long pinned = driver.ledger().live(HandleKind.HOST_MEMORY);
    host.close();
    assertEquals(
        pinned - 1, driver.ledger().live(HandleKind.HOST_MEMORY), "nothing queued uses it: freed");

    assertThrows(
        IllegalStateException.class,
        () -> segment.get(ValueLayout.JAVA_INT, 0),
        "the segment handed out died with the memory");
    String name = host.toString();
    List<Executable> accessors =
        List.of(
            host::segment,
            () -> host.get(0),
            () -> host.set(0, 1),
            host::toIntArray,
            () -> host.write(new int[] {1}));
    for (Executable accessor : accessors) {
      refused(IllegalStateException.class, accessor, name, "is closed");
    }
  }
}
