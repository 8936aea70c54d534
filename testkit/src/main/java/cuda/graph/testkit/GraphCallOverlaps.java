// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.support.ForwardingCudaDriver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * A decorator that counts calls on one graph object ({@code CUgraph} or {@code CUgraphExec}) that
 * overlap in time: CUDA guarantees no pair of calls on the same graph object to be safe from two
 * threads without serialization, so a correct caller makes none. Each call that takes a graph or an
 * exec marks it busy for the call's duration; a call that finds the object already busy is counted
 * in {@link #overlaps()} and described in {@link #firstOverlaps()}. The calls themselves pass
 * through unchanged (the wrapped driver still sees the overlap). Thread-safe.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class GraphCallOverlaps extends ForwardingCudaDriver {

  private static final int KEPT = 8;

  private final ConcurrentHashMap<CuHandle, AtomicInteger> busy = new ConcurrentHashMap<>();
  private final AtomicLong overlaps = new AtomicLong();
  private final List<String> first = new ArrayList<>();

  /**
   * Wraps a driver, which the decorator owns from now on: {@link #close()} closes it.
   *
   * @param delegate the driver whose graph calls are watched
   */
  public GraphCallOverlaps(CudaDriver delegate) {
    super(delegate);
  }

  /** {@return how many calls found their graph or exec inside another call so far} */
  public long overlaps() {
    return overlaps.get();
  }

  /** {@return descriptions of the first few overlapping calls (the call and the object)} */
  public List<String> firstOverlaps() {
    synchronized (first) {
      return List.copyOf(first);
    }
  }

  private AtomicInteger enter(CuHandle object, DriverCall call) {
    AtomicInteger inside = busy.computeIfAbsent(object, k -> new AtomicInteger());
    if (inside.getAndIncrement() > 0) {
      overlaps.incrementAndGet();
      synchronized (first) {
        if (first.size() < KEPT) {
          first.add(call.symbol() + " on " + object + " while another call on it ran");
        }
      }
    }
    return inside;
  }

  private <R> R watched(CuHandle object, DriverCall call, Supplier<R> forward) {
    AtomicInteger inside = enter(object, call);
    try {
      return forward.get();
    } finally {
      inside.getAndDecrement();
    }
  }

  private void watched(CuHandle object, DriverCall call, Runnable forward) {
    AtomicInteger inside = enter(object, call);
    try {
      forward.run();
    } finally {
      inside.getAndDecrement();
    }
  }

  /**
   * A destroy must not overlap a call on the object either, but it is not marked busy while it
   * runs: the driver may hand the value to a new object as soon as the object is gone, before this
   * decorator could mark it idle again, and a call on the new object is no overlap. A call on the
   * object during its destroy is a use after destroy, which the ledger reports. A call that is
   * still marked inside when the destroy comes is given a millisecond to leave (it may have
   * returned already) before it counts as an overlap.
   */
  private void destroying(CuHandle object, DriverCall call, Runnable forward) {
    AtomicInteger inside = busy.remove(object);
    // A call that returned on another thread may not have marked the object idle yet.
    long deadline = System.nanoTime() + 1_000_000;
    while (inside != null && inside.get() > 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    if (inside != null && inside.get() > 0) {
      overlaps.incrementAndGet();
      synchronized (first) {
        if (first.size() < KEPT) {
          first.add(call.symbol() + " on " + object + " while another call on it ran");
        }
      }
    }
    forward.run();
  }

  /**
   * Watched for the call only: the capture it starts adds to the graph until it ends, through the
   * stream's calls, which take no graph; a call on the graph from another thread meanwhile is the
   * caller's error this decorator does not see.
   */
  @Override
  public void streamBeginCaptureToGraph(
      CuStream stream, CuGraph graph, List<CuGraphNode> dependencies, CaptureMode mode) {
    watched(
        graph,
        DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH,
        () -> super.streamBeginCaptureToGraph(stream, graph, dependencies, mode));
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    destroying(graph, DriverCall.GRAPH_DESTROY, () -> super.graphDestroy(graph));
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    return watched(graph, DriverCall.GRAPH_INSTANTIATE, () -> super.graphInstantiate(graph, flags));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    watched(exec, DriverCall.GRAPH_UPLOAD, () -> super.graphUpload(exec, stream));
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    watched(exec, DriverCall.GRAPH_LAUNCH, () -> super.graphLaunch(exec, stream));
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    destroying(exec, DriverCall.GRAPH_EXEC_DESTROY, () -> super.graphExecDestroy(exec));
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    watched(
        exec,
        DriverCall.GRAPH_EXEC_UPDATE,
        () ->
            watched(graph, DriverCall.GRAPH_EXEC_UPDATE, () -> super.graphExecUpdate(exec, graph)));
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    return watched(graph, DriverCall.GRAPH_GET_NODES, () -> super.graphGetNodes(graph));
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    watched(
        graph,
        DriverCall.GRAPH_DEBUG_DOT_PRINT,
        () -> super.graphDebugDotPrint(graph, path, flags));
  }

  @Override
  public void graphExecKernelNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CuFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments) {
    watched(
        exec,
        DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS,
        () ->
            super.graphExecKernelNodeSetParams(
                exec, node, function, grid, block, sharedMemBytes, arguments));
  }

  @Override
  public void graphExecMemcpyNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes) {
    watched(
        exec,
        DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,
        () -> super.graphExecMemcpyNodeSetParams(exec, node, destination, source, bytes));
  }

  @Override
  public void graphExecMemsetNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      long destination,
      int elementSize,
      int value,
      long count) {
    watched(
        exec,
        DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,
        () ->
            super.graphExecMemsetNodeSetParams(exec, node, destination, elementSize, value, count));
  }

  @Override
  public void graphNodeSetEnabled(CuGraphExec exec, CuGraphNode node, boolean enabled) {
    watched(
        exec,
        DriverCall.GRAPH_NODE_SET_ENABLED,
        () -> super.graphNodeSetEnabled(exec, node, enabled));
  }

  @Override
  public boolean graphNodeGetEnabled(CuGraphExec exec, CuGraphNode node) {
    return watched(
        exec, DriverCall.GRAPH_NODE_GET_ENABLED, () -> super.graphNodeGetEnabled(exec, node));
  }

  @Override
  public ConditionalHandle graphConditionalHandleCreate(
      CuGraph graph, int defaultLaunchValue, int flags) {
    return watched(
        graph,
        DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE,
        () -> super.graphConditionalHandleCreate(graph, defaultLaunchValue, flags));
  }

  @Override
  public ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    return watched(
        graph,
        DriverCall.GRAPH_ADD_NODE,
        () -> super.graphAddConditionalNode(graph, dependencies, handle, type, size));
  }

  @Override
  public CuGraphNode graphAddChildGraphNode(
      CuGraph graph, List<CuGraphNode> dependencies, CuGraph child) {
    // The call clones the child: it reads that graph as it adds to the other.
    return watched(
        graph,
        DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE,
        () ->
            watched(
                child,
                DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE,
                () -> super.graphAddChildGraphNode(graph, dependencies, child)));
  }

  @Override
  public void graphExecChildGraphNodeSetParams(CuGraphExec exec, CuGraphNode node, CuGraph child) {
    watched(
        exec,
        DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,
        () ->
            watched(
                child,
                DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,
                () -> super.graphExecChildGraphNodeSetParams(exec, node, child)));
  }
}
