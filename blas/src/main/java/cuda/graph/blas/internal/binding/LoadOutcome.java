// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.blas.BlasUnavailableException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one attempt to load cuBLASLt: the library, or why it could not be loaded. A
 * failure is kept, not retried, so every caller gets the same answer and no caller gets a
 * half-bound library; each caller gets its own exception, thrown from where it asked.
 */
final class LoadOutcome {

  private final @Nullable CublasLtLibrary library;
  private final @Nullable BlasUnavailableException failure;

  private LoadOutcome(
      @Nullable CublasLtLibrary library, @Nullable BlasUnavailableException failure) {
    this.library = library;
    this.failure = failure;
  }

  /** {@return the outcome of running {@code loader} once} */
  static LoadOutcome of(Supplier<CublasLtLibrary> loader) {
    try {
      return new LoadOutcome(loader.get(), null);
    } catch (BlasUnavailableException e) {
      return new LoadOutcome(null, e);
    }
  }

  /**
   * {@return the library loaded}
   *
   * @throws BlasUnavailableException a new one, with the first attempt's message and cause, when
   *     loading failed
   */
  CublasLtLibrary get() {
    if (library != null) {
      return library;
    }
    BlasUnavailableException first = failure;
    if (first == null) {
      throw new IllegalStateException("an outcome holds a library or a failure");
    }
    throw Unavailable.again(first);
  }
}
