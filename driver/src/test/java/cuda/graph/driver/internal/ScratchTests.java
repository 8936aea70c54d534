// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The per-thread out-parameter block. */
class ScratchTests {

  @Test
  void slotsAreAlignedAndSlotZeroHoldsAStruct() {
    Scratch scratch = Scratch.get();
    for (int i = 0; i < Scratch.SLOTS; i++) {
      MemorySegment slot = scratch.slot(i);
      assertEquals(0, slot.address() % 8, "slot " + i);
      assertEquals((Scratch.SLOTS - i) * 8L, slot.byteSize(), "slot " + i);
    }
    assertEquals(scratch.slot(0).address() + 8, scratch.slot(1).address());
    assertEquals(Scratch.TEXT_BYTES, scratch.text().byteSize());
  }

  @Test
  void eachThreadHasItsOwnBlockAndReusesIt() throws Exception {
    Scratch mine = Scratch.get();
    assertSame(mine, Scratch.get());
    Scratch theirs = CompletableFuture.supplyAsync(Scratch::get).get();
    assertNotSame(mine, theirs);
  }

  @Test
  void zeroedSlotsAreZero() {
    Scratch scratch = Scratch.get();
    scratch.slot(0).fill((byte) 0x5a);
    MemorySegment zeroed = scratch.zeroedSlot(0);
    for (int i = 0; i < Scratch.SLOTS; i++) {
      assertEquals(0L, zeroed.getAtIndex(ValueLayout.JAVA_LONG, i));
    }
  }
}
