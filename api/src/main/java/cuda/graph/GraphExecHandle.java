package cuda.graph;

import cuda.graph.internal.RefCount;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import java.util.List;

/**
 * Owns an instantiated graph: the {@code CUgraph} it came from, the {@code CUgraphExec} that
 * replays it, and the leases on every buffer the captured work uses. Shared by the {@link
 * CudaGraph} and every {@link GraphLaunch} it handed out (reference counted), so a launch can
 * never replay a destroyed exec; the exec and graph are destroyed exactly once, after the last
 * owner (and the last launch's work) is done, and only then are the buffers' leases released.
 */
final class GraphExecHandle {

  final Device device;
  final CuGraph graph;
  final CuGraphExec exec;
  final RefCount lifetime;

  GraphExecHandle(Device device, CuGraph graph, CuGraphExec exec, List<RefCount> bufferLeases) {
    this.device = device;
    this.graph = graph;
    this.exec = exec;
    CudaPlatform platform = device.platform();
    this.lifetime = new RefCount(() -> platform.releases().release(() -> {
      try {
        device.bind();
        platform.driver().graphExecDestroy(exec);
        platform.driver().graphDestroy(graph);
      } finally {
        bufferLeases.forEach(RefCount::release);
      }
    }));
  }
}
