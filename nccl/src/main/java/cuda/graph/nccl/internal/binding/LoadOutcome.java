// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import cuda.graph.nccl.NcclUnavailableException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one attempt to load NCCL: the library, or why it could not be loaded. A failure is
 * kept, not retried, so every caller gets the same answer and no caller gets a half-bound library;
 * each caller gets its own exception, thrown from where it asked.
 */
final class LoadOutcome {

  private final @Nullable NcclLibrary library;
  private final @Nullable NcclUnavailableException failure;

  private LoadOutcome(@Nullable NcclLibrary library, @Nullable NcclUnavailableException failure) {
    this.library = library;
    this.failure = failure;
  }

  /** {@return the outcome of running {@code loader} once} */
  static LoadOutcome of(Supplier<NcclLibrary> loader) {
    try {
      return new LoadOutcome(loader.get(), null);
    } catch (NcclUnavailableException e) {
      return new LoadOutcome(null, e);
    }
  }

  /**
   * {@return the library loaded}
   *
   * @throws NcclUnavailableException a new one, with the first attempt's message and cause, when
   *     loading failed
   */
  NcclLibrary get() {
    if (library != null) {
      return library;
    }
    NcclUnavailableException first = failure;
    if (first == null) {
      throw new IllegalStateException("an outcome holds a library or a failure");
    }
    throw new NcclUnavailableException(String.valueOf(first.getMessage()), first.getCause());
  }
}
