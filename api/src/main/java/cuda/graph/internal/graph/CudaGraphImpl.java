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
    Executor.onStream(this, stream, node, CudaGraphImpl::enqueueUpdate);
  }

  /**
   * Enqueues an update; its leases are released when its work completes, as for a future nobody
   * awaits.
   */
  private static @Nullable Void enqueueUpdate(StreamImpl stream, GraphNode<@Nullable Void> node) {
    Execution execution = new Execution(stream, null);
    Throwable failure = null;
    try {
      Executor.execute(node, execution);
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    stream.device().platform().completions().submit(execution, null, failure);
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return null;
  }

  @Override
  public GraphLaunchImpl launch() {
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
