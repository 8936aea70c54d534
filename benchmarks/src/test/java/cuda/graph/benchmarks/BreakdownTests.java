// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import org.junit.jupiter.api.Test;

/** A breakdown splits each repetition into its calls and the gaps between them, as medians. */
class BreakdownTests {

  /** Notes a repetition of two calls: a launch from 10 to 30 and a synchronize from 35 to 95. */
  private static void note(TimelineDriver driver, long shift, long launchNanos) {
    driver.clear();
    driver.calls[0] = DriverCall.LAUNCH_KERNEL;
    driver.entered[0] = shift + 10;
    driver.returned[0] = shift + 10 + launchNanos;
    driver.calls[1] = DriverCall.STREAM_SYNCHRONIZE;
    driver.entered[1] = shift + 35;
    driver.returned[1] = shift + 95;
    driver.count = 2;
  }

  @Test
  void everyCallAndGapIsTheMedianOverTheRepetitionsSoOneSlowRepetitionMovesNothing() {
    try (var simulator = Simulator.create()) {
      TimelineDriver driver = new TimelineDriver(simulator);
      Breakdown b = new Breakdown("eager");
      for (long launch : new long[] {20_000, 20_000, 900_000}) { // the last one is an outlier
        note(driver, 0, launch);
        b.add(driver, 0, 100_000 + launch);
      }
      String report = b.report();
      assertEquals(120_000, b.medianTotal());
      assertTrue(report.contains("eager: 3 reps, total median 120.00 us"), report);
      assertTrue(report.matches("(?s).*call LAUNCH_KERNEL +1\\.00 per rep +20\\.00 us.*"), report);
      assertTrue(
          report.matches("(?s).*gap start>LAUNCH_KERNEL +1\\.00 per rep +0\\.01 us.*"), report);
      // 100 us + launch - 95 ns: what the operation did after its last call
      assertTrue(
          report.matches("(?s).*gap STREAM_SYNCHRONIZE>end +1\\.00 per rep +119\\.91 us.*"),
          report);
      assertTrue(report.contains("in driver calls 20.06 us; between them 99.94 us"), report);
    }
  }
}
