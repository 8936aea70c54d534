// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Per-thread native memory for out-parameters and the unique id, so a query allocates no arena of
 * its own. A call takes the block with {@link #get()}, passes its areas to NCCL and reads them back
 * before returning; NCCL never calls back into Java on the calling thread, so nothing can reuse
 * them in between.
 */
final class Scratch {

  private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);

  private final MemorySegment word;
  private final MemorySegment uniqueId;

  private Scratch() {
    // Freed with the thread: the automatic arena goes when nothing refers to the block.
    MemorySegment block = Arena.ofAuto().allocate(8L + NcclLibrary.UNIQUE_ID_BYTES, 8);
    word = block.asSlice(0, 8);
    uniqueId = block.asSlice(8, NcclLibrary.UNIQUE_ID_BYTES);
  }

  /** {@return the calling thread's block} */
  static Scratch get() {
    return PER_THREAD.get();
  }

  /**
   * {@return an 8-byte out-parameter, zeroed}: room for an {@code int} or a pointer, zero where
   * NCCL leaves it unwritten
   */
  MemorySegment zeroedWord() {
    return word.fill((byte) 0);
  }

  /** {@return the {@value NcclLibrary#UNIQUE_ID_BYTES}-byte area for an {@code ncclUniqueId}} */
  MemorySegment uniqueId() {
    return uniqueId;
  }
}
