// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

/**
 * The exec a {@link cuda.graph.CudaGraph} replays now, shared by the graph and by every launch it
 * handed out that has not executed yet. A recapture that instantiates anew swaps the handle; a
 * launch takes whichever handle is current when it executes, so it replays the same capture whether
 * the last change was applied in place or by a new instantiation.
 *
 * <p>The graph holds the owner's share ({@link #run()} gives it up: {@code close()} or the
 * cleaner), each pending launch one more; the current handle's owner share is closed once the last
 * of them lets go, and a replaced handle's as soon as it is replaced. Thread-safe; not a lambda, so
 * the cleaner that runs it holds no reference to the graph.
 */
public final class CurrentExec implements Runnable {

  private volatile GraphExecHandle handle;
  private final RefCount shares = new RefCount(this::end);

  public CurrentExec(GraphExecHandle handle) {
    this.handle = handle;
  }

  /** {@return the handle current now}; it may be replaced at any moment by a recapture */
  public GraphExecHandle handle() {
    return handle;
  }

  /**
   * Makes {@code next} current and gives up the graph's share of the handle it replaces: launches
   * in flight of that one keep it alive until they are done. Called with the graph's changes
   * serialized.
   */
  public void replace(GraphExecHandle next) {
    GraphExecHandle previous = handle;
    handle = next;
    previous.lifetime.closeOwner();
  }

  /** Takes a share for a launch; fails, naming {@code graph}, once the graph is closed. */
  public void acquire(Object graph) {
    shares.acquire(graph);
  }

  /** Gives back a share a launch took and did not hand over to an execution. */
  public void release() {
    shares.release();
  }

  /**
   * {@return the current handle, with a share of its lifetime taken} The caller holds a share of
   * this object, so the current handle is alive; a recapture may swap it meanwhile, then the new
   * one is taken.
   */
  public GraphExecHandle acquireCurrent() {
    while (true) {
      GraphExecHandle h = handle;
      if (h.lifetime.tryAcquire()) {
        return h;
      }
      Thread.onSpinWait(); // replaced between the read and the acquire: read the new one
    }
  }

  /** Gives up the graph's share: by {@code close()}, or by the cleaner for a dropped graph. */
  @Override
  public void run() {
    shares.closeOwner();
  }

  /**
   * {@return whether a launch handed out is pending or executing}: it holds a share of this object,
   * or an execution holds one of the current handle until its work is done
   */
  public boolean inFlight() {
    return shares.isInUse() || handle.lifetime.isInUse();
  }

  /** {@return whether the graph gave up its share} */
  public boolean isClosed() {
    return shares.isClosed();
  }

  private void end() {
    handle.lifetime.closeOwner();
  }
}
