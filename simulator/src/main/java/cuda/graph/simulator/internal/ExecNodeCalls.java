// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphExecUpdateException;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.KernelArguments;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * Changes to one node of an exec: new parameters for a kernel, copy, fill or child-graph node, and
 * enabling or disabling one. A node is named by its handle in the graph the exec was instantiated
 * from (a body's node included); each change replaces the exec's op tree, so launches already
 * enqueued keep the ops they were given.
 */
final class ExecNodeCalls {

  /** The node types {@code cuGraphNodeSetEnabled} accepts ("kernel, memset and memcpy nodes"). */
  private static final Set<GraphNodeType> ENABLEABLE =
      EnumSet.of(GraphNodeType.KERNEL, GraphNodeType.MEMCPY, GraphNodeType.MEMSET);

  private final SimState state;

  ExecNodeCalls(SimState state) {
    this.state = state;
  }

  /** An exec and the path of one of its nodes, checked to be of an expected type. */
  private record Target(SimExec exec, Node node, int[] path) {

    /** {@return the node's op in the exec now, without its disabled wrapper} */
    Op current() {
      Op op = ExecTree.at(exec.ops, path);
      return op instanceof Op.Disabled d ? d.op() : op;
    }

    /** Replaces the node's op for later launches, keeping it disabled if it is. */
    void set(Op replacement) {
      exec.ops =
          ExecTree.replace(
              exec.ops,
              path,
              op -> op instanceof Op.Disabled ? new Op.Disabled(replacement) : replacement);
    }
  }

  private Target target(
      CuGraphExec execHandle, CuGraphNode nodeHandle, Set<GraphNodeType> types, DriverCall call) {
    SimExec exec = state.resolve(execHandle, SimExec.class, call);
    Node node = state.resolve(nodeHandle, Node.class, call);
    state.checkSticky(exec.context, call);
    int[] path = exec.paths.get(node);
    if (path == null) {
      throw invalid(
          call,
          nodeHandle
              + " is not a node of the graph "
              + execHandle
              + " was instantiated from (nor of its bodies), or was added after instantiation");
    }
    GraphNodeType type = node.op.type();
    if (!types.contains(type)) {
      throw invalid(
          call, nodeHandle + " is a " + type + " node; " + call.symbol() + " takes " + types);
    }
    return new Target(exec, node, path);
  }

  void setKernelParams(
      CuGraphExec execHandle,
      CuGraphNode nodeHandle,
      CuFunction functionHandle,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments) {
    DriverCall call = DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS;
    Target target = target(execHandle, nodeHandle, EnumSet.of(GraphNodeType.KERNEL), call);
    SimFunction function = state.resolve(functionHandle, SimFunction.class, call);
    if (function.module.context != target.exec().context) {
      throw invalid(
          call,
          "kernel "
              + function.name
              + " belongs to another context than "
              + execHandle
              + "; a kernel node cannot change context");
    }
    ModuleCalls.validateShape(grid, block, sharedMemBytes, function, call);
    ModuleCalls.requireJavaBody(function, call);
    // The launch attribute is the node's, not the parameters': a replacement keeps it.
    boolean programmatic = target.current() instanceof Op.Kernel k && k.programmatic();
    target.set(
        ModuleCalls.kernelOp(function, grid, block, sharedMemBytes, arguments, programmatic));
  }

  void setMemcpyParams(
      CuGraphExec execHandle,
      CuGraphNode nodeHandle,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes) {
    DriverCall call = DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS;
    Target target = target(execHandle, nodeHandle, EnumSet.of(GraphNodeType.MEMCPY), call);
    if (bytes <= 0) {
      throw invalid(call, "a copy node copies a positive number of bytes, not " + bytes);
    }
    SimDevice device = target.exec().context.device;
    Op copy =
        switch (target.current()) {
          case Op.HostToDevice now
              when destination instanceof CopyEndpoint.Device d
                  && source instanceof CopyEndpoint.Host h ->
              new Op.HostToDevice(
                  sameMapping(now.dst(), device(d, bytes, device, call), "destination", call),
                  host(h, bytes, call),
                  bytes);
          case Op.DeviceToHost now
              when destination instanceof CopyEndpoint.Host h
                  && source instanceof CopyEndpoint.Device d ->
              new Op.DeviceToHost(
                  host(h, bytes, call),
                  sameMapping(now.src(), device(d, bytes, device, call), "source", call),
                  bytes);
          case Op.DeviceToDevice now
              when destination instanceof CopyEndpoint.Device d
                  && source instanceof CopyEndpoint.Device s ->
              new Op.DeviceToDevice(
                  sameMapping(now.dst(), device(d, bytes, device, call), "destination", call),
                  sameMapping(now.src(), device(s, bytes, device, call), "source", call),
                  bytes);
          case Op other ->
              throw invalid(
                  call,
                  nodeHandle
                      + " is a "
                      + other.describe()
                      + " copy; the memory kinds of its endpoints cannot change (got "
                      + kind(source)
                      + " to "
                      + kind(destination)
                      + ")");
        };
    target.set(copy);
  }

  /**
   * {@return {@code address}, the node's new operand, once checked to be mapped as its current one
   * ({@code current}) is} The driver refuses to move a copy or fill node between graph memory (an
   * allocation node's), mapped host memory and other device memory in place: "Returns
   * CUDA_ERROR_INVALID_VALUE if the memory operands' mappings changed" (cuda.h), measured on an
   * H100 (driver 580). Memory from {@code cuMemAlloc} and from the stream-ordered pool is one kind.
   */
  private long sameMapping(long current, long address, String operand, DriverCall call) {
    String was = mapping(current);
    String now = mapping(address);
    if (!was.equals(now)) {
      throw invalid(
          call,
          "the memory operands' mappings cannot change: the node's "
              + operand
              + " is "
              + was
              + ", 0x"
              + Long.toHexString(address)
              + " is "
              + now);
    }
    return address;
  }

  /** {@return the kind of mapping of the memory at {@code address}, in words} */
  private String mapping(long address) {
    Allocation a = state.memory.containing(address, 1);
    if (a == null) {
      return "unknown memory";
    }
    return switch (a.kind) {
      case GRAPH -> "graph memory";
      case MAPPED -> "mapped host memory";
      case SYNC -> "device memory from cuMemAlloc";
      case ASYNC -> "device memory from the stream-ordered pool";
    };
  }

  private static String kind(CopyEndpoint endpoint) {
    return endpoint instanceof CopyEndpoint.Device ? "device" : "host";
  }

  private static MemorySegment host(CopyEndpoint.Host host, long bytes, DriverCall call) {
    SimState.checkHost(host.memory(), bytes, call);
    return host.memory();
  }

  private long device(CopyEndpoint.Device endpoint, long bytes, SimDevice device, DriverCall call) {
    return deviceRange(endpoint.address(), bytes, device, call);
  }

  /** A live range of the exec's device: a node cannot move its memory to another context. */
  private long deviceRange(long address, long bytes, SimDevice device, DriverCall call) {
    state.checkDevice(address, bytes, call);
    Allocation allocation = state.memory.containing(address, Math.max(bytes, 1));
    if (allocation != null && allocation.device != device) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(address)
              + " is memory of device "
              + allocation.device.ordinal
              + "; the node's memory is on device "
              + device.ordinal);
    }
    return address;
  }

  void setMemsetParams(
      CuGraphExec execHandle,
      CuGraphNode nodeHandle,
      long destination,
      int elementSize,
      int value,
      long count) {
    DriverCall call = DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS;
    Target target = target(execHandle, nodeHandle, EnumSet.of(GraphNodeType.MEMSET), call);
    Op.Memset current = (Op.Memset) target.current();
    if (elementSize != current.elementSize()) {
      throw invalid(
          call,
          nodeHandle
              + " fills "
              + current.elementSize()
              + "-byte elements; its element size cannot change to "
              + elementSize);
    }
    if (current.height() > 1) {
      throw invalid(call, nodeHandle + " is a 2D fill; only 1D fills can be changed");
    }
    if (count <= 0) {
      throw invalid(call, "a fill node fills a positive number of elements, not " + count);
    }
    if (destination % elementSize != 0) {
      throw invalid(
          call,
          elementSize
              + "-byte elements need an aligned address, not 0x"
              + Long.toHexString(destination));
    }
    long bytes = count * elementSize;
    // Unlike a copy node's, a memset node's destination may move between graph memory and other
    // device memory (measured on an H100, driver 580).
    deviceRange(destination, bytes, target.exec().context.device, call);
    int element = elementSize == 4 ? value : value & ((1 << (8 * elementSize)) - 1);
    target.set(new Op.Memset(destination, bytes, element, elementSize, count, 1));
  }

  /**
   * Gives a child-graph node of an exec a clone of {@code childHandle}, which must have the node's
   * topology (the same nodes, types and edges, in the same creation order) and nodes each of which
   * could replace its pair in a {@code cuGraphExecUpdate}; otherwise nothing changes.
   */
  void setChildGraphParams(CuGraphExec execHandle, CuGraphNode nodeHandle, CuGraph childHandle) {
    DriverCall call = DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS;
    Target target = target(execHandle, nodeHandle, EnumSet.of(GraphNodeType.GRAPH), call);
    SimGraph child = state.resolve(childHandle, SimGraph.class, call);
    if (child.context != target.exec().context) {
      throw invalid(
          call, "child graph " + childHandle + " belongs to another context than " + execHandle);
    }
    Op.ChildGraph current = (Op.ChildGraph) target.current();
    Op.ChildGraph update = new Op.ChildGraph(ChildGraphCalls.cloneOf(child, call));
    try {
      ExecUpdate.child(NodeShape.of(current.graph()), current, update, target.node());
    } catch (GraphExecUpdateException e) {
      throw invalid(
          call,
          childHandle
              + " does not fit child-graph node "
              + nodeHandle
              + " ("
              + GraphExecUpdateException.resultName(e.updateResult())
              + "): it must have the node's topology ("
              + current.describe()
              + ", the same node types, edges and creation order), and each node may change only"
              + " what cuGraphExecUpdate could change");
    }
    target.set(update);
  }

  void setEnabled(CuGraphExec execHandle, CuGraphNode nodeHandle, boolean enabled) {
    Target target = target(execHandle, nodeHandle, ENABLEABLE, DriverCall.GRAPH_NODE_SET_ENABLED);
    Op op = target.current();
    target.exec().ops =
        ExecTree.replace(
            target.exec().ops, target.path(), old -> enabled ? op : new Op.Disabled(op));
  }

  boolean isEnabled(CuGraphExec execHandle, CuGraphNode nodeHandle) {
    Target target = target(execHandle, nodeHandle, ENABLEABLE, DriverCall.GRAPH_NODE_GET_ENABLED);
    return !(ExecTree.at(target.exec().ops, target.path()) instanceof Op.Disabled);
  }
}
