package cuda.graph;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * An op that replays a captured graph ({@code cuGraphLaunch}) on whichever stream executes it.
 * Made by {@link CudaGraph#launch()}.
 *
 * <p>A launch shares ownership of the instantiated graph from the moment it is made: it stays
 * valid after its {@link CudaGraph} is closed, and the graph is destroyed only once every launch
 * handed out has been executed (and its work completed) or become unreachable. Launches of one
 * graph are serialized by the driver, even on different streams. A launch is not a {@link
 * GraphNode}: it cannot be recorded into another graph.
 */
public final class GraphLaunch extends OnceGuard implements DeviceOp<@Nullable Void> {

  private final GraphExecHandle handle;
  private final Reference reference;

  /** The launch's share of the exec, released once: when executed work completes, or by the cleaner. */
  private static final class Reference implements Runnable {
    private final GraphExecHandle handle;
    private final AtomicBoolean handedOver = new AtomicBoolean();

    Reference(GraphExecHandle handle) {
      this.handle = handle;
    }

    boolean handOver() {
      return handedOver.compareAndSet(false, true);
    }

    @Override
    public void run() {
      if (handOver()) {
        handle.lifetime.release();
      }
    }
  }

  GraphLaunch(GraphExecHandle handle) {
    handle.lifetime.acquire("the graph");
    this.handle = handle;
    this.reference = new Reference(handle);
    CudaPlatform.CLEANER.register(this, reference);
  }

  void launchOn(Execution ex) {
    if (ex.isCapturing()) {
      throw new GraphCaptureException(
          "a graph launch cannot be recorded into another graph (" + ex.capturing + "); launch it after the capture", null);
    }
    ex.requireSameDevice(handle.device, this);
    if (!reference.handOver()) {
      throw new IllegalStateException(this + " was released before it executed");
    }
    // The execution now holds the launch's share: the exec outlives the launched work.
    ex.hold(handle.lifetime);
    ex.driver.graphLaunch(handle.exec, ex.cuStream);
  }

  @Override
  public String toString() {
    return "GraphLaunch[" + handle.exec + "]";
  }
}
