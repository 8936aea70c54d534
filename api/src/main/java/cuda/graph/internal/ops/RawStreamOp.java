// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import cuda.graph.RawStreamFunction;
import org.jspecify.annotations.Nullable;

/** The escape hatch: foreign code enqueues on the raw stream. */
public final class RawStreamOp<T extends @Nullable Object> extends OnceGuard
    implements DeviceOp<T> {

  public final RawStreamFunction<T> function;

  public RawStreamOp(RawStreamFunction<T> function) {
    this.function = function;
  }

  @Override
  public String toString() {
    return "withRawStream(...)";
  }
}
