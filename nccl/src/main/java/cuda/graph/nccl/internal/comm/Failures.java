// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import org.jspecify.annotations.Nullable;

/**
 * Collects the failures of work that must go on after one fails (every rank, every release): the
 * first is thrown, the others are suppressed in it, so none is lost.
 */
final class Failures {

  private Failures() {}

  /** {@return {@code first}, with {@code next} suppressed in it, or {@code next} if none yet} */
  static RuntimeException add(@Nullable RuntimeException first, RuntimeException next) {
    if (first == null) {
      return next;
    }
    if (first != next) {
      first.addSuppressed(next);
    }
    return first;
  }

  /** Throws {@code failure} if there is one. */
  static void throwIfAny(@Nullable RuntimeException failure) {
    if (failure != null) {
      throw failure;
    }
  }
}
