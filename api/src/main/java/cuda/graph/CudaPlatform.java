package cuda.graph;

import cuda.graph.internal.ProviderSelector;
import cuda.graph.internal.ProviderSelector.Failure;
import cuda.graph.internal.ProviderSelector.Opened;
import cuda.graph.internal.ProviderSelector.Outcome;
import cuda.graph.spi.CudaDriver;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The CUDA driver this process uses, chosen among the installed providers.
 *
 * <p>{@link #system()} chooses the provider on its first call, opens its driver and initializes
 * it; every later call, from any thread, returns the same instance, or, if the first call failed,
 * throws a {@link CudaProviderException} with the same message. The choice follows these rules:
 * the provider named by the system property {@code cuda.graph.provider} (or, when that is not set,
 * the environment variable {@code CUDA_GRAPH_PROVIDER}) if it is installed and available, with no
 * fallback to another; otherwise the available provider with the highest priority, ties broken by
 * id. {@link #selectionReport()} explains the choice, and the same lines are logged to the
 * {@link System.Logger} named {@code cuda.graph}.
 *
 * <p>A platform is immutable and safe to use from any thread. It lives as long as the process: its
 * driver is never closed.
 */
public final class CudaPlatform {

  private static final Bootstrap SYSTEM =
      new Bootstrap(
          () ->
              ProviderSelector.open(
                  ProviderSelector.selectForProcess(),
                  System.getLogger(ProviderSelector.LOGGER_NAME)));

  private final String providerId;
  private final List<String> selectionReport;
  private final CudaDriver driver;

  private CudaPlatform(String providerId, List<String> selectionReport, CudaDriver driver) {
    this.providerId = providerId;
    this.selectionReport = List.copyOf(selectionReport);
    this.driver = driver;
  }

  /**
   * Returns the process-wide platform, choosing, opening and initializing its provider on the first
   * call. Safe to call from any thread; concurrent first calls wait for one selection.
   *
   * @return the same instance on every call
   * @throws CudaProviderException if no provider can be used; the message says why and what to do,
   *     and every later call throws a new exception with the same message and cause, without
   *     selecting again
   */
  public static CudaPlatform system() {
    return SYSTEM.get();
  }

  /** {@return the id of the chosen provider, e.g. {@code "cuda"} or {@code "simulator"}} */
  public String providerId() {
    return providerId;
  }

  /**
   * {@return the lines that explain the choice of provider}: each starts with
   * {@code "cuda.graph: "}; the list is unmodifiable
   */
  public List<String> selectionReport() {
    return selectionReport;
  }

  /** {@return the opened, initialized driver; for the library's own use, not public API} */
  CudaDriver driver() {
    return driver;
  }

  @Override
  public String toString() {
    return "CudaPlatform[provider=" + providerId + "]";
  }

  /**
   * Makes one platform, once: the first {@link #get()} runs the selection, and its result, a
   * platform or a failure, is what every later call gets. A selection that throws (it does not, but
   * an {@link Error} can escape) leaves nothing behind, so the next call selects again.
   */
  static final class Bootstrap {
    private final Supplier<Outcome> selection;
    private volatile @Nullable Object result; // a CudaPlatform or a Failed
    private boolean selecting; // guarded by this

    Bootstrap(Supplier<Outcome> selection) {
      this.selection = Objects.requireNonNull(selection, "selection");
    }

    CudaPlatform get() {
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
      return (CudaPlatform) known;
    }

    private static Object create(Outcome outcome) {
      return switch (outcome) {
        case Opened opened -> new CudaPlatform(opened.id(), opened.lines(), opened.driver());
        case Failure failure -> new Failed(String.join("\n", failure.lines()), failure.cause());
        case ProviderSelector.Selection selection ->
            throw new IllegalStateException(
                "the provider " + selection.id() + " was chosen but not opened");
      };
    }

    private record Failed(String message, @Nullable Throwable cause) {}
  }
}
