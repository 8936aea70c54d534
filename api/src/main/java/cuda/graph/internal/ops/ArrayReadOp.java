// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * Reads a buffer into a new Java value, staged through pinned memory. Executed for {@code syncOn},
 * or anywhere its result feeds more host composition before more device work, the op waits for its
 * stream before converting, so that whatever is composed after it sees the data. In tail position
 * of an {@code asyncOn} the executor only enqueues the copy, and the conversion runs when the copy
 * is seen complete ({@code Executor.executeTail}).
 */
public final class ArrayReadOp<A> extends OnceGuard implements DeviceOp<A> {

  public final DeviceBuffer<?> source;
  public final Function<MemorySegment, A> convert;

  public ArrayReadOp(DeviceBuffer<?> source, Function<MemorySegment, A> convert) {
    this.source = source;
    this.convert = convert;
  }

  @Override
  public String toString() {
    return "read " + source;
  }
}
