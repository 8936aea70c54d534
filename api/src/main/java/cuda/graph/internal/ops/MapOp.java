// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** A host-side transformation of another op's result. */
public final class MapOp<T extends @Nullable Object, R extends @Nullable Object> extends OnceGuard
    implements DeviceOp<R> {

  public final DeviceOp<T> source;
  public final Function<? super T, ? extends R> function;

  public MapOp(DeviceOp<T> source, Function<? super T, ? extends R> function) {
    this.source = adopt(source);
    this.function = function;
  }

  @Override
  public String toString() {
    return Descriptions.of(this);
  }
}
