// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.KernelParam;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The comparison of a kernel's declared parameters with what its image defines, and the message a
 * mismatch gets, for every kind of image: the count first, then each position.
 */
final class DeclarationCheck {

  /** Why the declared parameter at {@code index} does not fit the image's, or null when it does. */
  @FunctionalInterface
  interface Position {
    @Nullable String problem(int index, KernelParam declared);
  }

  private DeclarationCheck() {}

  /**
   * {@return why {@code declared} does not fit the {@code definedCount} parameters that {@code
   * image} defines as {@code defined}, or null when it does}
   *
   * @param fix what the caller should do, ending the message
   */
  static @Nullable String mismatch(
      String entry,
      String declaredSignature,
      List<KernelParam> declared,
      String image,
      Object defined,
      int definedCount,
      Position position,
      String fix) {
    String problem = null;
    if (declared.size() != definedCount) {
      problem = definedCount + " parameters, not " + declared.size();
    } else {
      for (int i = 0; i < definedCount && problem == null; i++) {
        problem = position.problem(i, declared.get(i));
      }
    }
    return problem == null
        ? null
        : "kernel "
            + entry
            + " is declared "
            + declaredSignature
            + " but "
            + image
            + " defines "
            + defined
            + ": "
            + problem
            + "; "
            + fix;
  }
}
