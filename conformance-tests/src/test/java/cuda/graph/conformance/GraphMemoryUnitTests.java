// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * {@link GraphMemoryContract} checks the simulator's graph-memory model against the H200, not
 * against itself (issue 36, item 11): the contract holds bounds that only the measured 32 MiB
 * mapping unit meets, so a simulator built with another unit fails it. Every test of the contract
 * runs here against two simulators that differ in the unit alone.
 */
class GraphMemoryUnitTests {

  private static final long MIB = 1L << 20;

  /** {@return the contract bound to simulators that map graph memory in units of {@code unit}} */
  private static GraphMemoryContract onASimulatorMappingIn(long unit) {
    return new GraphMemoryContract() {
      @Override
      public CudaDriver openDriver() {
        return SimulatorUnderTest.simulator().graphMemoryMappingUnit(unit).build();
      }

      @Override
      public String providerId() {
        return "simulator";
      }
    };
  }

  /** {@return each test of the contract that failed on {@code contract}, with what it threw} */
  private static Map<String, Throwable> failures(GraphMemoryContract contract) throws Exception {
    Map<String, Throwable> failed = new LinkedHashMap<>();
    Method[] tests =
        Arrays.stream(GraphMemoryContract.class.getMethods())
            .filter(m -> m.isAnnotationPresent(Test.class))
            .sorted(Comparator.comparing(Method::getName))
            .toArray(Method[]::new);
    assertTrue(tests.length >= 8, () -> "the contract's tests: " + Arrays.toString(tests));
    for (Method test : tests) {
      try {
        test.invoke(contract);
      } catch (InvocationTargetException e) {
        failed.put(test.getName(), e.getCause());
      }
    }
    return failed;
  }

  @Test
  void theContractPassesASimulatorThatMapsIn32MiBUnitsAsTheH200Does() throws Exception {
    assertEquals(Simulator.DEFAULT_GRAPH_MEMORY_MAPPING_UNIT, 32 * MIB);
    assertEquals(Map.of(), failures(onASimulatorMappingIn(32 * MIB)));
  }

  @Test
  void theContractFailsASimulatorThatMapsIn2MiBUnits() throws Exception {
    Map<String, Throwable> failed = failures(onASimulatorMappingIn(2 * MIB));

    Throwable small = failed.get("aSmallGraphMapsOneWholeMappingUnitOf32MiB");
    assertInstanceOf(
        AssertionFailedError.class, small, () -> "the tests that failed: " + failed.keySet());
    assertTrue(small.getMessage().contains("64 KiB"), small.getMessage());
    failed.values().forEach(e -> assertInstanceOf(AssertionFailedError.class, e, e::toString));
  }
}
