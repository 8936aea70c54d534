// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How a reducing collective combines the ranks' elements ({@code ncclRedOp_t}); each rank's
 * contribution is combined element by element.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum ReduceOp {
  /** The sum ({@code ncclSum}). */
  SUM(0),
  /** The product ({@code ncclProd}). */
  PRODUCT(1),
  /** The largest ({@code ncclMax}). */
  MAX(2),
  /** The smallest ({@code ncclMin}). */
  MIN(3),
  /** The mean: the sum divided by the number of ranks ({@code ncclAvg}, NCCL 2.10 and later). */
  AVERAGE(4);

  private final int code;

  ReduceOp(int code) {
    this.code = code;
  }

  /** {@return the {@code ncclRedOp_t} value} */
  public int code() {
    return code;
  }
}
