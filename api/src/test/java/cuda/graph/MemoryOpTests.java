// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Buffers of every element type: round trips, fills, copies, slices, and fast failures for wrong
 * shapes.
 */
class MemoryOpTests {

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

  /** Runs {@code op} and frees the buffer it made, returning what {@code read} reads from it. */
  private <T, A> A roundTrip(
      DeviceOp<DeviceBuffer<T>> op,
      java.util.function.Function<DeviceBuffer<T>, DeviceOp<A>> read) {
    return op.then(b -> read.apply(b).zip(b.free(), (a, ignored) -> a)).syncOn(stream);
  }

  /**
   * Asserts that building an op fails with a message containing {@code part}, before any driver
   * call.
   */
  private void assertFailsFast(Executable build, String part) {
    List<LoggedCall> before = simulator.calls().records();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
    assertTrue(e.getMessage().contains(part), () -> "'" + part + "' in: " + e.getMessage());
    assertEquals(before, simulator.calls().records(), "no driver call");
  }

  // ---- round trips

  @Test
  void f32RoundTripsIncludingSpecialValues() {
    float[] data = {
      0f, -0f, 1.5f, -3.25f, Float.NaN, Float.POSITIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE
    };
    assertArrayEquals(data, roundTrip(DeviceBuffer.fromArray(data), DeviceBuffer::toFloatArray));
  }

  @Test
  void f64RoundTrips() {
    double[] data = {
      0, -0.0, Math.PI, -1e300, Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE
    };
    assertArrayEquals(data, roundTrip(DeviceBuffer.fromArray(data), DeviceBuffer::toDoubleArray));
  }

  @Test
  void i32RoundTrips() {
    int[] data = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x12345678};
    assertArrayEquals(data, roundTrip(DeviceBuffer.fromArray(data), DeviceBuffer::toIntArray));
  }

  @Test
  void i64RoundTrips() {
    long[] data = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x1234_5678_9abc_def0L};
    assertArrayEquals(data, roundTrip(DeviceBuffer.fromArray(data), DeviceBuffer::toLongArray));
  }

  @Test
  void i8RoundTripsAsBytes() {
    byte[] data = {0, 1, -1, Byte.MIN_VALUE, Byte.MAX_VALUE, 42, 7};
    assertArrayEquals(data, roundTrip(DeviceBuffer.fromArray(data), DeviceBuffer::toByteArray));
  }

  @Test
  void sixteenBitTypesRoundTripAsShorts() {
    short[] data = {
      0, 1, -1, Short.MIN_VALUE, Short.MAX_VALUE, 0x3c00 /* 1.0 in f16 */, 0x3f80 /* 1.0 in bf16 */
    };
    for (ElementType<Short> type : List.of(ElementType.I16, ElementType.F16, ElementType.BF16)) {
      DeviceOp<DeviceBuffer<Short>> made = DeviceBuffer.fromArray(type, data);
      assertArrayEquals(
          data,
          roundTrip(
              made.map(
                  b -> {
                    assertEquals(type, b.elementType());
                    return b;
                  }),
              DeviceBuffer::toShortArray),
          type.name());
    }
    assertFailsFast(
        () -> DeviceBuffer.fromArray(badShortType(), data),
        "short[] data fits a 16-bit element type");
  }

  /**
   * A {@code ElementType<Short>}-typed reference to a type that is not 16-bit, as raw-typed callers
   * could pass.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ElementType<Short> badShortType() {
    return (ElementType) ElementType.I32;
  }

  @Test
  void everyElementTypeRoundTripsThroughASegmentAndItsRawBytes() {
    for (ElementType<?> type : ElementType.values()) {
      byte[] bytes = new byte[type.byteSize() * 5];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) (i * 37 + type.byteSize());
      }
      byte[] back =
          roundTrip(
              DeviceBuffer.fromSegment(type, MemorySegment.ofArray(bytes))
                  .map(
                      b -> {
                        assertEquals(5, b.length());
                        assertEquals(bytes.length, b.byteSize());
                        return b;
                      }),
              DeviceBuffer::toByteArray);
      assertArrayEquals(bytes, back, type.name());
    }
  }

  @Test
  void writeReplacesTheContentsOfAnExistingBuffer() {
    try (DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 3).syncOn(stream)) {
      buffer.write(new int[] {4, 5, 6}).syncOn(stream);
      assertArrayEquals(new int[] {4, 5, 6}, buffer.toIntArray().syncOn(stream));

      int[] bits = {7, 8, 9};
      buffer.write(MemorySegment.ofArray(bits)).syncOn(stream);
      assertArrayEquals(bits, buffer.toIntArray().syncOn(stream));
    }
    try (DeviceBuffer<Double> doubles = DeviceBuffer.zeros(ElementType.F64, 2).syncOn(stream);
        DeviceBuffer<Long> longs = DeviceBuffer.zeros(ElementType.I64, 2).syncOn(stream);
        DeviceBuffer<Float> floats = DeviceBuffer.zeros(ElementType.F32, 2).syncOn(stream)) {
      doubles
          .write(new double[] {1.5, 2.5})
          .andThen(longs.write(new long[] {-1, 1}))
          .andThen(floats.write(new float[] {3f, 4f}))
          .syncOn(stream);
      assertArrayEquals(new double[] {1.5, 2.5}, doubles.toDoubleArray().syncOn(stream));
      assertArrayEquals(new long[] {-1, 1}, longs.toLongArray().syncOn(stream));
      assertArrayEquals(new float[] {3f, 4f}, floats.toFloatArray().syncOn(stream));
    }
  }

  @Test
  void aLargeArrayRoundTripsThroughSeveralStagingBlocks() {
    int n = 300_000; // 1.2 MB: larger than the smallest staging block
    int[] data = KernelFixtures.iota(n, -n / 2);
    assertArrayEquals(data, roundTrip(DeviceBuffer.fromArray(data), DeviceBuffer::toIntArray));
  }

  // ---- zeros, filled, fill

  @Test
  void zerosAndFilledSetEveryElementOfEveryType() {
    int n = 9;
    float[] f32 = new float[n];
    Arrays.fill(f32, -2.5f);
    assertArrayEquals(
        new float[n],
        roundTrip(DeviceBuffer.zeros(ElementType.F32, n), DeviceBuffer::toFloatArray));
    assertArrayEquals(
        f32, roundTrip(DeviceBuffer.filled(ElementType.F32, n, -2.5f), DeviceBuffer::toFloatArray));

    int[] i32 = new int[n];
    Arrays.fill(i32, 0xdeadbeef);
    assertArrayEquals(
        new int[n], roundTrip(DeviceBuffer.zeros(ElementType.I32, n), DeviceBuffer::toIntArray));
    assertArrayEquals(
        i32,
        roundTrip(DeviceBuffer.filled(ElementType.I32, n, 0xdeadbeef), DeviceBuffer::toIntArray));

    byte[] i8 = new byte[n];
    Arrays.fill(i8, (byte) -3);
    assertArrayEquals(
        i8,
        roundTrip(DeviceBuffer.filled(ElementType.I8, n, (byte) -3), DeviceBuffer::toByteArray));

    for (ElementType<Short> type : List.of(ElementType.I16, ElementType.F16, ElementType.BF16)) {
      short[] s = new short[n];
      Arrays.fill(s, (short) 0xbeef);
      assertArrayEquals(
          s,
          roundTrip(DeviceBuffer.filled(type, n, (short) 0xbeef), DeviceBuffer::toShortArray),
          type.name());
      assertArrayEquals(
          new short[n],
          roundTrip(DeviceBuffer.zeros(type, n), DeviceBuffer::toShortArray),
          type.name());
    }
  }

  @Test
  void sixtyFourBitFillsWithDifferentHalvesUseTwoStridedMemsets() {
    int n = 7;
    long pattern = 0x0123_4567_89ab_cdefL;
    long[] i64 = new long[n];
    Arrays.fill(i64, pattern);
    double[] f64 = new double[n];
    Arrays.fill(f64, -1.0 / 3); // the two 32-bit halves differ

    long stridedBefore = simulator.calls().count(DriverCall.MEMSET_D2D32_ASYNC);
    assertArrayEquals(
        i64,
        roundTrip(DeviceBuffer.filled(ElementType.I64, n, pattern), DeviceBuffer::toLongArray));
    assertArrayEquals(
        f64,
        roundTrip(DeviceBuffer.filled(ElementType.F64, n, -1.0 / 3), DeviceBuffer::toDoubleArray));
    assertEquals(4, simulator.calls().count(DriverCall.MEMSET_D2D32_ASYNC) - stridedBefore);

    // Equal halves need only one plain 32-bit memset.
    long uniform = 0x0000_0005_0000_0005L;
    long[] u = new long[n];
    Arrays.fill(u, uniform);
    long plainBefore = simulator.calls().count(DriverCall.MEMSET_D32_ASYNC);
    assertArrayEquals(
        u, roundTrip(DeviceBuffer.filled(ElementType.I64, n, uniform), DeviceBuffer::toLongArray));
    assertArrayEquals(
        new double[n],
        roundTrip(DeviceBuffer.zeros(ElementType.F64, n), DeviceBuffer::toDoubleArray));
    assertEquals(2, simulator.calls().count(DriverCall.MEMSET_D32_ASYNC) - plainBefore);
    assertEquals(4, simulator.calls().count(DriverCall.MEMSET_D2D32_ASYNC) - stridedBefore);
  }

  @Test
  void fillOnAnExistingBufferAndOnASliceChangesOnlyTheirElements() {
    try (DeviceBuffer<Long> buffer = DeviceBuffer.filled(ElementType.I64, 6, -1L).syncOn(stream)) {
      DeviceBuffer<Long> middle = buffer.slice(2, 3);
      middle.fill(0x7fff_ffff_0000_0001L).syncOn(stream);
      long x = 0x7fff_ffff_0000_0001L;
      assertArrayEquals(new long[] {-1, -1, x, x, x, -1}, buffer.toLongArray().syncOn(stream));

      buffer.fill(9L).syncOn(stream);
      assertArrayEquals(new long[] {9, 9, 9, 9, 9, 9}, buffer.toLongArray().syncOn(stream));
    }
  }

  // ---- copies

  @Test
  void duplicateCopiesTheContentsIntoAnIndependentBuffer() {
    try (DeviceBuffer<Integer> original =
            DeviceBuffer.fromArray(new int[] {1, 2, 3}).syncOn(stream);
        DeviceBuffer<Integer> copy = original.duplicate().syncOn(stream)) {
      KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 3), 3, copy).syncOn(stream);

      assertArrayEquals(new int[] {1, 2, 3}, original.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {2, 3, 4}, copy.toIntArray().syncOn(stream));
      assertEquals(original.elementType(), copy.elementType());
      assertEquals(original.length(), copy.length());
    }
  }

  @Test
  void copyFromAndCopyToMoveDataBetweenDeviceAndPinnedHostBuffers() {
    Device device = platform.defaultDevice();
    try (HostBuffer<Double> in = device.allocateHost(ElementType.F64, 4);
        HostBuffer<Double> out = device.allocateHost(ElementType.F64, 4);
        DeviceBuffer<Double> a = DeviceBuffer.zeros(ElementType.F64, 4).syncOn(stream);
        DeviceBuffer<Double> b = DeviceBuffer.zeros(ElementType.F64, 4).syncOn(stream)) {
      in.write(new double[] {1.25, -2, 3e10, 4});
      assertEquals(ElementType.F64, in.elementType());
      assertEquals(4, in.length());
      assertEquals(32, in.byteSize());

      a.copyFrom(in).andThen(b.copyFrom(a)).andThen(b.copyTo(out)).syncOn(stream);

      assertArrayEquals(new double[] {1.25, -2, 3e10, 4}, out.toDoubleArray());
      assertEquals(3e10, out.get(2));
      out.set(2, 5.0);
      assertEquals(5.0, out.segment().getAtIndex(ValueLayout.JAVA_DOUBLE, 2));
    }
  }

  @Test
  void hostBuffersReadAndWriteEveryElementType() {
    Device device = platform.defaultDevice();
    try (HostBuffer<Byte> bytes = device.allocateHost(ElementType.I8, 2);
        HostBuffer<Short> halves = device.allocateHost(ElementType.F16, 2);
        HostBuffer<Float> floats = device.allocateHost(ElementType.F32, 2);
        HostBuffer<Integer> ints = device.allocateHost(ElementType.I32, 2);
        HostBuffer<Long> longs = device.allocateHost(ElementType.I64, 2)) {
      bytes.set(1, (byte) -5);
      halves.set(1, (short) 0x3c00);
      floats.set(1, 2.5f);
      ints.set(1, -9);
      longs.set(1, Long.MIN_VALUE);
      assertEquals((byte) -5, bytes.get(1));
      assertEquals((short) 0x3c00, halves.get(1));
      assertEquals(2.5f, floats.get(1));
      assertEquals(-9, ints.get(1));
      assertEquals(Long.MIN_VALUE, longs.get(1));
      assertThrows(IndexOutOfBoundsException.class, () -> ints.get(2));
      IllegalArgumentException wrongType =
          assertThrows(IllegalArgumentException.class, ints::toFloatArray);
      assertTrue(wrongType.getMessage().contains("holds i32, not f32"), wrongType.getMessage());
      assertThrows(IllegalArgumentException.class, () -> ints.write(new int[3]));
    }
    HostBuffer<Integer> closed = device.allocateHost(ElementType.I32, 1);
    closed.close();
    assertTrue(closed.isClosed());
    assertThrows(IllegalStateException.class, () -> closed.get(0));
    assertThrows(IllegalStateException.class, closed::segment);
    assertThrows(IllegalArgumentException.class, () -> device.allocateHost(ElementType.I32, 0));
  }

  @Test
  void aSliceSharesItsParentsMemoryAndLifetimeButOwnsNothing() {
    DeviceBuffer<Integer> parent =
        DeviceBuffer.fromArray(new int[] {0, 1, 2, 3, 4, 5}).syncOn(stream);
    DeviceBuffer<Integer> slice = parent.slice(1, 3);
    assertEquals(3, slice.length());
    assertTrue(slice.toString().contains("slice"), slice.toString());

    assertArrayEquals(new int[] {1, 2, 3}, slice.toIntArray().syncOn(stream));
    KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 3), 3, slice).syncOn(stream);
    assertArrayEquals(new int[] {0, 2, 3, 4, 4, 5}, parent.toIntArray().syncOn(stream));

    try (DeviceBuffer<Integer> other = DeviceBuffer.fromArray(new int[] {7, 8, 9}).syncOn(stream)) {
      parent.slice(3, 3).copyFrom(other).syncOn(stream);
    }
    assertArrayEquals(new int[] {0, 2, 3, 7, 8, 9}, parent.toIntArray().syncOn(stream));

    slice.close(); // a slice owns nothing
    assertFalse(parent.isClosed());
    IllegalArgumentException freeSlice = assertThrows(IllegalArgumentException.class, slice::free);
    assertTrue(
        freeSlice.getMessage().contains("free the buffer it was sliced from"),
        freeSlice.getMessage());
    assertArrayEquals(new int[] {2, 3, 7}, slice.toIntArray().syncOn(stream));

    parent.close();
    assertTrue(slice.isClosed(), "a slice shares its parent's lifetime");
    assertThrows(IllegalStateException.class, () -> slice.toIntArray().syncOn(stream));

    assertThrows(IndexOutOfBoundsException.class, () -> parent.slice(4, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> parent.slice(-1, 2));
    assertThrows(IllegalArgumentException.class, () -> parent.slice(0, 0));
  }

  // ---- fast failures

  @Test
  void sizeAndTypeMismatchesFailFastWithMessagesSayingWhatToDo() {
    try (DeviceBuffer<Integer> four = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        DeviceBuffer<Integer> five = DeviceBuffer.zeros(ElementType.I32, 5).syncOn(stream);
        HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, 3)) {
      assertFailsFast(
          () -> four.copyFrom(five), "copies need the same element type and length; use slice()");
      assertFailsFast(
          () -> four.copyTo(host), "copies need the same element type and length; use slice()");
      assertFailsFast(
          () -> four.copyFrom(host), "copies need the same element type and length; use slice()");
      assertFailsFast(() -> four.write(new int[5]), "has 4 elements; cannot write 5 into it");
      assertFailsFast(() -> four.write(new float[4]), "holds i32, not f32");
      assertFailsFast(
          () -> four.write(MemorySegment.ofArray(new byte[3])),
          "is 16 bytes; cannot write 3 bytes into it");
      assertFailsFast(four::toFloatArray, "holds i32, not f32");
      assertFailsFast(four::toLongArray, "holds i32, not i64");
      assertFailsFast(four::toShortArray, "not a 16-bit type");
      assertFailsFast(
          () -> DeviceBuffer.fromSegment(ElementType.I32, MemorySegment.ofArray(new byte[6])),
          "needs a non-empty whole number of 4-byte elements, got 6 bytes");
      assertFailsFast(
          () -> DeviceBuffer.fromArray(new int[0]), "cannot make a buffer from empty data");
      assertFailsFast(
          () -> DeviceBuffer.allocate(ElementType.F32, 0),
          "a buffer holds at least one element, got length 0");
      assertFailsFast(() -> DeviceBuffer.zeros(ElementType.F32, -1), "got length -1");
    }
  }
}
