// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/** Runs {@link ChangingGraphsSoakContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
class CudaChangingGraphsSoakTests implements ChangingGraphsSoakContract, CudaUnderTest {

  /** On a GPU a step is cheap: more seeds and longer sequences than the simulator's build runs. */
  @Override
  public int seeds() {
    return 50;
  }

  @Override
  public int steps() {
    return 400;
  }

  /** Every step is checked: a divergence names the step that made it. */
  @Override
  public int checkEvery() {
    return 1;
  }
}
