package cuda.graph.internal.exec;

import cuda.graph.GraphCaptureException;
import cuda.graph.GraphLaunch;
import cuda.graph.internal.events.GraphLaunchEvent;
import cuda.graph.internal.ops.OnceGuard;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/** The implementation of {@link GraphLaunch}. */
public final class GraphLaunchImpl extends OnceGuard implements GraphLaunch {

  private final GraphExecHandle handle;
  private final Reference reference;
  private final java.lang.ref.Cleaner.Cleanable cleanable;

  /**
   * The launch's share of the exec, released once: when executed work completes, or by the cleaner.
   */
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

  public GraphLaunchImpl(GraphExecHandle handle) {
    handle.lifetime.acquire("the graph");
    this.handle = handle;
    this.reference = new Reference(handle);
    this.cleanable = CudaPlatformImpl.CLEANER.register(this, reference);
  }

  /**
   * Replays the graph on the execution's stream. The launch executes once, so its share of the
   * graph goes to the execution first, whatever happens next: released once the launched work is
   * done, or with the execution when the launch fails (wrong device, inside a capture).
   */
  public void launchOn(Execution ex) {
    if (!reference.handOver()) {
      throw new IllegalStateException(this + " was released before it executed");
    }
    // Unregistered now, so neither the collector nor the cleaner thread ever handles this launch.
    cleanable.clean();
    ex.hold(handle.lifetime);
    if (ex.isCapturing()) {
      throw new GraphCaptureException(
          "a graph launch cannot be recorded into another graph ("
              + ex.capturing
              + "); launch it after the capture",
          null);
    }
    ex.requireSameDevice(handle.device, this);
    // Whatever a later change of the graph retires stays alive until this launch's work is done.
    ex.hold(handle.enterLaunch());
    GraphLaunchEvent event = new GraphLaunchEvent();
    event.begin();
    ex.driver.graphLaunch(handle.exec, ex.cuStream);
    event.end();
    if (event.shouldCommit()) {
      event.graph = handle.exec.toString();
      event.commit();
    }
  }

  @Override
  public String toString() {
    return "GraphLaunch[" + handle.exec + "]";
  }
}
