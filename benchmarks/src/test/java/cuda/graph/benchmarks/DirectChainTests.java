// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.simulator.Simulator;
import org.junit.jupiter.api.Test;

/** The anchors' call sequence made straight on a driver runs every launch it counts. */
class DirectChainTests {

  @Test
  void eagerLaunchesAndReplaysOfACapturedChainAllReachTheCounter() {
    try (var driver = Simulator.create()) {
      driver.init(0);
      try (DirectChain chain = new DirectChain(driver, 0)) {
        chain.eager(3);
        try (DirectChain.Captured captured = chain.capture(2)) {
          captured.replay();
          captured.replay();
        }
        assertEquals(7, chain.launched());
        // The argument block and the read buffer are used on the driver's threads, not only this
        // one.
        assertEquals(7, chain.counter());
      }
    }
  }
}
