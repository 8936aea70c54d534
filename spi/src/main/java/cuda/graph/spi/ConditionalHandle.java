// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A {@code CUgraphConditionalHandle}: the condition of one conditional node, set on the device by
 * {@code cudaGraphSetConditional(handle, value)} and passed to kernels as a 64-bit parameter. It
 * belongs to the graph it was created for and lives as long as that graph; there is nothing to
 * destroy.
 *
 * @param value the opaque 64-bit value the driver returned, passed to kernels as is
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ConditionalHandle(long value) {

  /**
   * {@code CU_GRAPH_COND_ASSIGN_DEFAULT}: the condition is set to its default value at the start of
   * every launch of the graph.
   */
  public static final int ASSIGN_DEFAULT = 1;

  @Override
  public String toString() {
    return "CUgraphConditionalHandle(0x" + Long.toHexString(value) + ")";
  }
}
