// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphNode;
import cuda.graph.NodeKind;
import cuda.graph.RecordedNode;
import cuda.graph.Scope;
import cuda.graph.ScopeBody;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.kernel.ConditionImpl;
import cuda.graph.internal.kernel.KernelLaunchOp;
import cuda.graph.internal.ops.AllocateOp;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.ops.FillOp;
import cuda.graph.internal.ops.ForeignNodeOp;
import cuda.graph.internal.ops.OpLists;
import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.GraphNodeType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link Scope}: records through one execution of a capture, the top-level
 * one or a conditional body's (recorded on a lane by {@link LaneCapture}).
 */
public final class ScopeImpl implements Scope {

  private final Execution execution;
  private final boolean topLevel;
  private final Thread owner = Thread.currentThread();
  private final List<RecordedNodeImpl> recorded = new ArrayList<>();
  private boolean open = true;

  /** Set while a conditional body records through a scope of its own: this one must not record. */
  private boolean inBody;

  /** A scope of a capture's top level: it may also record replaceable nodes. */
  public ScopeImpl(Execution execution) {
    this(execution, true);
  }

  ScopeImpl(Execution execution, boolean topLevel) {
    this.execution = execution;
    this.topLevel = topLevel;
  }

  /** Records {@code node} into the graph and returns its (not yet computed) result. */
  @Override
  public <T extends @Nullable Object> T record(GraphNode<T> node) {
    checkUsable();
    return Executor.execute(Objects.requireNonNull(node, "node"), execution);
  }

  @Override
  public RecordedNode recordNode(GraphNode<@Nullable Void> node) {
    checkUsable();
    Objects.requireNonNull(node, "node");
    if (!topLevel) {
      throw new IllegalStateException(
          "recordNode is refused inside a conditional body: the exec's nodes in bodies cannot be"
              + " changed one by one; record the node with record() and change the body by"
              + " recapturing the graph");
    }
    if (node instanceof ForeignNodeOp foreign) {
      return recordForeign(foreign);
    }
    NodeKind kind;
    Object shape;
    switch (node) {
      case KernelLaunchOp k -> {
        kind = NodeKind.KERNEL;
        shape = new RecordedNodeImpl.KernelShape(k.kernel, k.config.programmaticDependentLaunch());
      }
      case CopyOp c -> {
        kind = NodeKind.COPY;
        shape = RecordedNodeImpl.CopyShape.of(c);
      }
      case FillOp f -> {
        int size = f.buffer.elementType().byteSize();
        if (size == 8) {
          throw new IllegalArgumentException(
              "a fill of 8-byte elements ("
                  + f.buffer
                  + ") is recorded as two strided 32-bit fills, which cannot be replaced as one"
                  + " node; record it with record() and change it by recapturing");
        }
        kind = NodeKind.FILL;
        shape = RecordedNodeImpl.FillShape.of(f);
      }
      default ->
          throw new IllegalArgumentException(
              node
                  + " is not a single kernel launch, copy, fill or foreign node, so it is no one"
                  + " node of the graph; record each launch, copy, fill or foreign node of a"
                  + " composition with its own recordNode");
    }
    int leaseFrom = execution.leaseCount();
    Executor.execute(node, execution);
    int leaseTo = execution.leaseCount();
    CudaDriver driver = execution.driver;
    CaptureInfo info = driver.streamGetCaptureInfo(execution.cuStream);
    List<CuGraphNode> last = info.dependencies();
    CuGraph graph = info.graph();
    if (last.size() != 1 || graph == null) {
      throw new IllegalStateException(
          "the capture of " + node + " left " + last.size() + " nodes to depend on, not its one");
    }
    List<CuGraphNode> nodes = driver.graphGetNodes(graph);
    int index = nodes.lastIndexOf(last.getFirst());
    RecordedNodeImpl recordedNode =
        new RecordedNodeImpl(
            kind,
            shape,
            index,
            leaseFrom,
            leaseTo,
            Objects.requireNonNull(execution.capturing, "a scope records only in a capture"));
    if (node instanceof FillOp f) {
      recordedNode.fill =
          RecordedNodeImpl.FillShape.params(f, DeviceBufferImpl.of(f.buffer).address());
    }
    recorded.add(recordedNode);
    return recordedNode;
  }

  /**
   * Records a foreign node as one child-graph node: its work (which may enqueue any number of
   * driver nodes) is captured on a lane into a scratch graph, whose clone the node added after the
   * capture's current dependencies runs; the capture then depends on that node. The work's leases
   * are taken as {@link #record} takes them and go to this capture, and the scratch graph is
   * destroyed (through the release queue, which logs a failure) on every path.
   */
  private RecordedNode recordForeign(ForeignNodeOp node) {
    CudaDriver driver = execution.driver;
    int leaseFrom = execution.leaseCount();
    CuGraph scratch = driver.graphCreate(0);
    CuGraphNode child;
    CuGraph graph;
    List<GraphNodeType> types;
    try {
      LaneCapture.record(execution, scratch, null, lane -> Executor.execute(node, lane));
      types = ChildGraphs.nodeTypes(driver, scratch);
      CaptureInfo info = driver.streamGetCaptureInfo(execution.cuStream);
      graph = captureGraph(info);
      child = driver.graphAddChildGraphNode(graph, info.dependencies(), scratch);
      driver.streamUpdateCaptureDependencies(
          execution.cuStream, List.of(child), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    } finally {
      // The node holds a clone: the scratch graph is not needed once it was added (or failed).
      ChildGraphs.destroy(execution.device, scratch);
    }
    int leaseTo = execution.leaseCount();
    int index = driver.graphGetNodes(graph).lastIndexOf(child);
    RecordedNodeImpl recordedNode =
        new RecordedNodeImpl(
            NodeKind.CHILD_GRAPH,
            new RecordedNodeImpl.ChildShape(node.name, types),
            index,
            leaseFrom,
            leaseTo,
            Objects.requireNonNull(execution.capturing, "a scope records only in a capture"));
    recorded.add(recordedNode);
    return recordedNode;
  }

  @Override
  public <T> DeviceBuffer<T> temporary(ElementType<T> type, long length) {
    AllocateOp.requireLength(type, length, "a temporary");
    checkUsable();
    if (!topLevel) {
      throw new IllegalStateException(
          "temporary() is refused inside a conditional body: CUDA allows no allocation node in a"
              + " body graph; allocate the temporary through the top-level scope before the"
              + " conditional node, and use it in the body");
    }
    // Captured, cuMemAllocAsync records an allocation node and returns the graph allocation's
    // fixed address; the free node is recorded when the scope's work is done (freeTemporaries).
    long address = execution.driver.memAllocAsync(length * type.byteSize(), execution.cuStream);
    return DeviceBufferImpl.temporary(execution, type, length, address);
  }

  /**
   * Records a free node for each temporary of this capture, after everything the scope recorded
   * (parallel branches are joined back into the scope's stream, and conditional nodes lie on it),
   * so every use is ordered between the temporary's allocation and free nodes.
   */
  void freeTemporaries() {
    for (long address : execution.temporaryAddresses()) {
      execution.driver.memFreeAsync(address, execution.cuStream);
    }
  }

  @Override
  public GraphCondition condition(int defaultValue) {
    checkUsable();
    ConditionalHandle handle =
        execution.driver.graphConditionalHandleCreate(
            captureGraph(), defaultValue, ConditionalHandle.ASSIGN_DEFAULT);
    return new ConditionImpl(handle, defaultValue, execution, this);
  }

  @Override
  public void ifThen(GraphCondition condition, ScopeBody body) {
    conditional(ConditionalType.IF, condition, List.of(Objects.requireNonNull(body, "body")));
  }

  @Override
  public void ifThenElse(GraphCondition condition, ScopeBody then, ScopeBody otherwise) {
    conditional(
        ConditionalType.IF,
        condition,
        List.of(
            Objects.requireNonNull(then, "then"), Objects.requireNonNull(otherwise, "otherwise")));
  }

  @Override
  public void whileLoop(GraphCondition condition, ScopeBody body) {
    conditional(ConditionalType.WHILE, condition, List.of(Objects.requireNonNull(body, "body")));
  }

  @Override
  public void switchOf(GraphCondition condition, List<ScopeBody> cases) {
    List<ScopeBody> bodies = OpLists.copyWithoutNulls(cases, "cases");
    if (bodies.isEmpty()) {
      throw new IllegalArgumentException("switchOf needs at least one case, got none");
    }
    conditional(ConditionalType.SWITCH, condition, bodies);
  }

  /**
   * Adds the conditional node after the work recorded so far, makes it what later work depends on,
   * and records each body into the node's body graph.
   */
  private void conditional(ConditionalType type, GraphCondition c, List<ScopeBody> bodies) {
    checkUsable();
    ConditionImpl condition = ConditionImpl.of(Objects.requireNonNull(c, "condition"));
    if (!condition.madeBy(this)) {
      throw new IllegalArgumentException(
          condition
              + " was made by another scope: a conditional node tests only conditions of its own"
              + " graph; make the condition with condition() of the scope that records the "
              + type
              + " node (kernels anywhere in the capture may still set it)");
    }
    CudaDriver driver = execution.driver;
    CaptureInfo info = driver.streamGetCaptureInfo(execution.cuStream);
    ConditionalNode node =
        driver.graphAddConditionalNode(
            captureGraph(info), info.dependencies(), condition.handle, type, bodies.size());
    driver.streamUpdateCaptureDependencies(
        execution.cuStream, List.of(node.node()), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    inBody = true;
    try {
      for (int i = 0; i < bodies.size(); i++) {
        LaneCapture.record(execution, node.bodies().get(i), bodies.get(i));
      }
    } finally {
      inBody = false;
    }
  }

  private CuGraph captureGraph() {
    return captureGraph(execution.driver.streamGetCaptureInfo(execution.cuStream));
  }

  private static CuGraph captureGraph(CaptureInfo info) {
    CuGraph graph = info.graph();
    if (graph == null) {
      throw new IllegalStateException(
          "the scope's stream is not capturing (" + info.status() + ")");
    }
    return graph;
  }

  /** {@return the replaceable nodes this scope recorded, in order} */
  List<RecordedNodeImpl> recorded() {
    return recorded;
  }

  private void checkUsable() {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "a scope records only on the thread that captures (" + owner.getName() + ")");
    }
    if (!open) {
      throw new IllegalStateException(
          "this scope's capture has ended; record into a new CudaGraph.scope");
    }
    if (inBody) {
      // Recorded here, the work would land outside the body and run on every launch.
      throw new IllegalStateException(
          "this scope is recording a conditional body: record the body's work through the scope"
              + " the body is given (sc.ifThen(c, body -> body.record(...))), not through the"
              + " enclosing one");
    }
  }

  public void close() {
    open = false;
  }
}
