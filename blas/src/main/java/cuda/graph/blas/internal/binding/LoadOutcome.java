package cuda.graph.blas.internal.binding;

import cuda.graph.blas.BlasException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one attempt to load cuBLASLt: the library, or why it could not be loaded. A
 * failure is kept, not retried, so every caller gets the same answer and no caller gets a
 * half-bound library; each caller gets its own exception, thrown from where it asked.
 */
final class LoadOutcome {

  private final @Nullable CublasLtLibrary library;
  private final @Nullable BlasException failure;

  private LoadOutcome(@Nullable CublasLtLibrary library, @Nullable BlasException failure) {
    this.library = library;
    this.failure = failure;
  }

  /** {@return the outcome of running {@code loader} once} */
  static LoadOutcome of(Supplier<CublasLtLibrary> loader) {
    try {
      return new LoadOutcome(loader.get(), null);
    } catch (BlasException e) {
      return new LoadOutcome(null, e);
    }
  }

  /**
   * {@return the library loaded}
   *
   * @throws BlasException a new one, with the first attempt's message and cause, when loading
   *     failed
   */
  CublasLtLibrary get() {
    if (library != null) {
      return library;
    }
    BlasException first = failure;
    if (first == null) {
      throw new IllegalStateException("an outcome holds a library or a failure");
    }
    throw Unavailable.again(first);
  }
}
