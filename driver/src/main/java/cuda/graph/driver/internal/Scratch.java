// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Per-thread native memory for out-parameters and input structs, so a driver call allocates no
 * arena of its own.
 *
 * <p>Each thread gets one block, allocated on its first use from an automatic arena (freed when the
 * thread and its {@code Scratch} are gone). A call takes the block with {@link #get()}, passes
 * slots to the driver and reads them back before it returns; nothing else runs on that thread in
 * between, so the block needs no locking. The driver never calls back into Java on the calling
 * thread (host functions run on the driver's own threads), so a call cannot re-enter and clobber
 * its own slots.
 */
final class Scratch {

  /** Number of 8-byte out-parameter slots. */
  static final int SLOTS = 8;

  /**
   * Size of the text area, enough for a device name (the driver truncates at the length passed).
   */
  static final int TEXT_BYTES = 256;

  /**
   * Size of the struct area, enough for the largest input struct passed by pointer ({@code
   * CUgraphNodeParams}, 256 bytes; see {@link DriverStructs#LARGEST}).
   */
  static final int STRUCT_BYTES = 256;

  private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);

  private final MemorySegment[] slots = new MemorySegment[SLOTS];
  private final MemorySegment text;
  private final MemorySegment struct;

  private Scratch() {
    MemorySegment block = Arena.ofAuto().allocate(SLOTS * 8L + TEXT_BYTES + STRUCT_BYTES, 16);
    for (int i = 0; i < SLOTS; i++) {
      // Slot i runs from byte 8i to the end of the slot area, so slot 0 can also hold a small
      // struct such as the 24-byte CUgraphExecUpdateResultInfo.
      slots[i] = block.asSlice(i * 8L, (SLOTS - i) * 8L);
    }
    text = block.asSlice(SLOTS * 8L, TEXT_BYTES);
    // 16-aligned, like the block: the slot and text areas are multiples of 16 bytes.
    struct = block.asSlice(SLOTS * 8L + TEXT_BYTES, STRUCT_BYTES);
  }

  /** {@return the calling thread's scratch block} */
  static Scratch get() {
    return PER_THREAD.get();
  }

  /**
   * {@return slot {@code index}: 8-byte aligned, starting at byte {@code 8 * index} of the slot
   * area and running to its end}
   */
  MemorySegment slot(int index) {
    return slots[index];
  }

  /**
   * {@return slot {@code index} after zeroing all of it, for outputs the driver may leave
   * unwritten}
   */
  MemorySegment zeroedSlot(int index) {
    return slots[index].fill((byte) 0);
  }

  /** {@return the {@value #TEXT_BYTES}-byte text area} */
  MemorySegment text() {
    return text;
  }

  /**
   * {@return the {@value #STRUCT_BYTES}-byte struct area, zeroed}: for a struct the driver reads
   * during the call (node parameters), whose unused fields and reserved bytes must be zero. Apart
   * from the slots, so a call can fill it and still use slots for its out-parameters.
   */
  MemorySegment zeroedStruct() {
    return struct.fill((byte) 0);
  }
}
