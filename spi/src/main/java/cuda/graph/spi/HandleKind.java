// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The kinds of driver objects whose lifetimes a caller owns and must end exactly once.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum HandleKind {
  /** A primary-context retain; each is ended with {@code cuDevicePrimaryCtxRelease_v2}. */
  CONTEXT("CUcontext"),
  /** A stream; destroyed with {@code cuStreamDestroy_v2}. */
  STREAM("CUstream"),
  /** An event; destroyed with {@code cuEventDestroy_v2}. */
  EVENT("CUevent"),
  /** A loaded module; unloaded with {@code cuModuleUnload}. */
  MODULE("CUmodule"),
  /** A kernel of a module; never destroyed, dead once its module is unloaded. */
  FUNCTION("CUfunction"),
  /** A graph; destroyed with {@code cuGraphDestroy}. */
  GRAPH("CUgraph"),
  /** An executable graph; destroyed with {@code cuGraphExecDestroy}. */
  GRAPH_EXEC("CUgraphExec"),
  /** A graph node; never destroyed, dead once its graph is destroyed. */
  GRAPH_NODE("CUgraphNode"),
  /** Device memory from {@code cuMemAlloc_v2} or {@code cuMemAllocAsync}. */
  DEVICE_MEMORY("CUdeviceptr"),
  /**
   * Page-locked host memory from {@code cuMemAllocHost_v2} or {@code cuMemHostAlloc} (mapped into
   * the device address space or not); freed with {@code cuMemFreeHost}. The device pointer of
   * mapped memory is no handle of its own: it dies with the memory.
   */
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
