// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.NodeKind;
import cuda.graph.spi.GraphNodeType;

/** The public name of each driver node type. */
final class NodeKinds {

  private NodeKinds() {}

  static NodeKind of(GraphNodeType type) {
    return switch (type) {
      case KERNEL -> NodeKind.KERNEL;
      case MEMCPY -> NodeKind.COPY;
      case MEMSET -> NodeKind.FILL;
      case HOST -> NodeKind.HOST_CALLBACK;
      case GRAPH -> NodeKind.CHILD_GRAPH;
      case EMPTY -> NodeKind.EMPTY;
      case WAIT_EVENT -> NodeKind.EVENT_WAIT;
      case EVENT_RECORD -> NodeKind.EVENT_RECORD;
      case MEM_ALLOC -> NodeKind.ALLOCATION;
      case MEM_FREE -> NodeKind.FREE;
      case CONDITIONAL -> NodeKind.CONDITIONAL;
      case EXT_SEMAS_SIGNAL, EXT_SEMAS_WAIT, BATCH_MEM_OP -> NodeKind.OTHER;
    };
  }
}
