// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUgraphNodeType}: what a graph node does.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum GraphNodeType {
  /** A kernel launch. */
  KERNEL(0),
  /** A memory copy. */
  MEMCPY(1),
  /** A memory fill. */
  MEMSET(2),
  /** A host function call. */
  HOST(3),
  /** A child graph. */
  GRAPH(4),
  /** No work: a node that only orders its dependencies. */
  EMPTY(5),
  /** A wait on an event ({@code CU_GRAPH_NODE_TYPE_WAIT_EVENT}). */
  WAIT_EVENT(6),
  /** An event record. */
  EVENT_RECORD(7),
  /** A signal of external semaphores. */
  EXT_SEMAS_SIGNAL(8),
  /** A wait on external semaphores. */
  EXT_SEMAS_WAIT(9),
  /** A stream-ordered allocation. */
  MEM_ALLOC(10),
  /** A free of memory a {@link #MEM_ALLOC} node allocated. */
  MEM_FREE(11),
  /** A batch of memory operations ({@code cuStreamBatchMemOp}). */
  BATCH_MEM_OP(12),
  /** A conditional node (IF, WHILE or SWITCH) with body graphs. */
  CONDITIONAL(13);

  private final int code;

  GraphNodeType(int code) {
    this.code = code;
  }

  /** {@return the {@code CU_GRAPH_NODE_TYPE_*} value} */
  public int code() {
    return code;
  }

  /**
   * {@return the node type with a given {@code CU_GRAPH_NODE_TYPE_*} value}
   *
   * @param code a value from 0 to 13
   * @throws IllegalArgumentException if no node type has {@code code}
   */
  public static GraphNodeType ofCode(int code) {
    for (GraphNodeType type : values()) {
      if (type.code == code) {
        return type;
      }
    }
    throw new IllegalArgumentException("no CUgraphNodeType has the value " + code);
  }
}
