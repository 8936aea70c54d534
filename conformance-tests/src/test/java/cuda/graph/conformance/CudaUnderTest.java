// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriver;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * Binds a contract to the {@code cuda} provider, found through the same ServiceLoader path
 * applications use: a test class {@code implements} the contract and this interface, tagged {@code
 * gpu}. Where the provider is unavailable, the classes are skipped with its one-line reason: JUnit
 * classes by {@link #abortUnlessAvailable()}, run by JUnit before all tests of the class, jqwik
 * classes by the {@link SkipUnlessAvailable} hook (an aborted property try would count as a
 * rejected sample, and a property whose every try is rejected fails).
 *
 * <p>Every test closes its platform, which releases its retain of the device's primary context; so
 * that the context is not destroyed and re-created for every property try, the binding keeps one
 * retain of it, on a driver of its own, for the life of the test JVM. That retain is not seen by
 * the tests' instrumented drivers, whose ledgers stay exact.
 */
interface CudaUnderTest extends ConformanceContract {

  /** {@return a new driver of the cuda provider} (aborting the test where it is unavailable) */
  @Override
  default CudaDriver openDriver() {
    abortUnlessAvailable();
    Provider.keepPrimaryContext();
    return ConformanceProviders.find(Provider.ID).open();
  }

  @Override
  default String providerId() {
    return Provider.ID;
  }

  /** Aborts the calling test or class, with the provider's reason, where no GPU is usable. */
  @BeforeAll
  static void abortUnlessAvailable() {
    Availability a = Provider.availability();
    if (!a.available()) {
      Assumptions.abort(Provider.reason(a));
    }
  }

  /** Skips a jqwik container or property, with the provider's reason, where no GPU is usable. */
  final class SkipUnlessAvailable implements SkipExecutionHook {

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      Availability a = Provider.availability();
      return a.available() ? SkipResult.doNotSkip() : SkipResult.skip(Provider.reason(a));
    }
  }

  /** What every binding to the provider shares: its availability, probed once, and the retain. */
  final class Provider {

    static final String ID = "cuda";

    private static @Nullable Availability availability;
    private static boolean contextKept;

    private Provider() {}

    static synchronized Availability availability() {
      if (availability == null) {
        availability = ConformanceProviders.find(ID).availability();
      }
      return availability;
    }

    static String reason(Availability a) {
      return "the '" + ID + "' provider is unavailable: " + a.reason();
    }

    static synchronized void keepPrimaryContext() {
      if (contextKept) {
        return;
      }
      CudaDriver keeper = ConformanceProviders.find(ID).open();
      keeper.init(0);
      keeper.devicePrimaryCtxRetain(keeper.deviceGet(0)); // released when the JVM exits
      contextKept = true;
    }
  }
}
