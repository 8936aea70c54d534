// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Dependent work: runs an op built from another op's result, on the same stream. */
public final class ThenOp<T extends @Nullable Object, R extends @Nullable Object> extends OnceGuard
    implements DeviceOp<R> {

  public final DeviceOp<T> source;
  public final Function<? super T, ? extends DeviceOp<R>> next;

  /** The combinator's name as the user called it ({@code then} or {@code thenNode}). */
  final String combinator;

  public ThenOp(
      DeviceOp<T> source, Function<? super T, ? extends DeviceOp<R>> next, String combinator) {
    this.source = adopt(source);
    this.next = next;
    this.combinator = combinator;
  }

  /** {@return what to say when {@code next} returns null instead of an op} */
  public String nullResultMessage() {
    return combinator
        + "(...) returned null instead of "
        + (combinator.equals("then") ? "an op" : "a graph node");
  }

  @Override
  public String toString() {
    return Descriptions.of(this);
  }
}
