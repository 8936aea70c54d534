// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUgraphConditionalNodeType}: how a conditional node runs its body graphs.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum ConditionalType {
  /**
   * {@code CU_GRAPH_COND_TYPE_IF}: with one body, runs it once if the condition is non-zero; with
   * two, runs the first if it is non-zero and the second otherwise (CUDA 12.8).
   */
  IF(0),
  /**
   * {@code CU_GRAPH_COND_TYPE_WHILE}: runs its one body as long as the condition is non-zero,
   * testing it before the first run and after each.
   */
  WHILE(1),
  /**
   * {@code CU_GRAPH_COND_TYPE_SWITCH}: runs body {@code n} when the condition is {@code n}, none
   * when it is not below the number of bodies (CUDA 12.8).
   */
  SWITCH(2);

  private final int code;

  ConditionalType(int code) {
    this.code = code;
  }

  /** {@return the {@code CU_GRAPH_COND_TYPE_*} value} */
  public int code() {
    return code;
  }
}
