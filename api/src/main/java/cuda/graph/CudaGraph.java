package cuda.graph;

import cuda.graph.internal.ExecutionLock;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CaptureStatus;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A captured and instantiated CUDA graph, replayed with one driver call per {@link #launch()}.
 *
 * <p><b>Capture.</b> {@link #capture} runs an op once on a stream in capture mode: its GPU work is
 * recorded, not executed, then the graph is instantiated, uploaded and the stream synchronized.
 * Capture holds the execution lock (nested execution fails) and ends the capture on every path:
 * success, a driver error, a {@code RuntimeException} or an {@code Error} inside the op. Whatever
 * fails, no graph or exec handle is leaked and the stream is left out of capture mode and usable.
 * Allocating, freeing or staging inside a capture fails with {@link GraphCaptureException}:
 * allocate every buffer before capturing; the graph replays into the same addresses.
 *
 * <p><b>Output.</b> {@link #takeOutput()} returns what the op produced during capture: handles
 * (buffers, values), not computed data. The data behind them is first computed by a launch: read
 * it after {@code graph.launch().syncOn(graph.stream())}.
 *
 * <p><b>Lifetimes.</b> The instantiated graph is owned jointly by this object and every {@link
 * GraphLaunch} it handed out; {@link #close()} gives up this object's share, and the exec is
 * destroyed once the last launch's work is done. Buffers used by the captured work stay allocated
 * as long as the graph, even if closed earlier. Frees requested while any capture is in progress
 * are deferred until it ends, so they cannot invalidate it.
 *
 * <p><b>Updates.</b> {@link #update} enqueues a graph node (typically a copy of new input into a
 * buffer the graph reads) on {@link #stream()}: it is ordered before a launch executed on that
 * same stream. {@link Module} packages that protocol so it cannot be used out of order.
 *
 * <p>Thread-safe, except that {@link #takeOutput()} hands the output out once.
 *
 * @param <T> the type of the captured op's output
 */
public final class CudaGraph<T extends @Nullable Object> implements AutoCloseable {

  private final Stream stream;
  private final GraphExecHandle handle;
  private final Object outputLock = new Object();
  private @Nullable T output;
  private boolean outputTaken;
  private boolean closed;

  private CudaGraph(Stream stream, GraphExecHandle handle, @Nullable T output) {
    this.stream = stream;
    this.handle = handle;
    this.output = output;
    // An unreachable graph gives up its share, so its exec goes once no launch needs it.
    RefCountCloser share = new RefCountCloser(handle.lifetime);
    CudaPlatform.CLEANER.register(this, share);
  }

  /** Closes a graph's share once; not a lambda, so the cleaner holds no reference to the graph. */
  private record RefCountCloser(cuda.graph.internal.RefCount lifetime) implements Runnable {
    @Override
    public void run() {
      lifetime.closeOwner();
    }
  }

  /** Captures {@code op} on {@code stream} in {@link CaptureMode#RELAXED} mode; see the class doc. */
  public static <T extends @Nullable Object> CudaGraph<T> capture(Stream stream, DeviceOp<T> op) {
    return capture(stream, CaptureMode.RELAXED, op);
  }

  /**
   * Captures {@code op} on {@code stream} in the given mode.
   *
   * @throws CudaDriverError if a driver step fails (the op's own failure wins over a failure to end
   *     the capture, which is attached as suppressed)
   * @throws GraphCaptureException if the op allocates, frees or stages memory, or the driver ends
   *     the capture without a graph
   * @throws ReentrantExecutionException if this thread is already executing or capturing
   */
  public static <T extends @Nullable Object> CudaGraph<T> capture(Stream stream, CaptureMode mode, DeviceOp<T> op) {
    Objects.requireNonNull(op, "op");
    return Capture.run(stream, mode, "capture of " + op, execution -> Executor.execute(op, execution));
  }

  /**
   * Captures what {@code body} records with {@link Scope#record} on {@code stream}, in relaxed
   * mode; {@code body}'s exceptions propagate after the capture has been ended.
   */
  public static CudaGraph<@Nullable Void> scope(Stream stream, ScopeBody body) {
    Objects.requireNonNull(body, "body");
    return Capture.run(stream, CaptureMode.RELAXED, "scope capture", execution -> {
      Scope scope = new Scope(execution);
      try {
        body.record(scope);
      } finally {
        scope.close();
      }
      return null;
    });
  }

  /**
   * {@return the op's output from capture}: handles whose data is computed by launches. Returns
   * it once; later calls fail.
   *
   * @throws IllegalStateException if the output was already taken
   */
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

  /**
   * Enqueues {@code node} on the graph's {@link #stream()} now, without waiting: typically a copy
   * of new input into a buffer the graph reads. It is ordered before any launch later executed on
   * the same stream (and after earlier ones). Takes the execution lock.
   */
  public void update(GraphNode<@Nullable Void> node) {
    Objects.requireNonNull(node, "node");
    Executor.acquireLock(this);
    try {
      stream.acquire();
      try {
        stream.device().bind();
        Execution execution = new Execution(stream, null);
        Throwable failure = null;
        try {
          Executor.execute(node, execution);
        } catch (RuntimeException | Error e) {
          failure = e;
        }
        // The update's leases are released when its work completes, as for a future nobody awaits.
        stream.device().platform().completions().submit(execution, null, failure);
        if (failure instanceof RuntimeException e) {
          throw e;
        }
        if (failure instanceof Error e) {
          throw e;
        }
      } finally {
        stream.release();
      }
    } finally {
      ExecutionLock.release();
    }
  }

  /**
   * {@return an op that replays the graph on whichever stream executes it}; it shares ownership
   * of the graph, so it stays valid after {@link #close()}
   *
   * @throws IllegalStateException if the graph is closed
   */
  public GraphLaunch launch() {
    return new GraphLaunch(handle);
  }

  /** {@return the stream the graph was captured on, where {@link #update} enqueues} */
  public Stream stream() {
    return stream;
  }

  /** {@return the number of nodes in the graph} */
  public int nodeCount() {
    return withGraph(g -> handle.device.platform().driver().graphGetNodes(g).size());
  }

  /** Writes the graph in Graphviz DOT form to {@code path}. */
  public void writeDot(Path path) {
    withGraph(g -> {
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

  /** Gives up this object's share of the graph; launches already handed out still replay. Idempotent. */
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

  /** {@return whether {@link #close()} was called} */
  public boolean isClosed() {
    return handle.lifetime.isClosed();
  }

  CuGraphExec exec() {
    return handle.exec;
  }

  @Override
  public String toString() {
    return "CudaGraph[" + handle.exec + " on " + stream + "]";
  }

  /** The capture protocol shared by {@link #capture} and {@link #scope}. */
  private static final class Capture {

    private Capture() {}

    static <T extends @Nullable Object> CudaGraph<T> run(
        Stream stream, CaptureMode mode, String what, Function<Execution, T> record) {
      Objects.requireNonNull(stream, "stream");
      Objects.requireNonNull(mode, "mode");
      Executor.acquireLock(new Object() {
        @Override
        public String toString() {
          return what;
        }
      });
      try {
        stream.acquire();
        try {
          CudaPlatform platform = stream.device().platform();
          platform.releases().captureStarted();
          try {
            return captureOn(stream, mode, what, record);
          } finally {
            platform.releases().captureEnded();
          }
        } finally {
          stream.release();
        }
      } finally {
        ExecutionLock.release();
      }
    }

    private static <T extends @Nullable Object> CudaGraph<T> captureOn(
        Stream stream, CaptureMode mode, String what, Function<Execution, T> record) {
      Device device = stream.device();
      TranslatingDriver driver = device.platform().driver();
      device.bind();
      driver.streamBeginCapture(stream.handle(), mode.driverMode());
      Execution execution = new Execution(stream, what + " on " + stream);
      boolean kept = false;
      try {
        T output = null;
        Throwable failure = null;
        try {
          output = record.apply(execution);
        } catch (RuntimeException | Error e) {
          failure = e;
        }
        CuGraph graph = end(driver, stream, failure);
        if (failure instanceof RuntimeException e) {
          throw e;
        }
        if (failure instanceof Error e) {
          throw e;
        }
        if (graph == null) {
          throw new GraphCaptureException("cuStreamEndCapture reported success but returned no graph for " + what, null);
        }
        GraphExecHandle handle = instantiate(driver, device, stream, graph, execution);
        kept = true;
        return new CudaGraph<>(stream, handle, output);
      } finally {
        if (!kept) {
          // Nothing ran during capture: the leases can go at once.
          execution.finish();
        }
      }
    }

    /**
     * Ends the capture whatever happened, so the stream leaves capture mode. On a failing path the
     * graph is destroyed and null returned; a failure to end is attached to the op's failure, or
     * thrown when the op succeeded.
     */
    private static @Nullable CuGraph end(TranslatingDriver driver, Stream stream, @Nullable Throwable failure) {
      CuGraph graph;
      try {
        graph = driver.streamEndCapture(stream.handle());
      } catch (CudaDriverError endFailure) {
        leaveCaptureMode(driver, stream, endFailure);
        if (failure != null) {
          failure.addSuppressed(endFailure);
          return null;
        }
        throw endFailure;
      }
      if (failure != null && graph != null) {
        destroyQuietly(driver, graph, failure);
        return null;
      }
      return graph;
    }

    /** A failed end may leave the stream capturing: end it once more and discard the graph. */
    private static void leaveCaptureMode(TranslatingDriver driver, Stream stream, CudaDriverError endFailure) {
      try {
        if (driver.streamIsCapturing(stream.handle()) != CaptureStatus.NONE) {
          CuGraph leftover = driver.streamEndCapture(stream.handle());
          if (leftover != null) {
            driver.graphDestroy(leftover);
          }
        }
      } catch (CudaDriverError e) {
        endFailure.addSuppressed(e);
      }
    }

    private static GraphExecHandle instantiate(
        TranslatingDriver driver, Device device, Stream stream, CuGraph graph, Execution execution) {
      CuGraphExec exec;
      try {
        exec = driver.graphInstantiate(graph, 0);
      } catch (RuntimeException | Error e) {
        destroyQuietly(driver, graph, e);
        throw e;
      }
      try {
        driver.graphUpload(exec, stream.handle());
        // Drains the upload; the recorded work itself has not run.
        driver.streamSynchronize(stream.handle());
      } catch (RuntimeException | Error e) {
        try {
          driver.graphExecDestroy(exec);
        } catch (CudaDriverError destroyFailure) {
          e.addSuppressed(destroyFailure);
        }
        destroyQuietly(driver, graph, e);
        throw e;
      }
      return new GraphExecHandle(device, graph, exec, execution.transferLeases());
    }

    private static void destroyQuietly(TranslatingDriver driver, CuGraph graph, Throwable primary) {
      try {
        driver.graphDestroy(graph);
      } catch (CudaDriverError e) {
        primary.addSuppressed(e);
      }
    }
  }
}
