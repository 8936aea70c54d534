// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ratio table shows each repeated figure as its median and spread, beside C++. */
class RatioTableTests {

  @Test
  void repeatedRunsBecomeAMedianWithItsSpreadAndTheRatioOfMedians() {
    RatioTable t = new RatioTable();
    for (String line :
        new String[] {
          "impl,n,mode,us_per_kernel_submit,us_per_kernel_wall,reps",
          "cpp,100,graph,0.5,1.000,100",
          "cpp,100,graph,0.5,1.200,100",
          "cpp,100,graph,0.5,1.100,100",
          "cuda-graph,100,graph,0.5,1.050,100",
          "cuda-graph,100,graph,0.5,1.150,100",
          "cuda-graph,100,graph,0.5,1.100,100",
          "cuda.core,100,graph,0.5,1.500,100",
          "cpp-capture,1,capture,nan,nan,7  (capture+instantiate+upload 20.0 us)",
          "cuda-graph,1,capture,nan,nan,15  (capture+instantiate+upload 24.0 us) min 23 max 30",
          "not a row"
        }) {
      t.add(line);
    }
    String table = t.render();
    assertTrue(
        table.contains("| 100 | graph | 1.100 [1.000-1.200] | 1.100 [1.050-1.150] |"), table);
    // median ratio 1.00, spread from 1.05/1.2 to 1.15/1.0; target 1.02 met on the median
    assertTrue(table.contains("| 1.00 [0.88-1.15] | <= 1.02 | yes |"), table);
    assertTrue(table.contains("1.500 (1.36 [1.25-1.50]x)"), table);
    assertTrue(table.contains("| 1 | 20.0 | 24.0 | 1.20 | <= 1.30 | yes |"), table);
  }
}
