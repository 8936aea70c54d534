// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.bootstrap;

import cuda.graph.CudaProviderException;
import cuda.graph.internal.bootstrap.ProviderSelector.Failure;
import cuda.graph.internal.bootstrap.ProviderSelector.Opened;
import cuda.graph.internal.bootstrap.ProviderSelector.Outcome;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Makes one platform, once: the first {@link #get()} runs the selection, and its result, a platform
 * or a failure, is what every later call gets. A selection that throws (it does not, but an {@link
 * Error} can escape) leaves nothing behind, so the next call selects again.
 *
 * @param <P> the platform type
 */
public final class SystemPlatform<P> {
  private final Supplier<Outcome> selection;
  private final Function<Opened, P> create;
  private volatile @Nullable Object result; // a P or a Failed
  private boolean selecting; // guarded by this

  /**
   * Selects with {@code selection} and makes the platform of an opened provider with {@code
   * create}.
   */
  public SystemPlatform(Supplier<Outcome> selection, Function<Opened, P> create) {
    this.selection = Objects.requireNonNull(selection, "selection");
    this.create = Objects.requireNonNull(create, "create");
  }

  /** {@return the platform, selecting it on the first call} */
  @SuppressWarnings("unchecked")
  public P get() {
    Object known = result;
    if (known == null) {
      synchronized (this) {
        known = result;
        if (known == null) {
          if (selecting) {
            // Only the selecting thread can get here while selecting (others wait above).
            throw new IllegalStateException(
                "CudaPlatform.system() was called while its provider is being chosen, on the same"
                    + " thread: a provider's availability() or open() must not use CudaPlatform");
          }
          selecting = true;
          try {
            known = create(selection.get());
            result = known;
          } finally {
            selecting = false;
          }
        }
      }
    }
    if (known instanceof Failed failed) {
      throw new CudaProviderException(failed.message(), failed.cause());
    }
    return (P) known;
  }

  private Object create(Outcome outcome) {
    return switch (outcome) {
      case Opened opened -> create.apply(opened);
      case Failure failure -> new Failed(String.join("\n", failure.lines()), failure.cause());
      case ProviderSelector.Selection selection ->
          throw new IllegalStateException(
              "the provider " + selection.id() + " was chosen but not opened");
    };
  }

  private record Failed(String message, @Nullable Throwable cause) {}
}
