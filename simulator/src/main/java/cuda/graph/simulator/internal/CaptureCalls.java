// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Beginning, ending and inspecting stream captures (driver specification §3). */
final class CaptureCalls {

  private final SimState state;

  CaptureCalls(SimState state) {
    this.state = state;
  }

  void begin(CuStream handle, CaptureMode mode) {
    DriverCall call = DriverCall.STREAM_BEGIN_CAPTURE;
    SimStream stream = capturable(handle, call);
    SimGraph graph = new SimGraph(stream.context);
    graph.handle = new CuGraph(state.register(graph, stream.context));
    start(stream, mode, graph, false);
  }

  /**
   * {@code cuStreamBeginCaptureToGraph}: the same capture, into a graph that exists (typically a
   * conditional node's body), its first node depending on {@code dependencies}.
   */
  void beginToGraph(
      CuStream handle, CuGraph graphHandle, List<CuGraphNode> dependencies, CaptureMode mode) {
    DriverCall call = DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH;
    SimStream stream = capturable(handle, call);
    SimGraph graph = state.resolve(graphHandle, SimGraph.class, call);
    if (graph.context != stream.context) {
      throw invalid(call, graphHandle + " and " + stream + " belong to different contexts");
    }
    if (graph.capturing != null) {
      // Assumed ILLEGAL_STATE, as for a stream that is already capturing: two captures cannot
      // append to one graph at once.
      throw fail(
          CuResult.ILLEGAL_STATE,
          call,
          graphHandle + " is already being captured into (" + graph.capturing + ")");
    }
    List<Node> roots = nodesOf(graph, dependencies, call);
    start(stream, mode, graph, true);
    stream.captureDependencies.addAll(roots);
  }

  /** The stream, checked to be one that can begin a capture now. */
  private SimStream capturable(CuStream handle, DriverCall call) {
    SimStream stream = state.stream(handle, call);
    state.checkSticky(stream.context, call);
    if (stream.kind == SimStream.Kind.LEGACY) {
      throw fail(
          CuResult.STREAM_CAPTURE_UNSUPPORTED,
          call,
          "the legacy default stream cannot capture; capture on a stream you created");
    }
    if (stream.capture != null) {
      throw fail(
          CuResult.ILLEGAL_STATE, call, stream + " is already capturing (" + stream.capture + ")");
    }
    return stream;
  }

  private void start(SimStream stream, CaptureMode mode, SimGraph graph, boolean existing) {
    CaptureSequence capture =
        new CaptureSequence(
            state.nextCaptureId++, stream, mode, Thread.currentThread(), graph, existing);
    graph.capturing = capture;
    stream.capture = capture;
    stream.captureDependencies.clear();
    state.captures.add(capture);
  }

  /** The nodes named by {@code handles}, each of which must belong to {@code graph}. */
  private List<Node> nodesOf(SimGraph graph, List<CuGraphNode> handles, DriverCall call) {
    List<Node> nodes = new ArrayList<>();
    for (CuGraphNode h : handles) {
      Node node = state.resolve(h, Node.class, call);
      if (node.graph != graph) {
        throw invalid(call, h + " is not a node of " + graph.handle);
      }
      nodes.add(node);
    }
    return nodes;
  }

  /**
   * {@code cuStreamUpdateCaptureDependencies_v2}: replaces ({@code SET}) or extends ({@code ADD})
   * what the stream's next captured node depends on.
   */
  void updateDependencies(CuStream handle, List<CuGraphNode> dependencies, int flags) {
    DriverCall call = DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES;
    SimStream stream = state.stream(handle, call);
    if (flags != CudaDriver.ADD_CAPTURE_DEPENDENCIES
        && flags != CudaDriver.SET_CAPTURE_DEPENDENCIES) {
      throw invalid(
          call,
          "flags are CU_STREAM_ADD_CAPTURE_DEPENDENCIES (0) or CU_STREAM_SET_CAPTURE_DEPENDENCIES"
              + " (1), got "
              + flags);
    }
    CaptureSequence capture = stream.capture;
    if (capture == null) {
      throw fail(CuResult.ILLEGAL_STATE, call, stream + " is not capturing");
    }
    SimState.checkNotInvalidated(stream, call);
    List<Node> nodes = nodesOf(capture.graph, dependencies, call);
    if (flags == CudaDriver.SET_CAPTURE_DEPENDENCIES) {
      stream.captureDependencies.clear();
    }
    stream.captureDependencies.addAll(nodes);
  }

  @Nullable CuGraph end(CuStream handle) {
    DriverCall call = DriverCall.STREAM_END_CAPTURE;
    SimStream stream = state.stream(handle, call);
    CaptureSequence capture = stream.capture;
    if (capture == null) {
      throw fail(CuResult.ILLEGAL_STATE, call, stream + " is not capturing");
    }
    if (capture.origin != stream) {
      capture.invalidate();
      throw fail(
          CuResult.STREAM_CAPTURE_UNMATCHED,
          call,
          capture
              + " must be ended on the stream it began on, not on "
              + stream
              + "; the capture is invalidated");
    }
    if (capture.mode != CaptureMode.RELAXED && capture.thread != Thread.currentThread()) {
      finish(capture, false);
      throw fail(
          CuResult.STREAM_CAPTURE_WRONG_THREAD,
          call,
          capture
              + " was begun by thread "
              + capture.thread.getName()
              + " and can only be ended there; its work is discarded");
    }
    if (capture.status == CaptureStatus.INVALIDATED) {
      finish(capture, false);
      throw fail(
          CuResult.STREAM_CAPTURE_INVALIDATED,
          call,
          capture + " was invalidated by an earlier call; no graph is produced");
    }
    SimStream unjoined = unjoinedMember(capture);
    if (unjoined != null) {
      finish(capture, false);
      throw fail(
          CuResult.STREAM_CAPTURE_UNJOINED,
          call,
          unjoined
              + " forked from "
              + capture
              + " has work that was not joined back into "
              + stream
              + " (record an event on it and wait on that event in "
              + stream
              + " before ending the capture)");
    }
    finish(capture, true);
    // A capture into an existing graph returns that graph; its owner stays its owner.
    return capture.graph.handle;
  }

  private void finish(CaptureSequence capture, boolean handOut) {
    state.endCapture(capture);
    if (!handOut) {
      state.discardCapturedWork(capture);
    }
  }

  /** A member stream whose dependencies are not all ancestors of the origin's, or null. */
  private static @Nullable SimStream unjoinedMember(CaptureSequence capture) {
    Set<Node> joined = ancestors(capture.origin.captureDependencies);
    for (SimStream member : capture.members) {
      if (member != capture.origin && !joined.containsAll(member.captureDependencies)) {
        return member;
      }
    }
    return null;
  }

  private static Set<Node> ancestors(Set<Node> roots) {
    Set<Node> seen = new HashSet<>(roots);
    Deque<Node> work = new ArrayDeque<>(roots);
    while (!work.isEmpty()) {
      for (Node dependency : work.pop().dependencies) {
        if (seen.add(dependency)) {
          work.push(dependency);
        }
      }
    }
    return seen;
  }

  CaptureStatus isCapturing(CuStream handle) {
    DriverCall call = DriverCall.STREAM_IS_CAPTURING;
    SimStream stream = state.stream(handle, call);
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, false);
    }
    return EventCalls.statusOf(stream);
  }

  CaptureInfo info(CuStream handle) {
    DriverCall call = DriverCall.STREAM_GET_CAPTURE_INFO;
    SimStream stream = state.stream(handle, call);
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, false);
    }
    CaptureSequence capture = stream.capture;
    if (capture == null) {
      return new CaptureInfo(CaptureStatus.NONE, 0, null, List.of());
    }
    if (capture.status != CaptureStatus.ACTIVE) {
      return new CaptureInfo(capture.status, 0, null, List.of());
    }
    List<CuGraphNode> dependencies = new ArrayList<>();
    for (Node n : stream.captureDependencies) {
      dependencies.add(n.handle);
    }
    return new CaptureInfo(CaptureStatus.ACTIVE, capture.id, capture.graph.handle, dependencies);
  }

  CaptureMode exchangeMode(CaptureMode mode) {
    state.requireInit(DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE);
    CaptureMode previous = state.threadMode.get();
    state.threadMode.set(mode);
    return previous;
  }
}
