// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/**
 * Runs {@link ConcurrentChangesContract} against the {@code cuda} provider on a GPU host, with the
 * instruments counting overlapping calls on each graph object (there must be none).
 */
@Tag("gpu")
class CudaConcurrentChangesTests implements ConcurrentChangesContract, CudaUnderTest {

  /** On a GPU the rounds are cheap: ten times the simulator's, so overlaps have room to show. */
  @Override
  public int rounds() {
    return 2000;
  }
}
