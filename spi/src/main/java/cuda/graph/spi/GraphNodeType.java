package cuda.graph.spi;

/** {@code CUgraphNodeType}: what a graph node does. */
public enum GraphNodeType {
  KERNEL(0),
  MEMCPY(1),
  MEMSET(2),
  HOST(3),
  GRAPH(4),
  EMPTY(5),
  WAIT_EVENT(6),
  EVENT_RECORD(7),
  EXT_SEMAS_SIGNAL(8),
  EXT_SEMAS_WAIT(9),
  MEM_ALLOC(10),
  MEM_FREE(11),
  BATCH_MEM_OP(12),
  CONDITIONAL(13);

  private final int code;

  GraphNodeType(int code) {
    this.code = code;
  }

  /** {@return the {@code CU_GRAPH_NODE_TYPE_*} value} */
  public int code() {
    return code;
  }

  /** {@return the node type with a given {@code CU_GRAPH_NODE_TYPE_*} value} */
  public static GraphNodeType ofCode(int code) {
    for (GraphNodeType type : values()) {
      if (type.code == code) {
        return type;
      }
    }
    throw new IllegalArgumentException("no CUgraphNodeType has the value " + code);
  }
}
