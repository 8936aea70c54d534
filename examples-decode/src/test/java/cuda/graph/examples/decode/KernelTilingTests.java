// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the host checks before it launches the streamed product kernels and the attention kernel:
 * every shape the example ships passes, a shape the kernels cannot cut is refused with the reason,
 * and every launch fits the shared memory a block may have.
 */
class KernelTilingTests {

  private static final List<LlamaConfig> SHIPPED =
      List.of(
          LlamaConfig.TINY,
          LlamaConfig.STORIES_15M,
          LlamaConfig.STORIES_110M,
          LlamaConfig.LLAMA_1B);

  @Test
  void everyProductOfTheShippedShapesStreams() {
    for (LlamaConfig c : SHIPPED) {
      assertDoesNotThrow(() -> DecodeEngine.checkTiling(c.qkvRows(), c.dim(), 1, true), c.name());
      assertDoesNotThrow(() -> DecodeEngine.checkTiling(c.dim(), c.dim(), 1, false), c.name());
      assertDoesNotThrow(() -> DecodeEngine.checkTiling(c.ffn(), c.dim(), 2, false), c.name());
      assertDoesNotThrow(() -> DecodeEngine.checkTiling(c.dim(), c.ffn(), 1, false), c.name());
      assertDoesNotThrow(() -> DecodeEngine.checkTiling(c.vocab(), c.dim(), 1, false), c.name());
    }
  }

  @Test
  void columnsThatAreNotWholeSixteenByteChunksAreRefusedWithTheReason() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DecodeEngine.checkTiling(64, 100, 1, false));
    assertTrue(e.getMessage().contains("64 x 100 product"), e.getMessage());
    assertTrue(e.getMessage().contains("not a multiple of 8"), e.getMessage());
  }

  @Test
  void anOddNumberOfRowsIsRefusedBecauseBlocksTakeRowsInPairs() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DecodeEngine.checkTiling(63, 64, 2, false));
    assertTrue(e.getMessage().contains("rows are odd"), e.getMessage());
    assertTrue(e.getMessage().contains("2 matrices"), e.getMessage());
  }

  @Test
  void aRowLongerThanATileIsRefusedWithItsSize() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DecodeEngine.checkTiling(2, 8_200, 1, false));
    assertTrue(e.getMessage().contains("16400 bytes, over a tile"), e.getMessage());
    assertDoesNotThrow(() -> DecodeEngine.checkTiling(2, 8_192, 1, false));
  }

  @Test
  void aRotaryPairMustShareATile() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DecodeEngine.checkTiling(4, 6_144, 1, true));
    assertTrue(e.getMessage().contains("rotary pair"), e.getMessage());
    assertDoesNotThrow(() -> DecodeEngine.checkTiling(4, 4_096, 1, true));
  }

  @Test
  void theStreamedKernelsAskForTheirTilesAndTheNormalizedInputWithItsWeights() {
    assertEquals(
        DecodeEngine.STAGES * DecodeEngine.TILE_BYTES + 2048 * 6,
        DecodeEngine.streamedShared(2048, true));
    assertEquals(
        DecodeEngine.STAGES * DecodeEngine.TILE_BYTES, DecodeEngine.streamedShared(2048, false));
  }

  @Test
  void theAttentionKernelStagesWhatFitsAndNeverAsksForMoreThanABlockMayHave() {
    for (LlamaConfig c : SHIPPED) {
      int shared = DecodeEngine.attentionShared(c);
      int base = (c.maxSeq() + c.headDim()) * Float.BYTES;
      int rowPair = 2 * c.headDim() * Float.BYTES;
      assertTrue(shared <= DecodeEngine.MAX_SHARED_BYTES - 8192, c.name() + ": " + shared);
      assertTrue((shared - base) % rowPair == 0, c.name() + ": whole positions staged");
      int room = (shared - base) / rowPair;
      assertTrue(room <= c.maxSeq(), c.name() + ": no more positions than the cache has");
      assertTrue(
          room == c.maxSeq() || room * rowPair > DecodeEngine.ATTENTION_STAGED_BYTES - rowPair,
          c.name() + ": stages as many positions as the budget holds, " + room);
    }
  }
}
