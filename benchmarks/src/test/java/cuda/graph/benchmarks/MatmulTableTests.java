// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The matmul table shows each implementation's figure over interleaved rounds as its median with
 * its spread, the ratios of medians, and says what is missing or wrong.
 */
class MatmulTableTests {

  private static final String CPP_HEAD =
      "impl,shape,in,out,rows,mode,us_per_matmul_median,us_p10,us_p90,samples,repeats,"
          + "algo_workspace_bytes";
  private static final String OURS_HEAD = CPP_HEAD + ",check";

  private static MatmulTable table(List<String> lines) {
    MatmulTable t = new MatmulTable();
    lines.forEach(t::add);
    return t;
  }

  @Test
  void threeRoundsOfEachImplementationBecomeMediansWithSpreadsAndRatiosOfMedians() {
    String table =
        table(
                List.of(
                    CPP_HEAD,
                    "cpp,llama_b1,2048,2048,1,graph,5.730,5.700,5.800,100,20,0",
                    "llama_b1: eager and graph results OK",
                    "torch,llama_b1,2048,2048,1,graph,5.690,5.600,5.700,100,20",
                    OURS_HEAD,
                    "cuda-graph,llama_b1,2048,2048,1,graph,5.650,5.600,5.700,100,20,0,OK",
                    "cpp,llama_b1,2048,2048,1,graph,5.710,5.700,5.800,100,20,0",
                    "torch,llama_b1,2048,2048,1,graph,5.660,5.600,5.700,100,20",
                    "cuda-graph,llama_b1,2048,2048,1,graph,5.610,5.600,5.700,100,20,0,OK",
                    "cpp,llama_b1,2048,2048,1,graph,5.760,5.700,5.800,100,20,0",
                    "torch,llama_b1,2048,2048,1,graph,5.780,5.600,5.800,100,20",
                    "cuda-graph,llama_b1,2048,2048,1,graph,5.770,5.600,5.800,100,20,0,OK",
                    "not a row"))
            .render();
    // ours / C++: 5.65 / 5.73, spread 5.61 / 5.76 to 5.77 / 5.71; ours / PyTorch: 5.65 / 5.69,
    // spread 5.61 / 5.78 to 5.77 / 5.66.
    assertTrue(
        table.contains(
            "| llama_b1 | graph | 5.730 [5.710-5.760] | 5.690 [5.660-5.780] | 5.650 [5.610-5.770]"
                + " | 0.986 [0.974-1.011] | 0.993 [0.971-1.019] |"),
        table);
    assertTrue(
        table.contains("Rounds (figures in a cell, at most): C++ 3, PyTorch 3, cuda-graph 3"),
        table);
    assertTrue(
        table.contains("cuda-graph / C++, graph: min 0.986 (llama_b1), median 0.986, max 0.986"),
        table);
    assertTrue(
        table.contains(
            "eager and replayed results equal bit for bit: C++ 1 of 1, cuda-graph 3 of 3"),
        table);
  }

  @Test
  void aColumnWithoutRowsSaysSoAndLeavesItsCellsAndRatiosEmpty() {
    String table =
        table(
                List.of(
                    "torch,enc_r16,384,384,16,eager,13.000,12.000,14.000,100,20",
                    "cuda-graph,enc_r16,384,384,16,eager,7.000,6.000,8.000,100,20,0,OK"))
            .render();
    assertTrue(table.contains("| enc_r16 | eager | - | 13.000 | 7.000 | - | 0.538 |"), table);
    assertTrue(
        table.contains("C++: no rows (did it build and run? see its log)"),
        "a missing column must be named: " + table);
  }

  @Test
  void aMismatchOfEagerAndReplayedResultsIsNamed() {
    String table =
        table(
                List.of(
                    "cpp,enc_r16,384,384,16,graph,3.000,3.000,3.000,100,20,0",
                    "enc_r16: eager and graph results MISMATCH",
                    "cuda-graph,enc_r16,384,384,16,graph,3.000,3.000,3.000,100,20,0,MISMATCH",
                    "cuda-graph,enc_r16,384,384,16,graph,3.000,3.000,3.000,100,20,0,OK",
                    "cuda-graph,enc_r16,384,384,16,graph,3.000,3.000,3.000,100,20,0,MISMATCH"))
            .render();
    // Three rounds of one shape, two of them wrong: counted per round, the shape named once.
    assertTrue(
        table.contains(
            "eager and replayed results equal bit for bit: C++ 0 of 1, cuda-graph 1 of 3"),
        table);
    assertTrue(table.contains("MISMATCH: C++ enc_r16; cuda-graph enc_r16"), table);
  }

  @Test
  void theDecodeKernelsRowsStandBesideTheProductOfTheSameShape() {
    String table =
        table(
                List.of(
                    "cpp,llama_b8,2048,512,8,graph,5.900,5.800,6.000,100,20,0",
                    "cpp,llama_b8,2048,512,8,decode_matvec,19.600,19.500,19.700,20,10,0",
                    "cpp,llama_b8,2048,512,8,decode_matvec,19.800,19.500,19.900,20,10,0",
                    "cuda-graph,llama_b8,2048,512,8,graph,5.690,5.600,5.700,100,20,0,OK"))
            .render();
    int graph = table.indexOf("| llama_b8 | graph |");
    int matvec = table.indexOf("| llama_b8 | decode_matvec | 19.700 [19.600-19.800] | - | - |");
    assertTrue(graph >= 0 && matvec > graph, table);
    assertFalse(table.contains("NaN"), table);
  }
}
