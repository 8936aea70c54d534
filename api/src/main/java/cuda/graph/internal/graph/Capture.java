package cuda.graph.internal.graph;

import cuda.graph.CaptureMode;
import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.GraphCaptureException;
import cuda.graph.Stream;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.internal.runtime.TranslatingDriver;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The capture protocol shared by {@code CudaGraph.capture} and {@code CudaGraph.scope}: begin,
 * record, end on every path, instantiate, upload; whatever fails, no graph or exec is leaked and
 * the stream leaves capture mode.
 */
final class Capture {

  private Capture() {}

  /** What the capture does between begin and end: records work through an execution. */
  private record Recording<T extends @Nullable Object>(
      CaptureMode mode, String what, Function<Execution, T> record) {}

  static <T extends @Nullable Object> CudaGraph<T> run(
      Stream stream, CaptureMode mode, String what, Function<Execution, T> record) {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(mode, "mode");
    Object activity =
        new Object() {
          @Override
          public String toString() {
            return what;
          }
        };
    return Executor.onStream(
        activity, stream, new Recording<>(mode, what, record), Capture::deferringReleases);
  }

  /** Frees requested while the capture runs would invalidate it: the release queue defers them. */
  private static <T extends @Nullable Object> CudaGraph<T> deferringReleases(
      StreamImpl stream, Recording<T> recording) {
    var releases = stream.device().platform().releases();
    releases.captureStarted();
    try {
      return captureOn(stream, recording.mode(), recording.what(), recording.record());
    } finally {
      releases.captureEnded();
    }
  }

  private static <T extends @Nullable Object> CudaGraph<T> captureOn(
      StreamImpl stream, CaptureMode mode, String what, Function<Execution, T> record) {
    DeviceImpl device = stream.device();
    TranslatingDriver driver = device.platform().driver();
    driver.streamBeginCapture(stream.handle(), driverMode(mode));
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
        throw new GraphCaptureException(
            "cuStreamEndCapture reported success but returned no graph for " + what, null);
      }
      GraphExecHandle handle = instantiate(driver, device, stream, graph, execution);
      kept = true;
      return new CudaGraphImpl<>(stream, handle, output);
    } finally {
      if (!kept) {
        // Nothing ran during capture: the leases can go at once.
        execution.finish();
      }
    }
  }

  private static cuda.graph.spi.CaptureMode driverMode(CaptureMode mode) {
    return switch (mode) {
      case GLOBAL -> cuda.graph.spi.CaptureMode.GLOBAL;
      case THREAD_LOCAL -> cuda.graph.spi.CaptureMode.THREAD_LOCAL;
      case RELAXED -> cuda.graph.spi.CaptureMode.RELAXED;
    };
  }

  /**
   * Ends the capture whatever happened, so the stream leaves capture mode. On a failing path the
   * graph is destroyed and null returned; a failure to end is attached to the op's failure, or
   * thrown when the op succeeded.
   */
  private static @Nullable CuGraph end(
      TranslatingDriver driver, StreamImpl stream, @Nullable Throwable failure) {
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
  private static void leaveCaptureMode(
      TranslatingDriver driver, StreamImpl stream, CudaDriverError endFailure) {
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
      TranslatingDriver driver,
      DeviceImpl device,
      StreamImpl stream,
      CuGraph graph,
      Execution execution) {
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
