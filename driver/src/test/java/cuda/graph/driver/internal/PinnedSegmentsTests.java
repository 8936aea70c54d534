// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** A pinned segment and its slices stop working when their memory is freed, never crash. */
class PinnedSegmentsTests {

  @Test
  void aSegmentAndItsSlicesRefuseAccessOnceTheirMemoryIsFreed() {
    try (Arena memory = Arena.ofConfined()) {
      MemorySegment raw = memory.allocate(64); // stands in for the driver's pinned memory
      PinnedSegments pinned = new PinnedSegments();
      MemorySegment segment = pinned.scoped(raw.address(), 64);
      MemorySegment slice = segment.asSlice(8, 8);
      segment.set(ValueLayout.JAVA_INT, 0, 7);
      assertEquals(7, raw.get(ValueLayout.JAVA_INT, 0), "the segment views the memory");
      assertEquals(1, pinned.live());

      pinned.free(raw.address());

      assertEquals(0, pinned.live());
      assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_INT, 0));
      assertThrows(IllegalStateException.class, () -> slice.get(ValueLayout.JAVA_INT, 0));
      assertEquals(raw.address(), segment.address(), "the address stays readable for a free");
    }
  }

  @Test
  void freeingMemoryThatWasNeverScopedDoesNothing() {
    new PinnedSegments().free(0x1000);
  }
}
