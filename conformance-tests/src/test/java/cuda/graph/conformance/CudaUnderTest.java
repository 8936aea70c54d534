package cuda.graph.conformance;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriver;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * The {@code cuda} provider for the GPU contract classes, found through the same ServiceLoader path
 * applications use. Where it is unavailable, the classes are skipped with its one-line reason:
 * JUnit classes by {@link #abortUnlessAvailable()} in {@code @BeforeAll}, jqwik classes by the
 * {@link SkipUnlessAvailable} hook (an aborted property try would count as a rejected sample, and a
 * property whose every try is rejected fails).
 *
 * <p>Every test closes its platform, which releases its retain of the device's primary context; so
 * that the context is not destroyed and re-created for every property try, this class keeps one
 * retain of it, on a driver of its own, for the life of the test JVM. That retain is not seen by
 * the tests' instrumented drivers, whose ledgers stay exact.
 */
final class CudaUnderTest {

  private static final String ID = "cuda";

  private static @Nullable Availability availability;
  private static boolean contextKept;

  private CudaUnderTest() {}

  /** {@return a new driver of the cuda provider} (aborting the test where it is unavailable) */
  static CudaDriver openDriver() {
    abortUnlessAvailable();
    keepPrimaryContext();
    return ConformanceProviders.find(ID).open();
  }

  /** Aborts the calling test or class, with the provider's reason, where no GPU is usable. */
  static void abortUnlessAvailable() {
    Availability a = availability();
    if (!a.available()) {
      Assumptions.abort(reason(a));
    }
  }

  private static synchronized Availability availability() {
    if (availability == null) {
      availability = ConformanceProviders.find(ID).availability();
    }
    return availability;
  }

  private static String reason(Availability a) {
    return "the '" + ID + "' provider is unavailable: " + a.reason();
  }

  private static synchronized void keepPrimaryContext() {
    if (contextKept) {
      return;
    }
    CudaDriver keeper = ConformanceProviders.find(ID).open();
    keeper.init(0);
    keeper.devicePrimaryCtxRetain(keeper.deviceGet(0)); // released when the JVM exits
    contextKept = true;
  }

  /** Skips a jqwik container or property, with the provider's reason, where no GPU is usable. */
  public static final class SkipUnlessAvailable implements SkipExecutionHook {

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      Availability a = availability();
      return a.available() ? SkipResult.doNotSkip() : SkipResult.skip(reason(a));
    }
  }
}
