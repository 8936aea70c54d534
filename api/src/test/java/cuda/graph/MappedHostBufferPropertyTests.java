// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * A kernel, a fill and a copy on a random slice of a mapped buffer's device view change exactly the
 * host elements a Java array model says, read back without any copy; and the memory is freed once,
 * whatever was done with it.
 *
 * <p>100 tries, each on a fresh deterministic simulator: slices are where the device pointer's
 * offset arithmetic goes wrong, and random (length, offset, size) triples cover the first element,
 * the last and the whole buffer many times over.
 */
class MappedHostBufferPropertyTests {

  @Property(tries = 100)
  void opsOnARandomSliceOfTheViewChangeExactlyThoseHostElements(
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
      int[] afterFill = data.clone();
      Arrays.fill(afterFill, offset, offset + length, fillValue);
      int[] afterKernel = afterFill.clone();
      for (int i = offset; i < offset + length; i++) {
        afterKernel[i]++;
      }

      try (MappedHostBuffer<Integer> mapped =
          platform.defaultDevice().allocateMapped(ElementType.I32, n)) {
        mapped.write(data);
        DeviceBuffer<Integer> slice = mapped.deviceView().slice(offset, length);

        slice.fill(fillValue).syncOn(stream);
        assertArrayEquals(afterFill, mapped.toIntArray(), "after the fill");
        KernelFixtures.ADD_ONE
            .launch(LaunchConfig.covering(length, 64), length, slice)
            .syncOn(stream);
        assertArrayEquals(afterKernel, mapped.toIntArray(), "after the kernel");
        int[] copied =
            DeviceBuffer.zeros(ElementType.I32, length)
                .then(
                    copy ->
                        copy.copyFrom(slice)
                            .andThen(copy.toIntArray())
                            .zip(copy.free(), (c, x) -> c))
                .syncOn(stream);
        assertArrayEquals(Arrays.copyOfRange(afterKernel, offset, offset + length), copied);
      }
      // Staging memory stays until the platform closes; the mapped memory went with its buffer.
      assertEquals(1, simulator.calls().count(DriverCall.MEM_HOST_ALLOC));
      assertEquals(1, simulator.calls().count(DriverCall.MEM_FREE_HOST), "freed exactly once");
    }
  }
}
