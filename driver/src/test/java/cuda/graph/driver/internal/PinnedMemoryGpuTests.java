// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Pinned host memory from the real driver: its segment dies with the memory, not the JVM. */
@Tag("gpu")
class PinnedMemoryGpuTests extends GpuTest {

  @Test
  void aPinnedSegmentAndItsSlicesRefuseAccessOnceCuMemFreeHostFreedTheMemory() {
    MemorySegment pinned = driver.memAllocHost(4096);
    MemorySegment slice = pinned.asSlice(1024, 16);
    pinned.set(ValueLayout.JAVA_INT, 1024, 5);
    assertEquals(5, slice.get(ValueLayout.JAVA_INT, 0));

    driver.memFreeHost(pinned);

    assertThrows(IllegalStateException.class, () -> pinned.get(ValueLayout.JAVA_INT, 0));
    assertThrows(IllegalStateException.class, () -> slice.get(ValueLayout.JAVA_INT, 0));
  }
}
