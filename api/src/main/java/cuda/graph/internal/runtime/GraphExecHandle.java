package cuda.graph.internal.runtime;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import java.util.List;

/**
 * Owns an instantiated graph: the {@code CUgraph} it came from, the {@code CUgraphExec} that
 * replays it, and the leases on every buffer the captured work uses. Shared by the {@link
 * CudaGraph} and every {@link GraphLaunch} it handed out (reference counted), so a launch can never
 * replay a destroyed exec; the exec and graph are destroyed exactly once, after the last owner (and
 * the last launch's work) is done, and only then are the buffers' leases released.
 */
public final class GraphExecHandle {

  public final DeviceImpl device;
  public final CuGraph graph;
  public final CuGraphExec exec;
  public final RefCount lifetime;

  public GraphExecHandle(
      DeviceImpl device, CuGraph graph, CuGraphExec exec, List<RefCount> bufferLeases) {
    this.device = device;
    this.graph = graph;
    this.exec = exec;
    this.lifetime =
        device.lifetime(
            driver -> {
              try {
                driver.graphExecDestroy(exec);
                driver.graphDestroy(graph);
              } finally {
                bufferLeases.forEach(RefCount::release);
              }
            });
  }
}
