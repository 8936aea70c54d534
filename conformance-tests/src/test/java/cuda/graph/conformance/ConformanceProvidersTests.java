// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CudaDriver;
import org.junit.jupiter.api.Test;

/** Finding providers by id through ServiceLoader, as the GPU contract classes do. */
class ConformanceProvidersTests {

  @Test
  void theSimulatorIsFoundByItsIdAndOpens() {
    assertEquals("simulator", ConformanceProviders.find("simulator").id());
    try (CudaDriver driver = ConformanceProviders.openOrAbort("simulator")) {
      driver.init(0);
      assertEquals(1, driver.deviceGetCount());
    }
  }

  @Test
  void aMissingProviderIsNamedWithTheOnesInstalled() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> ConformanceProviders.find("no-such-provider"));
    assertTrue(
        e.getMessage().contains("'no-such-provider'") && e.getMessage().contains("simulator"),
        e.getMessage());
  }
}
