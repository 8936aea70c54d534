// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/**
 * Runs {@link NodeChangesFuzzContract} against the {@code cuda} provider on a GPU host: two seeds
 * of 10,000 changes ({@code -Dfuzz.changes} sets another count).
 */
@Tag("gpu")
class CudaNodeChangesFuzzTests implements NodeChangesFuzzContract, CudaUnderTest {

  @Override
  public int changes() {
    return Integer.getInteger("fuzz.changes", 10_000);
  }

  @Override
  public long[] seeds() {
    return new long[] {1, 2};
  }
}
