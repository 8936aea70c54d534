package cuda.graph.conformance;

import cuda.graph.spi.CudaDriver;

/**
 * The hook every contract of this kit shares: how to get a driver of the provider under test.
 *
 * <p>A provider author makes one small test class per contract, e.g. {@code class
 * MyProviderCaptureFailureTests implements CaptureFailureContract}, and implements {@link
 * #openDriver()}; every test and property of the contract then runs against that provider. Test
 * classes must have a no-argument constructor (JUnit and jqwik create them).
 */
public interface ConformanceContract {

  /**
   * {@return a new, independent, uninitialized driver of the provider under test}; each test (each
   * property try) opens one, wraps it in an {@link InstrumentedDriver}, and closes it. To skip the
   * tests where the provider cannot run, throw {@link org.opentest4j.TestAbortedException} (for
   * example through {@link ConformanceProviders#openOrAbort}).
   */
  CudaDriver openDriver();

  /** {@return the provider id the platforms of these tests report; the default is {@code "under-test"}} */
  default String providerId() {
    return "under-test";
  }

  /** Opens a {@link ConformanceSession} over a new driver from {@link #openDriver()}. */
  default ConformanceSession openSession() {
    return ConformanceSession.open(openDriver(), providerId());
  }
}
