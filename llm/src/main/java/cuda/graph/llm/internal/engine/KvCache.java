// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The paged KV cache's blocks: {@code totalBlocks} blocks of {@link #BLOCK_SIZE} tokens, numbered
 * from 0 (the device memory behind them is {@link BatchStep}'s), handed to sequences from a free
 * list. A sequence holds the blocks its tokens need; position {@code p} lives in block {@code
 * blocks(seq)[p / BLOCK_SIZE]} at offset {@code p % BLOCK_SIZE}.
 *
 * <p>Allocation is all or nothing: a request the free blocks cannot meet changes nothing and
 * answers false, so that a caller can make the request wait. The free list is last in, first out,
 * so a freed block is the next one handed out. Freeing a sequence the cache does not hold (never
 * allocated, or freed already) is refused.
 *
 * <p>Not thread-safe: the scheduler's thread owns it.
 */
public final class KvCache {

  /** Tokens of a block. */
  public static final int BLOCK_SIZE = 16;

  private final int totalBlocks;
  private final ArrayDeque<Integer> free = new ArrayDeque<>();
  private final Map<Long, List<Integer>> held = new HashMap<>();

  /**
   * A cache of {@code totalBlocks} free blocks.
   *
   * @param totalBlocks the blocks, at least 1
   * @throws IllegalArgumentException if {@code totalBlocks} is below 1
   */
  public KvCache(int totalBlocks) {
    if (totalBlocks < 1) {
      throw new IllegalArgumentException(
          "KvCache: " + totalBlocks + " blocks; give at least 1 (each holds 16 tokens)");
    }
    this.totalBlocks = totalBlocks;
    for (int b = totalBlocks - 1; b >= 0; b--) {
      free.push(b);
    }
  }

  /**
   * {@return the blocks {@code tokens} tokens need}
   *
   * @param tokens the tokens, at least 0
   */
  public static int blocksFor(int tokens) {
    if (tokens < 0) {
      throw new IllegalArgumentException("KvCache.blocksFor: " + tokens + " tokens is negative");
    }
    return (tokens + BLOCK_SIZE - 1) / BLOCK_SIZE;
  }

  /**
   * Gives a new sequence the blocks of {@code tokens} tokens.
   *
   * @param sequence the sequence's id, not held
   * @param tokens the tokens to hold, at least 1
   * @return true if allocated; false, with nothing changed, if too few blocks are free
   * @throws IllegalStateException if the sequence holds blocks already
   * @throws IllegalArgumentException if {@code tokens} is below 1
   */
  public boolean allocate(long sequence, int tokens) {
    if (held.containsKey(sequence)) {
      throw new IllegalStateException(
          "KvCache.allocate: sequence "
              + sequence
              + " holds "
              + held.get(sequence).size()
              + " blocks already; extend it, or free it first");
    }
    if (tokens < 1) {
      throw new IllegalArgumentException(
          "KvCache.allocate: sequence " + sequence + " asks for " + tokens + " tokens; ask for 1+");
    }
    int need = blocksFor(tokens);
    if (need > free.size()) {
      return false;
    }
    List<Integer> blocks = new ArrayList<>(need);
    for (int i = 0; i < need; i++) {
      blocks.add(free.pop());
    }
    held.put(sequence, blocks);
    return true;
  }

  /**
   * Grows a sequence's blocks to hold {@code tokens} tokens (nothing if it holds them already).
   *
   * @param sequence a sequence the cache holds
   * @param tokens the tokens it must hold
   * @return true if it holds them now; false, with nothing changed, if too few blocks are free
   * @throws IllegalStateException if the sequence holds no blocks
   */
  public boolean extend(long sequence, int tokens) {
    List<Integer> blocks = heldBy(sequence, "extend");
    int need = blocksFor(tokens) - blocks.size();
    if (need <= 0) {
      return true;
    }
    if (need > free.size()) {
      return false;
    }
    for (int i = 0; i < need; i++) {
      blocks.add(free.pop());
    }
    return true;
  }

  /**
   * Returns a sequence's blocks to the free list.
   *
   * @param sequence a sequence the cache holds
   * @throws IllegalStateException if it holds no blocks (never allocated, or freed already)
   */
  public void free(long sequence) {
    List<Integer> blocks = heldBy(sequence, "free");
    held.remove(sequence);
    for (int b : blocks.reversed()) {
      free.push(b);
    }
  }

  private List<Integer> heldBy(long sequence, String call) {
    List<Integer> blocks = held.get(sequence);
    if (blocks == null) {
      throw new IllegalStateException(
          "KvCache."
              + call
              + ": sequence "
              + sequence
              + " holds no blocks (never allocated, or freed already); allocate it first");
    }
    return blocks;
  }

  /**
   * {@return a sequence's block numbers, in position order}
   *
   * @param sequence a sequence the cache holds
   * @throws IllegalStateException if it holds no blocks
   */
  public int[] blocks(long sequence) {
    return heldBy(sequence, "blocks").stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * {@return the tokens a sequence's blocks hold}
   *
   * @param sequence a sequence the cache holds
   */
  public int capacity(long sequence) {
    return heldBy(sequence, "capacity").size() * BLOCK_SIZE;
  }

  /** {@return whether {@code sequence} holds blocks} */
  public boolean holds(long sequence) {
    return held.containsKey(sequence);
  }

  /** {@return the blocks of the cache} */
  public int totalBlocks() {
    return totalBlocks;
  }

  /** {@return the blocks on the free list} */
  public int freeBlocks() {
    return free.size();
  }

  /** {@return the blocks sequences hold} */
  public int usedBlocks() {
    return totalBlocks - free.size();
  }

  /** {@return the sequences holding blocks} */
  public int sequences() {
    return held.size();
  }

  @Override
  public String toString() {
    return "KvCache["
        + usedBlocks()
        + " of "
        + totalBlocks
        + " blocks used by "
        + held.size()
        + " sequences, free "
        + Arrays.toString(free.stream().limit(8).toArray())
        + "...]";
  }
}
