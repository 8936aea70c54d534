// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The KV cache's blocks: a sequence gets the blocks of its tokens and grows by whole blocks, a
 * request too large changes nothing, freed blocks come back first, counts add up, and a double free
 * is refused.
 */
class KvCacheTests {

  @Test
  void aSequenceHoldsTheBlocksOfItsTokensAndGrowsByWholeBlocks() {
    KvCache cache = new KvCache(10);
    assertTrue(cache.allocate(7, 17));
    assertEquals(2, cache.blocks(7).length);
    assertEquals(32, cache.capacity(7));
    assertTrue(cache.extend(7, 32), "within its blocks");
    assertEquals(2, cache.blocks(7).length);
    assertTrue(cache.extend(7, 33));
    assertEquals(3, cache.blocks(7).length);
    assertEquals(3, cache.usedBlocks());
    assertEquals(7, cache.freeBlocks());
    assertEquals(1, cache.sequences());
    Set<Integer> distinct = new HashSet<>();
    for (int b : cache.blocks(7)) {
      assertTrue(b >= 0 && b < 10, "block " + b);
      distinct.add(b);
    }
    assertEquals(3, distinct.size(), "a block given twice: " + Arrays.toString(cache.blocks(7)));
  }

  @Test
  void aRequestTheFreeBlocksCannotMeetChangesNothing() {
    KvCache cache = new KvCache(3);
    assertTrue(cache.allocate(1, 32));
    assertFalse(cache.allocate(2, 17), "two blocks of one free");
    assertFalse(cache.holds(2));
    assertFalse(cache.extend(1, 49), "two more blocks of one free");
    assertEquals(2, cache.blocks(1).length);
    assertEquals(1, cache.freeBlocks());
  }

  @Test
  void freedBlocksAreTheNextHandedOutAndTheCountsAddUp() {
    KvCache cache = new KvCache(8);
    assertTrue(cache.allocate(1, 16));
    assertTrue(cache.allocate(2, 40));
    int[] freed = cache.blocks(2);
    cache.free(2);
    assertEquals(7, cache.freeBlocks());
    assertEquals(1, cache.usedBlocks());
    assertTrue(cache.allocate(3, 48));
    assertArrayEquals(freed, cache.blocks(3), "the freed blocks, in their order");
  }

  @Test
  void freeingASequenceTwiceOrNeverAllocatedIsRefusedNamingIt() {
    KvCache cache = new KvCache(4);
    assertTrue(cache.allocate(5, 1));
    cache.free(5);
    var twice = assertThrows(IllegalStateException.class, () -> cache.free(5));
    assertTrue(twice.getMessage().contains("sequence 5"), twice.getMessage());
    assertThrows(IllegalStateException.class, () -> cache.free(6));
    assertThrows(IllegalStateException.class, () -> cache.extend(6, 3));
    assertEquals(4, cache.freeBlocks(), "a refused free changed the counts");
    assertTrue(cache.allocate(5, 1));
    assertThrows(IllegalStateException.class, () -> cache.allocate(5, 1), "allocated twice");
  }
}
