// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fills, copies and kernels on random slices of random buffers change exactly the elements a Java
 * array model says.
 *
 * <p>100 tries: each runs a handful of ops on a fresh deterministic simulator in a few
 * milliseconds; slices are where offset arithmetic goes wrong, and 100 random (length, offset,
 * size) triples cover the edges (first element, last element, whole buffer) many times over.
 */
class MemoryPropertyTests {

  @Property(tries = 100)
  void fillCopyAndKernelOnARandomSliceChangeExactlyThatSlice(
      @ForAll @Size(min = 1, max = 200) int[] data,
      @ForAll @IntRange(min = 0, max = 199) int offsetSeed,
      @ForAll @IntRange(min = 1, max = 200) int lengthSeed,
      @ForAll int fillValue,
      @ForAll long seed) {
    int n = data.length;
    int offset = offsetSeed % n;
    int length = 1 + (lengthSeed - 1) % (n - offset);
    InstrumentedDriver simulator =
        SimulatorPlatforms.instrumented(Simulator.builder().deterministic(seed).build());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      int[][] results =
          DeviceBuffer.fromArray(data)
              .then(
                  buffer -> {
                    DeviceBuffer<Integer> slice = buffer.slice(offset, length);
                    return slice
                        .fill(fillValue)
                        .andThen(buffer.toIntArray())
                        .zip(
                            KernelFixtures.ADD_ONE
                                .launch(LaunchConfig.covering(length, 64), length, slice)
                                .andThen(buffer.toIntArray()),
                            (afterFill, afterKernel) -> new int[][] {afterFill, afterKernel})
                        .then(
                            r ->
                                DeviceBuffer.zeros(ElementType.I32, length)
                                    .then(
                                        copy ->
                                            copy.copyFrom(slice)
                                                .andThen(copy.toIntArray())
                                                .zip(copy.free(), (c, x) -> c))
                                    .map(copied -> new int[][] {r[0], r[1], copied}))
                        .zip(buffer.free(), (r, x) -> r);
                  })
              .syncOn(stream);

      int[] afterFill = data.clone();
      Arrays.fill(afterFill, offset, offset + length, fillValue);
      int[] afterKernel = afterFill.clone();
      for (int i = offset; i < offset + length; i++) {
        afterKernel[i]++;
      }
      assertArrayEquals(afterFill, results[0]);
      assertArrayEquals(afterKernel, results[1]);
      assertArrayEquals(Arrays.copyOfRange(afterKernel, offset, offset + length), results[2]);
      assertEquals(0, simulator.ledger().live(HandleKind.DEVICE_MEMORY));
    }
  }
}
