// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUgraphMem_attribute}: what the driver reports of a device's memory for graph allocations
 * (the memory of allocation nodes, which the driver maps when an exec is uploaded or launched and
 * shares between graphs whose launches cannot overlap). Every value is in bytes.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum GraphMemAttribute {
  /** {@code CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT} (0): memory now associated with graphs. */
  USED_MEM_CURRENT(0),
  /**
   * {@code CU_GRAPH_MEM_ATTR_USED_MEM_HIGH} (1): the most {@link #USED_MEM_CURRENT} has been since
   * the last reset.
   */
  USED_MEM_HIGH(1),
  /**
   * {@code CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT} (2): memory now mapped for graph allocations,
   * until {@link CudaDriver#deviceGraphMemTrim} gives back what no launch needs.
   */
  RESERVED_MEM_CURRENT(2),
  /**
   * {@code CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH} (3): the most {@link #RESERVED_MEM_CURRENT} has
   * been since the last reset.
   */
  RESERVED_MEM_HIGH(3);

  private final int code;

  GraphMemAttribute(int code) {
    this.code = code;
  }

  /** {@return the {@code CU_GRAPH_MEM_ATTR_*} value} */
  public int code() {
    return code;
  }

  /** {@return whether this is a high-water mark, the only kind the driver lets a caller set} */
  public boolean isHighWater() {
    return this == USED_MEM_HIGH || this == RESERVED_MEM_HIGH;
  }
}
