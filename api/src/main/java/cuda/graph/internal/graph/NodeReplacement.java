// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.internal.events.GraphUpdateEvent;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.kernel.KernelImpl;
import cuda.graph.internal.kernel.KernelLaunchOp;
import cuda.graph.internal.kernel.LaunchArguments;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.ops.FillOp;
import cuda.graph.internal.ops.ForeignNodeOp;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import cuda.graph.internal.runtime.HostBufferImpl;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.KernelArguments;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Gives a recorded node of an exec the parameters of a replacement node: checks that the
 * replacement is of the node's kind (same kernel and kind of launch, copy direction, fill element
 * size; for a foreign node, work that enqueues nodes of the same types, captured into a scratch
 * graph), leases its buffers through an execution, and applies it with the driver's per-node
 * setter. The node's old leases are retired by the handle; on failure (a refusal, or the driver's)
 * the new ones are released and nothing changes. The replacement's kernels may set the conditions
 * of the capture that recorded the node.
 */
final class NodeReplacement {

  private NodeReplacement() {}

  record Request(GraphExecHandle handle, RecordedNodeImpl node, GraphNode<@Nullable Void> by) {}

  static @Nullable Void apply(StreamImpl stream, Request request) {
    Execution ex = Execution.replacingANodeOf(stream, request.node().capture);
    GraphUpdateEvent event = new GraphUpdateEvent();
    event.begin();
    try {
      Runnable change = prepare(request.handle(), request.node(), request.by(), ex);
      request.handle().changeNode(request.node().index, ex, change);
    } catch (RuntimeException | Error e) {
      try {
        ex.finish();
      } catch (RuntimeException releaseFailure) {
        e.addSuppressed(releaseFailure);
      }
      CudaGraphImpl.commitUpdate(
          event, GraphUpdateEvent.NODE_REPLACED, request.handle(), e.getMessage(), false);
      throw e;
    }
    CudaGraphImpl.commitUpdate(
        event,
        GraphUpdateEvent.NODE_REPLACED,
        request.handle(),
        request.node() + " by " + request.by(),
        true);
    return null;
  }

  private static Runnable prepare(
      GraphExecHandle h, RecordedNodeImpl node, GraphNode<@Nullable Void> by, Execution ex) {
    CuGraphNode target = h.node(node.index);
    var driver = ex.driver;
    return switch (by) {
      case KernelLaunchOp k -> {
        boolean programmatic = k.config.programmaticDependentLaunch();
        if (!(node.shape instanceof RecordedNodeImpl.KernelShape shape)
            || k.kernel != shape.kernel()) {
          throw mismatch(node, by, launch(k.kernel, programmatic));
        }
        if (programmatic != shape.programmatic()) {
          throw new IllegalArgumentException(
              "cannot replace "
                  + node
                  + " ("
                  + describe(node)
                  + ") by "
                  + by
                  + ", which is "
                  + launch(k.kernel, programmatic)
                  + ": how a launch depends on the kernel before it is an edge of the instantiated"
                  + " graph (a programmatic edge for a programmatic dependent launch, a full one"
                  + " otherwise), and an exec's edges cannot change in place; replace the node by a"
                  + (shape.programmatic()
                      ? " programmatic dependent launch (withProgrammaticDependentLaunch())"
                      : " plain launch (without withProgrammaticDependentLaunch())")
                  + ", or recapture the graph to change the edge");
        }
        k.claim();
        KernelImpl kernel = KernelImpl.of(k.kernel);
        if (!k.shapeChecked) {
          kernel.checkShape(k.config, ex.device);
        }
        CuFunction function = kernel.function(ex, k.config.sharedMemoryBytes());
        KernelArguments arguments = kernel.argumentBlock();
        LaunchArguments.bind(k, ex, arguments);
        LaunchConfig c = k.config;
        Dim3 grid = new Dim3(c.grid().x(), c.grid().y(), c.grid().z());
        Dim3 block = new Dim3(c.block().x(), c.block().y(), c.block().z());
        // The driver copies the argument values during the call, which runs before the block's
        // reuse.
        yield () ->
            driver.graphExecKernelNodeSetParams(
                h.exec, target, function, grid, block, c.sharedMemoryBytes(), arguments);
      }
      case CopyOp c -> {
        if (!(node.shape instanceof RecordedNodeImpl.CopyShape shape)
            || c.kind != shape.direction()) {
          throw mismatch(node, by, "a copy " + c.kind);
        }
        RecordedNodeImpl.CopyShape replacing = RecordedNodeImpl.CopyShape.of(c);
        if (!replacing.equals(shape)) {
          throw otherMemory(node, by, replacing);
        }
        c.claim();
        CopyEndpoint source = source(c, ex);
        CopyEndpoint destination = destination(c, ex);
        yield () ->
            driver.graphExecMemcpyNodeSetParams(h.exec, target, destination, source, c.bytes);
      }
      case FillOp f -> {
        int size = f.buffer.elementType().byteSize();
        if (!(node.shape instanceof RecordedNodeImpl.FillShape shape)
            || size != shape.elementSize()) {
          throw mismatch(node, by, "a fill of " + size + "-byte elements");
        }
        f.claim();
        long address = ex.use(f.buffer);
        GraphExecHandle.FillParams params = RecordedNodeImpl.FillShape.params(f, address);
        yield () -> {
          // A fill switched off points at scratch memory (GraphExecHandle.switchFill): it takes
          // its new parameters when it is switched on again.
          if (!h.isSwitchedOff(node.index)) {
            driver.graphExecMemsetNodeSetParams(
                h.exec, target, address, size, params.value(), params.count());
          }
          node.fill = params;
        };
      }
      case ForeignNodeOp f -> foreign(h, node, f, ex, target);
      default -> throw mismatch(node, by, "not one kernel launch, copy, fill or foreign node");
    };
  }

  /**
   * Captures the foreign node's work on a lane into a scratch graph, as {@code Scope.recordNode}
   * did, and checks that it enqueued nodes of the recorded types; the change gives the exec's
   * child-graph node the scratch graph's parameters. The scratch graph is destroyed on every path
   * (through the release queue, which logs a failure).
   */
  private static Runnable foreign(
      GraphExecHandle h,
      RecordedNodeImpl node,
      ForeignNodeOp by,
      Execution ex,
      CuGraphNode target) {
    if (!(node.shape instanceof RecordedNodeImpl.ChildShape shape)) {
      throw mismatch(node, by, "a foreign node, recorded as one child-graph node");
    }
    if (!by.name.equals(shape.name())) {
      // The name says what the foreign work is; another name is other work, whatever its nodes.
      throw mismatch(node, by, "the foreign node \"" + by.name + "\"");
    }
    var driver = ex.driver;
    CuGraph scratch = driver.graphCreate(0);
    try {
      LaneCapture.record(
          ex,
          scratch,
          new Capture.Described(by, " replacing ", node),
          lane -> Executor.execute(by, lane));
      List<GraphNodeType> types = ChildGraphs.nodeTypes(driver, scratch);
      if (!types.equals(shape.types())) {
        throw new IllegalArgumentException(
            "cannot replace "
                + node
                + " ("
                + describe(node)
                + ") by "
                + by
                + ", whose work enqueued "
                + describeTypes(types)
                + ": a child-graph node takes only the parameters of a graph of the same shape;"
                + " record a foreign call that enqueues the same work, e.g. a matmul of the same"
                + " shape and plan, or recapture the graph to change what the node does");
      }
    } catch (RuntimeException | Error e) {
      ChildGraphs.destroy(ex.device, scratch);
      throw e;
    }
    return () -> {
      try {
        driver.graphExecChildGraphNodeSetParams(h.exec, target, scratch);
      } finally {
        ChildGraphs.destroy(ex.device, scratch);
      }
    };
  }

  private static String describeTypes(List<GraphNodeType> types) {
    return types.isEmpty() ? "no node" : types.size() + " nodes " + types;
  }

  private static CopyEndpoint source(CopyOp c, Execution ex) {
    return switch (c.kind) {
      case HOST_TO_DEVICE -> host(Objects.requireNonNull(c.hostSource), ex);
      case DEVICE_TO_HOST, DEVICE_TO_DEVICE ->
          new CopyEndpoint.Device(ex.use(Objects.requireNonNull(c.deviceSource)));
    };
  }

  private static CopyEndpoint destination(CopyOp c, Execution ex) {
    return switch (c.kind) {
      case DEVICE_TO_HOST -> host(Objects.requireNonNull(c.hostTarget), ex);
      case HOST_TO_DEVICE, DEVICE_TO_DEVICE ->
          new CopyEndpoint.Device(ex.use(Objects.requireNonNull(c.deviceTarget)));
    };
  }

  private static CopyEndpoint host(cuda.graph.HostBuffer<?> buffer, Execution ex) {
    ex.use(buffer);
    return new CopyEndpoint.Host(HostBufferImpl.of(buffer).memory());
  }

  private static IllegalArgumentException mismatch(
      RecordedNodeImpl node, GraphNode<?> by, String what) {
    return refused(
        node,
        by,
        what,
        "a node takes only the parameters of its own kind; recapture the graph to change what a"
            + " node does");
  }

  /**
   * The replacement copies between memory of other kinds than the node's: the driver refuses to
   * change a copy node's memory mappings in place ({@code CUDA_ERROR_INVALID_VALUE}, measured on an
   * H100), so the library refuses first, before any driver call.
   */
  private static IllegalArgumentException otherMemory(
      RecordedNodeImpl node, GraphNode<?> by, Object replacing) {
    return refused(
        node,
        by,
        replacing.toString(),
        "the driver cannot move a copy node's operands between device memory, a temporary's graph"
            + " memory and mapped host memory in place (cuGraphExecMemcpyNodeSetParams refuses a"
            + " change of the operands' mappings); replace it by a copy on memory of the same"
            + " kinds, or recapture the graph");
  }

  /** {@return the refusal to replace {@code node} by {@code by}, which is {@code what}, and why} */
  private static IllegalArgumentException refused(
      RecordedNodeImpl node, GraphNode<?> by, String what, String why) {
    return new IllegalArgumentException(
        "cannot replace "
            + node
            + " ("
            + describe(node)
            + ") by "
            + by
            + ", which is "
            + what
            + ": "
            + why);
  }

  private static String launch(Kernel kernel, boolean programmatic) {
    return (programmatic ? "a programmatic dependent launch of " : "a launch of ")
        + KernelImpl.of(kernel).describe();
  }

  private static String describe(RecordedNodeImpl node) {
    return switch (node.shape) {
      case RecordedNodeImpl.KernelShape k -> launch(k.kernel(), k.programmatic());
      case RecordedNodeImpl.CopyShape copy -> copy.toString();
      case RecordedNodeImpl.FillShape fill -> fill.toString();
      case RecordedNodeImpl.ChildShape c ->
          "foreign node " + c.name() + ", recorded as a child graph of " + describeTypes(c.types());
      default -> node.kind().toString();
    };
  }
}
