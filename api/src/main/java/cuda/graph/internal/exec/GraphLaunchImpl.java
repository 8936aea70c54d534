// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import cuda.graph.GraphCaptureException;
import cuda.graph.GraphLaunch;
import cuda.graph.internal.events.GraphLaunchEvent;
import cuda.graph.internal.ops.OnceGuard;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.CurrentExec;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/** The implementation of {@link GraphLaunch}. */
public final class GraphLaunchImpl extends OnceGuard implements GraphLaunch {

  private final CurrentExec current;
  private final Reference reference;
  private final java.lang.ref.Cleaner.Cleanable cleanable;

  /**
   * The launch's share of the graph, released once: handed over when the launch executes, or by the
   * cleaner.
   */
  private static final class Reference implements Runnable {
    private final CurrentExec current;
    private final AtomicBoolean handedOver = new AtomicBoolean();

    Reference(CurrentExec current) {
      this.current = current;
    }

    boolean handOver() {
      return handedOver.compareAndSet(false, true);
    }

    @Override
    public void run() {
      if (handOver()) {
        current.release();
      }
    }
  }

  /**
   * A launch of the graph whose current exec {@code current} tracks; takes a share of it.
   *
   * @param graph names the graph when it is closed
   */
  public GraphLaunchImpl(CurrentExec current, Object graph) {
    // Before the op exists: a launch of a closed graph is refused, and leaves no op to report.
    current.acquire(graph);
    super();
    this.current = current;
    this.reference = new Reference(current);
    this.cleanable = CudaPlatformImpl.CLEANER.register(this, reference);
  }

  /**
   * Replays the graph's current exec on the execution's stream. The launch executes once, so its
   * share goes to the execution first, whatever happens next: the exec current now is held until
   * the launched work is done, or released with the execution when the launch fails (wrong device,
   * inside a capture).
   */
  public void launchOn(Execution ex) {
    if (!reference.handOver()) {
      throw new IllegalStateException(this + " was released before it executed");
    }
    // Unregistered now, so neither the collector nor the cleaner thread ever handles this launch.
    cleanable.clean();
    GraphExecHandle handle;
    try {
      handle = current.acquireCurrent();
    } finally {
      current.release();
    }
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
    handle.launch(ex.driver, ex.stream);
    event.end();
    if (event.shouldCommit()) {
      event.graph = handle.exec.toString();
      event.commit();
    }
  }

  @Override
  public String toString() {
    return "GraphLaunch[" + current.handle().exec + "]";
  }
}
