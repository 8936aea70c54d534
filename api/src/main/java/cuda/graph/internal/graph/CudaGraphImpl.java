package cuda.graph.internal.graph;

import cuda.graph.CaptureMode;
import cuda.graph.CudaGraph;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.ScopeBody;
import cuda.graph.Stream;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.exec.GraphLaunchImpl;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.spi.CuGraph;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link CudaGraph}: the capture's stream, the shared exec handle and the
 * output taken once.
 */
public final class CudaGraphImpl<T extends @Nullable Object> implements CudaGraph<T> {

  private final StreamImpl stream;
  private final GraphExecHandle handle;
  private final Object outputLock = new Object();
  private @Nullable T output;
  private boolean outputTaken;
  private boolean closed;

  /** What the work of an update failed with after it was enqueued, until reported. */
  private final AtomicReference<@Nullable Throwable> failedUpdate = new AtomicReference<>();

  CudaGraphImpl(StreamImpl stream, GraphExecHandle handle, @Nullable T output) {
    this.stream = stream;
    this.handle = handle;
    this.output = output;
    // An unreachable graph gives up its share, so its exec goes once no launch needs it.
    CudaPlatformImpl.CLEANER.register(this, new ShareCloser(handle.lifetime));
  }

  /** Closes a graph's share once; not a lambda, so the cleaner holds no reference to the graph. */
  private record ShareCloser(RefCount lifetime) implements Runnable {
    @Override
    public void run() {
      lifetime.closeOwner();
    }
  }

  /** See {@link CudaGraph#capture(Stream, CaptureMode, DeviceOp)}. */
  public static <T extends @Nullable Object> CudaGraph<T> capture(
      Stream stream, CaptureMode mode, DeviceOp<T> op) {
    Objects.requireNonNull(op, "op");
    return Capture.run(
        stream, mode, "capture of " + op, execution -> Executor.execute(op, execution));
  }

  /** See {@link CudaGraph#scope}. */
  public static CudaGraph<@Nullable Void> scope(Stream stream, ScopeBody body) {
    Objects.requireNonNull(body, "body");
    return Capture.run(
        stream,
        CaptureMode.RELAXED,
        "scope capture",
        execution -> {
          ScopeImpl scope = new ScopeImpl(execution);
          try {
            body.record(scope);
          } finally {
            scope.close();
          }
          return null;
        });
  }

  @Override
  public T takeOutput() {
    synchronized (outputLock) {
      if (outputTaken) {
        throw new IllegalStateException("the output of " + this + " was already taken");
      }
      outputTaken = true;
      T taken = output;
      output = null;
      return taken;
    }
  }

  @Override
  public void update(GraphNode<@Nullable Void> node) {
    Objects.requireNonNull(node, "node");
    synchronized (outputLock) {
      if (closed) {
        throw new IllegalStateException(
            "cannot update "
                + this
                + ": the graph is closed, so no launch of it would see the update; update a graph"
                + " only before closing it");
      }
    }
    reportFailedUpdate();
    Executor.onStream(this, stream, new Update(this, node), CudaGraphImpl::enqueueUpdate);
  }

  private record Update(CudaGraphImpl<?> graph, GraphNode<@Nullable Void> node) {}

  /**
   * Enqueues an update; its leases are released when its work completes, and a failure the driver
   * reports then is kept for the graph's next update or launch.
   */
  private static @Nullable Void enqueueUpdate(StreamImpl stream, Update update) {
    Execution execution = new Execution(stream, null);
    var completions = stream.device().platform().completions();
    try {
      Executor.execute(update.node(), execution);
    } catch (RuntimeException | Error e) {
      Throwable unobservable = completions.releaseWhenDone(execution, null);
      if (unobservable != null) {
        e.addSuppressed(unobservable);
      }
      throw e;
    }
    Throwable unobservable = completions.releaseWhenDone(execution, update.graph()::updateFailed);
    if (unobservable instanceof RuntimeException e) {
      throw e; // no completion event: the work was waited for, and the update reports why
    }
    if (unobservable instanceof Error e) {
      throw e;
    }
    return null;
  }

  /** The work of an update failed after it was enqueued: remembered, reported once. */
  private void updateFailed(Throwable failure) {
    failedUpdate.compareAndSet(null, failure);
  }

  /** Throws (once) what an earlier update's work failed with after it was enqueued. */
  private void reportFailedUpdate() {
    Throwable failure = failedUpdate.getAndSet(null);
    if (failure != null) {
      throw new IllegalStateException(
          "an earlier update of "
              + this
              + " failed after it was enqueued ("
              + failure.getMessage()
              + "), so the graph's input may not be what it was given",
          failure);
    }
  }

  @Override
  public GraphLaunchImpl launch() {
    reportFailedUpdate();
    return new GraphLaunchImpl(handle);
  }

  @Override
  public StreamImpl stream() {
    return stream;
  }

  @Override
  public int nodeCount() {
    return withGraph(g -> handle.device.platform().driver().graphGetNodes(g).size());
  }

  @Override
  public void writeDot(Path path) {
    Objects.requireNonNull(path, "path");
    withGraph(
        g -> {
          handle.device.platform().driver().graphDebugDotPrint(g, path, 0);
          return null;
        });
  }

  private <R> R withGraph(Function<CuGraph, R> action) {
    handle.lifetime.acquire(this);
    try {
      handle.device.bind();
      return action.apply(handle.graph);
    } finally {
      handle.lifetime.release();
    }
  }

  @Override
  public void close() {
    synchronized (outputLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    handle.lifetime.closeOwner();
  }

  @Override
  public boolean isClosed() {
    return handle.lifetime.isClosed();
  }

  @Override
  public String toString() {
    return "CudaGraph[" + handle.exec + " on " + stream + "]";
  }
}
