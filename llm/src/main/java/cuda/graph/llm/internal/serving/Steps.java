// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.llm.internal.engine.BatchStep;
import java.util.List;

/**
 * What the scheduler runs a step on: a {@link BatchStep} and what it was made with, created, used
 * and closed on the engine thread alone.
 */
public interface Steps extends AutoCloseable {

  /**
   * Runs one step.
   *
   * @param chunks the sequences' parts of the step
   * @return each chunk's sampled token, in order
   */
  int[] run(List<BatchStep.Chunk> chunks);

  /** Closes what the steps were made with. */
  @Override
  void close();
}
