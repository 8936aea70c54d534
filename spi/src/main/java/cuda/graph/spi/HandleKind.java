package cuda.graph.spi;

/** The kinds of driver objects whose lifetimes a caller owns and must end exactly once. */
public enum HandleKind {
  CONTEXT("CUcontext"),
  STREAM("CUstream"),
  EVENT("CUevent"),
  MODULE("CUmodule"),
  FUNCTION("CUfunction"),
  GRAPH("CUgraph"),
  GRAPH_EXEC("CUgraphExec"),
  GRAPH_NODE("CUgraphNode"),
  /** Device memory from {@code cuMemAlloc_v2} or {@code cuMemAllocAsync}. */
  DEVICE_MEMORY("CUdeviceptr"),
  /** Page-locked host memory from {@code cuMemAllocHost_v2}. */
  HOST_MEMORY("void* (pinned)");

  private final String cudaType;

  HandleKind(String cudaType) {
    this.cudaType = cudaType;
  }

  /** {@return the CUDA C type that holds a handle of this kind} */
  public String cudaType() {
    return cudaType;
  }
}
