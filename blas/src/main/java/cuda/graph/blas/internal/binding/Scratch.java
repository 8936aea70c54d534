// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Per-thread native memory for out-parameters and attribute values, so creating a descriptor or
 * setting an attribute allocates no arena of its own. A call takes the block with {@link #get()},
 * passes its words to cuBLASLt and reads them back before returning; cuBLASLt never calls back into
 * Java on the calling thread, so nothing can reuse them in between.
 */
final class Scratch {

  private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);

  private final MemorySegment out;
  private final MemorySegment value;
  private final MemorySegment written;

  private Scratch() {
    // Freed with the thread: the automatic arena goes when nothing refers to the block.
    MemorySegment block = Arena.ofAuto().allocate(24, 8);
    out = block.asSlice(0, 8);
    value = block.asSlice(8, 8);
    written = block.asSlice(16, 8);
  }

  /** {@return the calling thread's block} */
  static Scratch get() {
    return PER_THREAD.get();
  }

  /** {@return an 8-byte out-parameter, zeroed: room for a handle, a count or an int} */
  MemorySegment out() {
    return out.fill((byte) 0);
  }

  /** {@return an 8-byte area for an attribute's value, zeroed} */
  MemorySegment value() {
    return value.fill((byte) 0);
  }

  /** {@return an 8-byte out-parameter for a {@code size_t *sizeWritten}, zeroed} */
  MemorySegment written() {
    return written.fill((byte) 0);
  }
}
