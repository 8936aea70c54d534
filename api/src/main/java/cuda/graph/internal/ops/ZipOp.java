// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/** Two ops run in order on one stream, their results combined on the host. */
public final class ZipOp<
        A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object>
    extends OnceGuard implements DeviceOp<R> {

  public final DeviceOp<A> first;
  public final DeviceOp<B> second;
  public final BiFunction<? super A, ? super B, ? extends R> combine;

  public ZipOp(
      DeviceOp<A> first,
      DeviceOp<B> second,
      BiFunction<? super A, ? super B, ? extends R> combine) {
    this.first = adopt(first);
    this.second = adopt(second);
    this.combine = combine;
  }

  @Override
  public String toString() {
    return Descriptions.of(this);
  }
}
