// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The live and the freed blocks of one kind of memory, by start address, so that a pointer into a
 * freed block is caught as well as the block's own address. Not thread-safe: guarded by its {@link
 * HandleLedger}.
 */
final class AllocationMap {

  /** A block: the context current when it was allocated, and how it was allocated or freed. */
  record Block(long address, long bytes, @Nullable CuContext owner, String how) {
    boolean contains(long pointer) {
      return pointer >= address && pointer - address < Math.max(bytes, 1);
    }
  }

  private final HandleKind kind;
  private final NavigableMap<Long, Block> live = new TreeMap<>();
  private final NavigableMap<Long, Block> freed = new TreeMap<>();

  AllocationMap(HandleKind kind) {
    this.kind = kind;
  }

  /** Records a new block; freed blocks it reuses are forgotten. */
  void allocated(long address, long bytes, @Nullable CuContext owner, String how, DriverCall call) {
    Block overlapping = find(live, address);
    if (overlapping != null) {
      throw new LifetimeViolation(
          call,
          "the driver returned "
              + name(address)
              + ", inside a live allocation from "
              + overlapping.how());
    }
    freed.subMap(address, true, address + Math.max(bytes, 1) - 1, true).clear();
    Block before = find(freed, address);
    if (before != null) {
      freed.remove(before.address());
    }
    live.put(address, new Block(address, bytes, owner, how));
  }

  /**
   * Marks the block at {@code address} freed. {@return the block, to hand to {@link #undoFree} if
   * the free fails, or null for memory this map never saw}
   *
   * @throws LifetimeViolation if that block was already freed, or {@code address} is inside a live
   *     block but not its start
   */
  @Nullable Block claimFree(long address, String how, DriverCall call) {
    Block block = live.remove(address);
    if (block != null) {
      freed.put(address, new Block(address, block.bytes(), null, how));
      return block;
    }
    Block gone = freed.get(address);
    if (gone != null) {
      throw new LifetimeViolation(
          call, "frees " + name(address) + " a second time: it " + gone.how());
    }
    Block inside = find(live, address);
    if (inside != null) {
      throw new LifetimeViolation(
          call,
          "frees 0x"
              + Long.toHexString(address)
              + ", which is inside the "
              + kind
              + " allocation at 0x"
              + Long.toHexString(inside.address())
              + " but not its start");
    }
    return null;
  }

  /** The free of {@code block} failed: it is live again. */
  void undoFree(Block block) {
    freed.remove(block.address());
    live.put(block.address(), block);
  }

  /** {@return the live block containing {@code pointer}, or null} */
  @Nullable Block live(long pointer) {
    return find(live, pointer);
  }

  /** Fails when {@code pointer} lies in a freed block (and not in one allocated since). */
  void requireAccessible(long pointer, DriverCall call) {
    if (pointer == 0 || find(live, pointer) != null) {
      return;
    }
    Block gone = find(freed, pointer);
    if (gone != null) {
      throw new LifetimeViolation(
          call,
          "touches "
              + name(pointer)
              + ", inside the allocation at 0x"
              + Long.toHexString(gone.address())
              + ", which "
              + gone.how());
    }
  }

  /** Moves every live block {@code context} owned to the freed ones; {@return how many} */
  int reclaim(CuContext context, String how) {
    int reclaimed = 0;
    for (Iterator<Block> it = live.values().iterator(); it.hasNext(); ) {
      Block b = it.next();
      if (context.equals(b.owner())) {
        it.remove();
        freed.put(b.address(), new Block(b.address(), b.bytes(), null, how));
        reclaimed++;
      }
    }
    return reclaimed;
  }

  /** {@return one line per live block, saying how it was allocated} */
  List<String> describeLive() {
    List<String> lines = new ArrayList<>();
    for (Block b : live.values()) {
      lines.add(name(b.address()) + " (" + b.bytes() + " bytes) from " + b.how());
    }
    return lines;
  }

  private String name(long address) {
    return kind + " 0x" + Long.toHexString(address);
  }

  private static @Nullable Block find(NavigableMap<Long, Block> blocks, long pointer) {
    Map.Entry<Long, Block> e = blocks.floorEntry(pointer);
    return e != null && e.getValue().contains(pointer) ? e.getValue() : null;
  }
}
