// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.CudaDriver;
import org.apiguardian.api.API;

/**
 * The hook every contract of this kit shares: how to get a driver of the provider under test.
 *
 * <p>A provider author makes one small test class per contract, e.g. {@code class
 * MyProviderCaptureFailureTests implements CaptureFailureContract}, and implements {@link
 * #openDriver()}; every test and property of the contract then runs against that provider. Test
 * classes must have a no-argument constructor (JUnit and jqwik create them).
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ConformanceContract {

  /**
   * {@return a new, independent, uninitialized driver of the provider under test}; each test (each
   * property try) opens one, wraps it in an {@link cuda.graph.testkit.InstrumentedDriver}, and
   * closes it.
   *
   * <p>Where the provider cannot run, skip the tests: a JUnit contract class aborts in a
   * {@code @BeforeAll} (or here, e.g. through {@link ConformanceProviders#openOrAbort}); a jqwik
   * contract class needs a {@code SkipExecutionHook} ({@code @AddLifecycleHook}), because jqwik
   * counts an aborted try as a rejected sample and fails a property whose every try is rejected.
   */
  CudaDriver openDriver();

  /**
   * {@return the provider id the platforms of these tests report; the default is {@code
   * "under-test"}}
   */
  default String providerId() {
    return "under-test";
  }

  /**
   * Opens a {@link ConformanceSession} over a new driver from {@link #openDriver()}.
   *
   * @return a session that owns the driver, reporting {@link #providerId()}; close it to check for
   *     leaks
   */
  default ConformanceSession openSession() {
    return ConformanceSession.open(openDriver(), providerId());
  }
}
