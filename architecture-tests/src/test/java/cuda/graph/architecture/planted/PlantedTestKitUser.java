// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture.planted;

import cuda.graph.spi.CudaDriver;
import cuda.graph.testkit.InstrumentedDriver;

/**
 * A planted violation: a class outside the tests and the conformance kit that uses the test kit, as
 * no library, provider or application class may. {@code TestKitRulesTests} imports it alone, never
 * with the project's classes, and shows that the rule fails on it.
 */
public final class PlantedTestKitUser {

  private PlantedTestKitUser() {}

  /** {@return {@code driver} with the test kit's instruments: what the rule must catch} */
  public static CudaDriver instrumented(CudaDriver driver) {
    return new InstrumentedDriver(driver);
  }
}
