// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The {@code simulator} provider as {@link ServiceLoader} finds it. */
@Timeout(20)
class SimulatorProviderTests {

  private static CudaDriverProvider simulatorProvider() {
    // Tests run inside module cuda.graph.simulator, which provides but does not use the service.
    SimulatorProviderTests.class.getModule().addUses(CudaDriverProvider.class);
    List<CudaDriverProvider> found =
        ServiceLoader.load(CudaDriverProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.id().equals("simulator"))
            .toList();
    assertEquals(1, found.size(), "exactly one provider with id simulator");
    return found.get(0);
  }

  @Test
  void serviceLoaderFindsTheSimulatorProvider() {
    assertEquals("simulator", simulatorProvider().id());
  }

  @Test
  void simulatorProviderIsAvailableWithAReason() {
    var availability = simulatorProvider().availability();
    assertTrue(availability.available());
    assertFalse(availability.reason().isBlank());
  }

  @Test
  void simulatorProviderHasTheLowestPriorityZero() {
    assertEquals(0, simulatorProvider().priority());
  }

  @Test
  void openedDriverWorksAndEachOpenIsIndependent() {
    CudaDriverProvider provider = simulatorProvider();
    try (CudaDriver first = provider.open();
        CudaDriver second = provider.open()) {
      assertNotSame(first, second);
      first.init(0);
      assertEquals(1, first.deviceGetCount());
      assertEquals(13000, second.driverGetVersion());
    }
  }

  @Test
  void openHonoursTheDeviceCountProperty() {
    String key = "cuda.graph.simulator.devices";
    String previous = System.getProperty(key);
    System.setProperty(key, "3");
    try (CudaDriver driver = simulatorProvider().open()) {
      driver.init(0);
      assertEquals(3, driver.deviceGetCount());
    } finally {
      if (previous == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, previous);
      }
    }
  }

  @Test
  void openHonoursTheReuseHandlesProperty() {
    String key = "cuda.graph.simulator.reuseHandles";
    String previous = System.getProperty(key);
    System.setProperty(key, "true");
    try (CudaDriver driver = simulatorProvider().open()) {
      assertTrue(((SimulatedDriver) driver).settings().reusesHandleValues());
    } finally {
      if (previous == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, previous);
      }
    }
  }
}
