// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.CaptureMode;
import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.GraphCaptureException;
import cuda.graph.Stream;
import cuda.graph.internal.events.GraphCaptureEvent;
import cuda.graph.internal.events.GraphInstantiateEvent;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.internal.runtime.TranslatingDriver;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The capture protocol shared by {@code CudaGraph.capture} and {@code CudaGraph.scope}: begin,
 * record, end on every path, instantiate, upload; whatever fails, no graph or exec is leaked and
 * the stream leaves capture mode.
 */
final class Capture {

  private Capture() {}

  /** What the capture does between begin and end: records work through an execution. */
  @FunctionalInterface
  interface Recorder<T extends @Nullable Object> {
    /** Records the work; {@code replaceable} collects the nodes recorded for later replacement. */
    T record(Execution execution, List<RecordedNodeImpl> replaceable);
  }

  /**
   * What becomes of a successful capture (instantiated, or applied to an existing exec), still
   * inside the capture's execution skeleton. It owns {@code captured}: on failure it destroys the
   * graph and releases the leases.
   */
  @FunctionalInterface
  interface Application<T extends @Nullable Object, R> {
    R apply(StreamImpl stream, Captured<T> captured);
  }

  /** A captured graph, the op's output, and the leases of its work. */
  record Captured<T extends @Nullable Object>(
      CuGraph graph,
      @Nullable T output,
      Execution execution,
      List<RecordedNodeImpl> replaceable,
      long captureNanos) {

    /** {@return whether the capture allocated temporaries: its graph has memory nodes} */
    boolean hasTemporaries() {
      return execution.temporaryAddresses().length > 0;
    }

    /** {@return the bytes the capture's temporaries take, as requested} */
    long temporaryBytes() {
      return execution.temporaryBytes();
    }

    /**
     * {@return the leases, split into the replaceable nodes' and the rest}; taken from the capture
     */
    Leases takeLeases() {
      List<RefCount> all = execution.transferLeases();
      if (replaceable.isEmpty()) {
        return new Leases(all, Map.of()); // the common capture: no node is replaceable
      }
      Map<Integer, List<RefCount>> byNode = new HashMap<>();
      boolean[] owned = new boolean[all.size()];
      for (RecordedNodeImpl node : replaceable) {
        byNode.put(node.index, List.copyOf(all.subList(node.leaseFrom, node.leaseTo)));
        for (int i = node.leaseFrom; i < node.leaseTo; i++) {
          owned[i] = true;
        }
      }
      List<RefCount> rest = new ArrayList<>(all.size());
      for (int i = 0; i < all.size(); i++) {
        if (!owned[i]) {
          rest.add(all.get(i));
        }
      }
      return new Leases(rest, byNode);
    }
  }

  /** The leases of a capture: those no replaceable node owns, and each such node's. */
  record Leases(List<RefCount> base, Map<Integer, List<RefCount>> byNode) {
    /** Releases every lease once, whatever fails; failures are added to {@code primary}. */
    void releaseAll(Throwable primary) {
      List<RefCount> all = new ArrayList<>(base);
      byNode.values().forEach(all::addAll);
      for (RefCount lease : all) {
        try {
          lease.release();
        } catch (RuntimeException e) {
          primary.addSuppressed(e);
        }
      }
    }
  }

  private record Recording<T extends @Nullable Object, R>(
      CaptureMode mode, Object what, Recorder<T> record, Application<T, R> application) {}

  /** Captures a new graph and instantiates it ({@code origin}: what records it). */
  static <T extends @Nullable Object> CudaGraph<T> newGraph(
      Stream stream,
      CaptureMode mode,
      CudaGraphImpl.Origin origin,
      Object what,
      Recorder<T> record) {
    return run(
        stream,
        mode,
        what,
        record,
        (s, captured) ->
            CudaGraphImpl.created(s, mode, origin, instantiate(s, captured), captured));
  }

  /** Captures a graph and applies it as {@code application} says. */
  static <T extends @Nullable Object, R> R run(
      Stream stream,
      CaptureMode mode,
      Object what,
      Recorder<T> record,
      Application<T, R> application) {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(mode, "mode");
    Object activity =
        new Object() {
          @Override
          public String toString() {
            return what.toString();
          }
        };
    return Executor.onStream(
        activity,
        stream,
        new Recording<>(mode, what, record, application),
        Capture::deferringReleases);
  }

  /** Frees requested while the capture runs would invalidate it: the release queue defers them. */
  private static <T extends @Nullable Object, R> R deferringReleases(
      StreamImpl stream, Recording<T, R> recording) {
    var releases = stream.device().platform().releases();
    // Work another thread enqueued on the stream meanwhile would be recorded into this graph.
    stream.beginCapture();
    Captured<T> captured;
    try {
      releases.captureStarted();
      try {
        captured = captureOn(stream, recording.mode(), recording.what(), recording.record());
      } finally {
        releases.captureEnded();
      }
    } finally {
      stream.endCapture();
    }
    return recording.application().apply(stream, captured);
  }

  private static <T extends @Nullable Object> Captured<T> captureOn(
      StreamImpl stream, CaptureMode mode, Object what, Recorder<T> record) {
    TranslatingDriver driver = stream.device().platform().driver();
    GraphCaptureEvent event = new GraphCaptureEvent();
    event.begin();
    long began = System.nanoTime();
    driver.streamBeginCapture(stream.handle(), driverMode(mode));
    Execution execution = new Execution(stream, new Described(what, " on ", stream));
    List<RecordedNodeImpl> replaceable = new ArrayList<>();
    boolean kept = false;
    @Nullable CuGraph captured = null;
    try {
      T output = null;
      Throwable failure = null;
      try {
        output = record.record(execution, replaceable);
      } catch (RuntimeException | Error e) {
        failure = e;
      }
      CuGraph graph;
      try {
        graph = end(driver, stream, failure);
      } finally {
        execution.endCapture();
      }
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
      kept = true;
      captured = graph;
      return new Captured<>(graph, output, execution, replaceable, System.nanoTime() - began);
    } finally {
      if (!kept) {
        // Nothing ran during capture: the leases can go at once.
        execution.finish();
      }
      commit(event, driver, stream, what, captured);
    }
  }

  private static void commit(
      GraphCaptureEvent event,
      TranslatingDriver driver,
      StreamImpl stream,
      Object what,
      @Nullable CuGraph graph) {
    event.end();
    if (event.shouldCommit()) {
      event.what = what.toString();
      event.stream = stream.toString();
      event.nodes = graph == null ? -1 : driver.graphGetNodes(graph).size();
      event.commit();
    }
  }

  /**
   * A description joined only when a message or a recording asks for it: a capture is named on
   * every execution of it, and most never need the text.
   */
  record Described(Object first, String between, Object second) {
    @Override
    public String toString() {
      return first + between + second;
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

  /**
   * Destroys a captured graph that is not to be instantiated and releases its leases; {@return
   * {@code reason}}, for the caller to throw, with any failure to destroy added as suppressed
   */
  static RuntimeException discard(
      StreamImpl stream, Captured<?> captured, RuntimeException reason) {
    destroyQuietly(stream.device().platform().driver(), captured.graph(), reason);
    captured.takeLeases().releaseAll(reason);
    return reason;
  }

  /** Instantiates and uploads a captured graph; on failure destroys it and releases its leases. */
  static GraphExecHandle instantiate(StreamImpl stream, Captured<?> captured) {
    return instantiate(stream, captured.graph(), captured.takeLeases());
  }

  /** The same for a graph and leases already taken from their capture. */
  static GraphExecHandle instantiate(StreamImpl stream, CuGraph graph, Leases leases) {
    DeviceImpl device = stream.device();
    TranslatingDriver driver = device.platform().driver();
    GraphInstantiateEvent event = new GraphInstantiateEvent();
    event.begin();
    CuGraphExec exec;
    long began = System.nanoTime();
    long instantiated;
    try {
      exec = driver.graphInstantiate(graph, 0);
      instantiated = System.nanoTime();
    } catch (RuntimeException | Error e) {
      commit(event, driver, graph, false);
      destroyQuietly(driver, graph, e);
      leases.releaseAll(e);
      throw e;
    }
    try {
      driver.graphUpload(exec, stream.handle());
      // Drains the upload; the recorded work itself has not run.
      driver.streamSynchronize(stream.handle());
    } catch (RuntimeException | Error e) {
      commit(event, driver, graph, false);
      try {
        driver.graphExecDestroy(exec);
      } catch (CudaDriverError destroyFailure) {
        e.addSuppressed(destroyFailure);
      }
      destroyQuietly(driver, graph, e);
      leases.releaseAll(e);
      throw e;
    }
    long uploaded = System.nanoTime();
    commit(event, driver, graph, true);
    GraphExecHandle handle =
        new GraphExecHandle(device, graph, exec, leases.base(), leases.byNode());
    handle.instantiateNanos = instantiated - began;
    handle.uploadNanos = uploaded - instantiated;
    return handle;
  }

  private static void commit(
      GraphInstantiateEvent event, TranslatingDriver driver, CuGraph graph, boolean succeeded) {
    event.end();
    if (event.shouldCommit()) {
      event.succeeded = succeeded;
      try {
        event.nodes = driver.graphGetNodes(graph).size();
      } catch (CudaDriverError e) {
        event.nodes = -1; // a sticky error: the event says so, the caller reports the error
      }
      event.commit();
    }
  }

  static void destroyQuietly(TranslatingDriver driver, CuGraph graph, Throwable primary) {
    try {
      driver.graphDestroy(graph);
    } catch (CudaDriverError e) {
      primary.addSuppressed(e);
    }
  }
}
