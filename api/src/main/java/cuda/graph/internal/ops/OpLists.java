// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Copies of the lists callers pass to the combinators, refusing nulls with a message. */
public final class OpLists {

  private OpLists() {}

  /**
   * {@return an unmodifiable copy of {@code list}}, or a NullPointerException naming {@code what}
   * and the index of the first null element
   */
  public static <T> List<T> copyWithoutNulls(@Nullable List<? extends T> list, String what) {
    Objects.requireNonNull(list, what);
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == null) {
        throw new NullPointerException(
            what + " holds null at index " + i + ": pass only non-null elements");
      }
    }
    return List.copyOf(list);
  }

  /** {@return the same for an array} */
  public static <T> List<T> copyWithoutNulls(T @Nullable [] array, String what) {
    Objects.requireNonNull(array, what);
    return copyWithoutNulls(java.util.Arrays.asList(array), what);
  }
}
