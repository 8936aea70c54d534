// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Kernel launches are type-checked against the kernel's declared parameters when the op is built: a
 * wrong count, a wrong boxed type or a buffer of the wrong element type fails with
 * IllegalArgumentException before any driver call, with a message that names the parameter and what
 * it takes.
 */
class KernelArgumentTests {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);

  private InstrumentedDriver simulator;
  private CudaPlatform platform;
  private Stream stream;
  private DeviceBuffer<Integer> ints;
  private DeviceBuffer<Float> floats;

  @BeforeEach
  void openPlatform() {
    simulator = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
    ints = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);
    floats = DeviceBuffer.zeros(ElementType.F32, 8).syncOn(stream);
  }

  @AfterEach
  void closePlatform() {
    ints.close();
    floats.close();
    stream.close();
    platform.close();
  }

  /**
   * Asserts that {@code launch} fails with a message containing each of {@code parts}, and calls no
   * driver entry.
   */
  private void assertRejectedWithoutDriverCall(Executable launch, String... parts) {
    List<LoggedCall> before = simulator.calls().records();

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, launch);

    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), () -> "'" + part + "' in: " + e.getMessage());
    }
    assertEquals(before, simulator.calls().records(), "no driver call was made");
  }

  @Test
  void tooFewOrTooManyArgumentsAreRejectedBeforeAnyDriverCall() {
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, 8), "addOne(i32, i32*) takes 2 arguments, got 1");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, 8, ints, ints), "takes 2 arguments, got 3");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE), "takes 2 arguments, got 0");
  }

  @Test
  void aWrongBoxedTypeIsRejectedBeforeAnyDriverCall() {
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, 8L, ints),
        "argument 0 must be an i32 (Integer), got a Long (8)");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.SCALARS.launch(ONE, (byte) 1, (short) 2, 3, 4L, 5.0, 6.0, ints),
        "argument 4 must be an f32 (Float), got a Double (5.0)");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.SCALARS.launch(ONE, 1, (short) 2, 3, 4L, 5f, 6.0, ints),
        "argument 0 must be an i8 (Byte), got a Integer (1)");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, 8, new int[8]),
        "argument 1 must be a DeviceBuffer<i32>",
        "got a int[]");
  }

  @Test
  void aBufferOfTheWrongElementTypeIsRejectedBeforeAnyDriverCall() {
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, 8, floats),
        "argument 1 must be a DeviceBuffer<i32>, got DeviceBuffer<f32>[8 on device 0]");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.COPY_INTS.launch(ONE, 8, ints, floats),
        "argument 2 must be a DeviceBuffer<i32>");
  }

  @Test
  void aNullArgumentIsRejectedBeforeAnyDriverCall() {
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, null, ints),
        "argument 0 must be an i32 (Integer), got null");
    assertRejectedWithoutDriverCall(
        () -> KernelFixtures.ADD_ONE.launch(ONE, 8, null),
        "argument 1 must be a DeviceBuffer<i32>, got null");
  }

  @Test
  void anUntypedPointerParameterTakesABufferOfAnyElementType() {
    Kernel untyped = KernelFixtures.IMAGE.kernel("addOne", KernelParam.I32, KernelParam.POINTER);

    untyped.launch(ONE, 8, ints).syncOn(stream);
    untyped.launch(ONE, 8, floats).syncOn(stream); // adds 1 to the raw bits of each float

    assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, ints.toIntArray().syncOn(stream));
    assertEquals(Float.intBitsToFloat(1), floats.toFloatArray().syncOn(stream)[0]);
    assertRejectedWithoutDriverCall(
        () -> untyped.launch(ONE, 8, 1234L), "argument 1 must be a DeviceBuffer, got a Long");
  }

  @Test
  void everyScalarTypeReachesTheKernelWithItsValue() {
    try (DeviceBuffer<Long> out = DeviceBuffer.zeros(ElementType.I64, 6).syncOn(stream)) {
      KernelFixtures.SCALARS
          .launch(ONE, (byte) -7, (short) -300, 123456789, 0x1234_5678_9abc_def0L, 1.5f, -2.25, out)
          .syncOn(stream);

      assertArrayEquals(
          new long[] {
            -7,
            -300,
            123456789,
            0x1234_5678_9abc_def0L,
            Float.floatToRawIntBits(1.5f),
            Double.doubleToRawLongBits(-2.25)
          },
          out.toLongArray().syncOn(stream));
    }
  }

  @Test
  void aLaunchOpMayBeBuiltOnceAndTheArgumentArrayChangedAfterwards() {
    Object[] arguments = {8, ints};
    GraphNode<?> launch = KernelFixtures.ADD_ONE.launch(ONE, arguments);
    arguments[0] = 2; // the op copied its arguments

    launch.syncOn(stream);

    assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, ints.toIntArray().syncOn(stream));
  }

  @Test
  void theJavaReferenceRunsOnTheHostWithArraysAndChecksItsArguments() {
    int[] data = {1, 2, 3};
    KernelFixtures.ADD_ONE.runReference(ONE, 3, java.lang.foreign.MemorySegment.ofArray(data));
    assertArrayEquals(new int[] {2, 3, 4}, data);
    assertTrue(KernelFixtures.ADD_ONE.hasReference());

    IllegalArgumentException count =
        assertThrows(
            IllegalArgumentException.class, () -> KernelFixtures.ADD_ONE.runReference(ONE, 3));
    assertTrue(count.getMessage().contains("takes 2 arguments, got 1"), count.getMessage());

    Kernel withoutReference =
        KernelImage.ptx(KernelFixtures.PTX).kernel("addOne", KernelParam.I32, KernelParam.POINTER);
    assertFalse(withoutReference.hasReference());
    IllegalStateException none =
        assertThrows(
            IllegalStateException.class, () -> withoutReference.runReference(ONE, 3, data));
    assertTrue(none.getMessage().contains("KernelImage.withReference"), none.getMessage());
  }

  @Test
  void aLaunchConfigRejectsNegativeSharedMemoryAndCoversItemsWithWholeBlocks() {
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.of(1, 1).withSharedMemory(-1));
    assertEquals(LaunchConfig.of(4, 256), LaunchConfig.covering(1000, 256));
    assertEquals(LaunchConfig.of(1, 256), LaunchConfig.covering(256, 256));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.covering(0, 256));
  }
}
