// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.DeviceBuffer;
import cuda.graph.Kernel;
import cuda.graph.NodeKind;
import cuda.graph.RecordedNode;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.ops.FillOp;
import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.GraphExecHandle;
import cuda.graph.spi.GraphNodeType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link RecordedNode}: what kind of node it is and what a replacement must
 * match ({@code shape}: the kernel of a launch and whether it is a programmatic dependent launch,
 * the direction of a copy, the element size of a fill, the node types of a foreign node's child
 * graph), its position among the capture's nodes (which names the exec's node), the range of the
 * capture's leases its buffers took, and the capture that recorded it (whose conditions a
 * replacement may set). Bound to its graph and to the capture generation that made it once the
 * capture is applied; a later recapture makes it stale.
 */
public final class RecordedNodeImpl implements RecordedNode {

  /**
   * What a kernel node's replacement must match: the kernel, and whether the launch is programmatic
   * (its edge from the kernel before it is then a programmatic edge of the graph, which an exec
   * cannot change).
   */
  record KernelShape(Kernel kernel, boolean programmatic) {}

  /**
   * What a foreign node's replacement must match: the types of the driver nodes its work enqueued
   * (in order), which became the child graph of the node; the name is for messages only.
   */
  record ChildShape(String name, List<GraphNodeType> types) {}

  /**
   * What a copy node's replacement must match: the direction, and what memory each device operand
   * is (null for a host one), which the driver cannot change in place.
   */
  record CopyShape(
      CopyOp.Kind direction,
      DeviceBufferImpl.@Nullable Memory source,
      DeviceBufferImpl.@Nullable Memory destination) {

    static CopyShape of(CopyOp c) {
      return new CopyShape(c.kind, memory(c.deviceSource), memory(c.deviceTarget));
    }

    private static DeviceBufferImpl.@Nullable Memory memory(@Nullable DeviceBuffer<?> buffer) {
      return buffer == null ? null : DeviceBufferImpl.of(buffer).memory();
    }

    @Override
    public String toString() {
      return "a copy "
          + direction
          + (source == null ? "" : " from " + source)
          + (destination == null ? "" : " to " + destination);
    }
  }

  /**
   * What a fill node's replacement must match: the element size (a memset node's destination may
   * move to memory of another kind, unlike a copy node's operands).
   */
  record FillShape(int elementSize) {

    static FillShape of(FillOp f) {
      return new FillShape(f.buffer.elementType().byteSize());
    }

    /** {@return what {@code f} fills, with its buffer's address {@code address}} */
    static GraphExecHandle.FillParams params(FillOp f, long address) {
      return new GraphExecHandle.FillParams(
          address, f.buffer.elementType().byteSize(), (int) f.bits, f.buffer.length());
    }

    @Override
    public String toString() {
      return "a fill of " + elementSize + "-byte elements";
    }
  }

  private final NodeKind kind;
  final Object shape;
  final int index;
  final int leaseFrom;
  final int leaseTo;

  /** The capture that recorded the node ({@code Execution.capturing}), compared by identity. */
  final Object capture;

  /**
   * For a fill node, what it fills when switched on: as recorded, then as its latest replacement
   * says (a fill switched off keeps its replacements here until it is switched on again).
   */
  volatile GraphExecHandle.@Nullable FillParams fill;

  private volatile @Nullable CudaGraphImpl<?> graph;
  private volatile int generation;

  RecordedNodeImpl(
      NodeKind kind, Object shape, int index, int leaseFrom, int leaseTo, Object capture) {
    this.kind = kind;
    this.shape = shape;
    this.index = index;
    this.leaseFrom = leaseFrom;
    this.leaseTo = leaseTo;
    this.capture = capture;
  }

  /** {@return the implementation behind a recorded node (the only one it permits)} */
  static RecordedNodeImpl of(RecordedNode node) {
    return (RecordedNodeImpl) node;
  }

  void bind(CudaGraphImpl<?> owner, int captureGeneration) {
    this.generation = captureGeneration;
    this.graph = owner;
  }

  /** {@return whether this node was recorded by {@code owner}'s capture of {@code generation}} */
  boolean isCurrentIn(CudaGraphImpl<?> owner, int currentGeneration) {
    return graph == owner && generation == currentGeneration;
  }

  boolean isOf(CudaGraphImpl<?> owner) {
    return graph == owner;
  }

  @Override
  public NodeKind kind() {
    return kind;
  }

  @Override
  public String toString() {
    return "RecordedNode[" + kind + " #" + index + "]";
  }
}
