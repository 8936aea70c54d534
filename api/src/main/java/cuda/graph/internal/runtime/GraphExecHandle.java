package cuda.graph.internal.runtime;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Owns an instantiated graph: the {@code CUgraph} it came from, the {@code CUgraphExec} that
 * replays it, and the leases on every buffer the captured work uses. Shared by the {@link
 * CudaGraph} and every {@link GraphLaunch} it handed out (reference counted), so a launch can never
 * replay a destroyed exec; the exec and graph are destroyed exactly once, after the last owner (and
 * the last launch's work) is done, or when the platform closes, whichever comes first. Both are
 * destroyed and the buffers' leases released whatever fails; failures are thrown to the release
 * queue, which logs them (a failed destroy is never retried).
 */
public final class GraphExecHandle {

  public final DeviceImpl device;
  public final CuGraph graph;
  public final CuGraphExec exec;
  public final RefCount lifetime;
  private final List<RefCount> bufferLeases;
  private final AtomicBoolean destroyed = new AtomicBoolean();

  public GraphExecHandle(
      DeviceImpl device, CuGraph graph, CuGraphExec exec, List<RefCount> bufferLeases) {
    this.device = device;
    this.graph = graph;
    this.exec = exec;
    this.bufferLeases = List.copyOf(bufferLeases);
    this.lifetime = device.lifetime(this::destroy);
    device.platform().graphInstantiated(this);
  }

  /**
   * Destroys the graph now, whoever still holds a share: the platform is closing, all work has
   * stopped and nothing can launch it any more.
   */
  void destroyAtClose() {
    device.release(this::destroy);
  }

  private void destroy(TranslatingDriver driver) {
    if (!destroyed.compareAndSet(false, true)) {
      return;
    }
    device.platform().graphDestroyed(this);
    RuntimeException failure = null;
    try {
      driver.graphExecDestroy(exec);
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      driver.graphDestroy(graph);
    } catch (RuntimeException e) {
      failure = also(failure, e);
    }
    for (RefCount lease : bufferLeases) {
      try {
        lease.release();
      } catch (RuntimeException e) {
        failure = also(failure, e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static RuntimeException also(@Nullable RuntimeException first, RuntimeException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
