// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphInstantiateFlags;
import cuda.graph.spi.GraphNodeType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Graphs and execs: instantiate, upload, launch, update, destroy, introspection (§4). */
final class GraphCalls {

  private static final long KNOWN_FLAGS =
      GraphInstantiateFlags.AUTO_FREE_ON_LAUNCH
          | GraphInstantiateFlags.DEVICE_LAUNCH
          | GraphInstantiateFlags.USE_NODE_PRIORITY;

  private final SimState state;

  GraphCalls(SimState state) {
    this.state = state;
  }

  CuGraph create(int flags) {
    DriverCall call = DriverCall.GRAPH_CREATE;
    SimContext context = state.currentContext(call);
    if (flags != 0) {
      throw invalid(call, "cuGraphCreate flags must be 0, got " + flags);
    }
    SimGraph graph = new SimGraph(context);
    graph.handle = new CuGraph(state.register(graph, context));
    return graph.handle;
  }

  void destroy(CuGraph handle) {
    DriverCall call = DriverCall.GRAPH_DESTROY;
    SimGraph graph = state.resolve(handle, SimGraph.class, call);
    if (graph.capturing != null) {
      throw SimState.undefined(
          call.symbol()
              + " was passed "
              + handle
              + ", the graph of "
              + graph.capturing
              + ", which the caller does not own until the capture ends");
    }
    CaptureSequence bodyCapture = captureIntoBody(graph);
    if (bodyCapture != null) {
      throw SimState.undefined(
          call.symbol()
              + " was passed "
              + handle
              + ", a body of which is being captured into ("
              + bodyCapture
              + "); the capture would go on adding nodes to a destroyed graph");
    }
    if (graph.owner != null) {
      throw SimState.undefined(
          call.symbol()
              + " was passed "
              + handle
              + ", a body of conditional node "
              + graph.owner.handle
              + ", which that node owns; it is destroyed with the graph holding the node");
    }
    state.destroyGraph(
        graph,
        "was destroyed by cuGraphDestroy",
        "belonged to a graph destroyed by cuGraphDestroy");
  }

  /** A capture filling a body of one of the graph's conditional nodes, at any depth, or null. */
  private static @Nullable CaptureSequence captureIntoBody(SimGraph graph) {
    for (Node node : graph.nodes) {
      if (node.op instanceof Op.Conditional conditional) {
        for (SimGraph body : conditional.bodies()) {
          CaptureSequence capture = body.capturing != null ? body.capturing : captureIntoBody(body);
          if (capture != null) {
            return capture;
          }
        }
      }
    }
    return null;
  }

  CuGraphExec instantiate(CuGraph handle, long flags) {
    DriverCall call = DriverCall.GRAPH_INSTANTIATE;
    SimGraph graph = state.resolve(handle, SimGraph.class, call);
    state.checkSticky(graph.context, call);
    if (graph.capturing != null) {
      graph.capturing.invalidate();
      throw fail(
          CuResult.STREAM_CAPTURE_UNSUPPORTED,
          call,
          handle
              + " is still being captured ("
              + graph.capturing
              + "); the capture is invalidated");
    }
    if ((flags & GraphInstantiateFlags.UPLOAD) != 0) {
      throw invalid(
          call,
          "CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD is accepted only by cuGraphInstantiateWithParams");
    }
    if ((flags & ~KNOWN_FLAGS) != 0) {
      throw invalid(call, "unknown instantiate flags 0x" + Long.toHexString(flags));
    }
    if ((flags & GraphInstantiateFlags.AUTO_FREE_ON_LAUNCH) != 0
        && (flags & GraphInstantiateFlags.DEVICE_LAUNCH) != 0) {
      throw invalid(call, "AUTO_FREE_ON_LAUNCH and DEVICE_LAUNCH cannot be combined");
    }
    BodyRules.check(graph, call);
    if (graph.hasMemoryNodes() && graph.liveExecs > 0) {
      throw fail(
          CuResult.NOT_SUPPORTED,
          call,
          "a graph with memory nodes can have only one live exec at a time");
    }
    SimExec exec = new SimExec(graph.context, graph, flags);
    exec.handle = new CuGraphExec(state.register(exec, graph.context));
    graph.liveExecs++;
    return exec.handle;
  }

  void upload(CuGraphExec handle, CuStream streamHandle) {
    DriverCall call = DriverCall.GRAPH_UPLOAD;
    SimExec exec = state.resolve(handle, SimExec.class, call);
    SimStream stream = state.stream(streamHandle, call);
    checkLaunchable(stream, call);
    exec.lastLaunch =
        state.enqueue(stream, new Op.Empty("upload " + handle), List.of(exec.lastLaunch)).done;
    if (exec.ownsMemoryNodes) {
      stream.context.device.graphMemory.upload(stream, exec, exec.lastLaunch);
    }
  }

  void launch(CuGraphExec handle, CuStream streamHandle) {
    DriverCall call = DriverCall.GRAPH_LAUNCH;
    SimExec exec = state.resolve(handle, SimExec.class, call);
    SimStream stream = state.stream(streamHandle, call);
    checkLaunchable(stream, call);
    boolean autoFree = (exec.flags & GraphInstantiateFlags.AUTO_FREE_ON_LAUNCH) != 0;
    List<Allocation> freedFirst = new ArrayList<>();
    for (Allocation a : exec.unfreedAllocations) {
      if (a.outstanding) {
        if (!autoFree) {
          throw invalid(
              call,
              "the previous launch's graph allocation "
                  + a
                  + " was never freed; free it (cuMemFreeAsync)"
                  + " or instantiate with AUTO_FREE_ON_LAUNCH");
        }
        freedFirst.add(a);
      }
    }
    for (Allocation a : exec.unfreedAllocations) {
      a.outstanding = true;
    }
    List<Op> ops = exec.ops;
    List<Completion> prerequisites = new ArrayList<>();
    prerequisites.add(exec.lastLaunch);
    for (Op op : ExecTree.withChildren(ops)) {
      if (op instanceof Op.WaitEvent w && w.event().recorded != null) {
        prerequisites.add(w.event().recorded);
      }
    }
    Command command =
        state.enqueue(
            stream,
            new Op.GraphRun(
                exec, DisabledMemsets.runOrder(exec.source, ops), List.copyOf(freedFirst)),
            prerequisites);
    exec.lastLaunch = command.done;
    if (exec.ownsMemoryNodes) {
      stream.context.device.graphMemory.launch(stream, exec, freedFirst, command.done);
    }
    for (Op op : ExecTree.withChildren(ops)) {
      if (op instanceof Op.RecordEvent r) {
        r.event().recorded = command.done;
        r.event().capture = null;
      }
    }
  }

  private void checkLaunchable(SimStream stream, DriverCall call) {
    state.checkSticky(stream.context, call);
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, true);
    }
    if (stream.capture != null) {
      stream.capture.invalidate();
      throw fail(
          CuResult.STREAM_CAPTURE_UNSUPPORTED,
          call,
          stream
              + " is capturing ("
              + stream.capture
              + "); an exec cannot be launched into a capture; the capture is invalidated");
    }
  }

  void destroyExec(CuGraphExec handle) {
    SimExec exec = state.resolve(handle, SimExec.class, DriverCall.GRAPH_EXEC_DESTROY);
    // A launch in flight keeps its own op list and completes; the handle is gone at once.
    exec.destroyed = true;
    exec.source.liveExecs--;
    state.unregister(handle, exec, exec.context, "was destroyed by cuGraphExecDestroy");
  }

  void update(CuGraphExec execHandle, CuGraph graphHandle) {
    DriverCall call = DriverCall.GRAPH_EXEC_UPDATE;
    SimExec exec = state.resolve(execHandle, SimExec.class, call);
    SimGraph graph = state.resolve(graphHandle, SimGraph.class, call);
    state.checkSticky(exec.context, call);
    exec.ops = ExecUpdate.apply(exec.shape, exec.ops, graph, null);
  }

  List<CuGraphNode> nodes(CuGraph handle) {
    SimGraph graph = state.resolve(handle, SimGraph.class, DriverCall.GRAPH_GET_NODES);
    List<CuGraphNode> nodes = new ArrayList<>();
    for (Node n : graph.nodes) {
      nodes.add(n.handle);
    }
    return nodes;
  }

  GraphNodeType nodeType(CuGraphNode handle) {
    return state.resolve(handle, Node.class, DriverCall.GRAPH_NODE_GET_TYPE).op.type();
  }

  void dot(CuGraph handle, Path path, int flags) {
    DriverCall call = DriverCall.GRAPH_DEBUG_DOT_PRINT;
    SimGraph graph = state.resolve(handle, SimGraph.class, call);
    try {
      Files.writeString(path, DotWriter.render(graph));
    } catch (IOException e) {
      throw fail(CuResult.OPERATING_SYSTEM, call, "cannot write " + path + ": " + e.getMessage());
    }
  }
}
