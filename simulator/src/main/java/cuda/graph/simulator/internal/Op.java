// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HostFunction;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One unit of device work with its parameters fixed: what a stream command executes and what a
 * graph node holds. Kernel arguments are copied when the op is made; host memory of copies is held
 * by reference and read or written when the op executes, as the driver does.
 */
sealed interface Op {

  /** {@return the graph node type an op of this kind becomes when captured} */
  GraphNodeType type();

  /** A short description for DOT output and diagnostics. */
  String describe();

  record Kernel(
      SimFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      byte[] arguments,
      long[] offsets,
      int[] sizes,
      boolean programmatic)
      implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.KERNEL;
    }

    @Override
    public String describe() {
      return function.name
          + "<<<"
          + grid
          + ", "
          + block
          + ", "
          + sharedMemBytes
          + ">>>"
          + (programmatic ? " (programmatic)" : "");
    }
  }

  record HostToDevice(long dst, MemorySegment src, long bytes) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEMCPY;
    }

    @Override
    public String describe() {
      return "HtoD " + bytes + " bytes to 0x" + Long.toHexString(dst);
    }
  }

  record DeviceToHost(MemorySegment dst, long src, long bytes) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEMCPY;
    }

    @Override
    public String describe() {
      return "DtoH " + bytes + " bytes from 0x" + Long.toHexString(src);
    }
  }

  record DeviceToDevice(long dst, long src, long bytes) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEMCPY;
    }

    @Override
    public String describe() {
      return "DtoD "
          + bytes
          + " bytes 0x"
          + Long.toHexString(src)
          + " -> 0x"
          + Long.toHexString(dst);
    }
  }

  /** {@code height} rows of {@code width} elements, rows {@code pitch} bytes apart. */
  record Memset(long dst, long pitch, int value, int elementSize, long width, long height)
      implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEMSET;
    }

    @Override
    public String describe() {
      return "memset "
          + height
          + " x "
          + width
          + " x "
          + elementSize
          + " bytes at 0x"
          + Long.toHexString(dst);
    }

    /** {@return the bytes from the first to the last element set} */
    long extent() {
      return height == 0 || width == 0 ? 0 : (height - 1) * pitch + width * elementSize;
    }
  }

  record Host(HostFunction function) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.HOST;
    }

    @Override
    public String describe() {
      return "host function";
    }
  }

  /**
   * Does nothing; a stream command made of it exists only for its ordering (event waits, uploads).
   */
  record Empty(String label) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.EMPTY;
    }

    @Override
    public String describe() {
      return label;
    }
  }

  /** A captured external wait on an event recorded outside the capture. */
  record WaitEvent(SimEvent event) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.WAIT_EVENT;
    }

    @Override
    public String describe() {
      return "wait " + event.handle;
    }
  }

  /** A captured external event record. */
  record RecordEvent(SimEvent event) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.EVENT_RECORD;
    }

    @Override
    public String describe() {
      return "record " + event.handle;
    }
  }

  record MemAlloc(Allocation allocation) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEM_ALLOC;
    }

    @Override
    public String describe() {
      return "alloc " + allocation;
    }
  }

  record MemFree(Allocation allocation) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEM_FREE;
    }

    @Override
    public String describe() {
      return "free " + allocation;
    }
  }

  /** Stream-ordered release of an allocation ({@code cuMemFreeAsync} outside capture). */
  record Free(Allocation allocation, boolean forget) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.MEM_FREE;
    }

    @Override
    public String describe() {
      return "free " + allocation;
    }
  }

  /**
   * A conditional node of a graph, as the graph holds it: its condition and its body graphs, which
   * it owns and which may still change. An exec runs it as a {@link ConditionalRun}.
   */
  record Conditional(SimCondition condition, ConditionalType kind, List<SimGraph> bodies)
      implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.CONDITIONAL;
    }

    @Override
    public String describe() {
      return kind
          + " "
          + condition
          + ", "
          + bodies.size()
          + (bodies.size() == 1 ? " body" : " bodies");
    }
  }

  /**
   * A child-graph node: a clone of the graph it was given ({@code cuGraphAddChildGraphNode} clones
   * it during the call), which nothing changes afterwards, so graphs and execs share it. An exec
   * runs the clone's ops in creation order (a topological order), once per launch; {@code
   * cuGraphExecChildGraphNodeSetParams} gives the exec's node a clone of another graph of the same
   * topology.
   */
  record ChildGraph(SimGraph graph) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.GRAPH;
    }

    @Override
    public String describe() {
      int n = graph.nodes.size();
      return "child graph of " + n + (n == 1 ? " node" : " nodes");
    }

    /** {@return the clone's ops, in creation order} */
    List<Op> ops() {
      return graph.nodes.stream().map(node -> node.op).toList();
    }
  }

  /**
   * A conditional node as an exec runs it: the ops of its bodies as instantiated (or updated), and
   * the exec's value of the condition, which lives across launches and is shared by every launch of
   * the exec (launches of one exec never overlap).
   *
   * @param kind how the node runs its bodies
   * @param handle the value kernels pass to {@code cudaGraphSetConditional} for this node
   * @param value the condition the next test reads
   */
  record ConditionalRun(
      long handle,
      int defaultValue,
      boolean assignDefault,
      ConditionalType kind,
      List<List<Op>> bodies,
      AtomicInteger value)
      implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.CONDITIONAL;
    }

    @Override
    public String describe() {
      return kind + " CUgraphConditionalHandle(0x" + Long.toHexString(handle) + ")";
    }
  }

  /**
   * A node disabled in an exec ({@code cuGraphNodeSetEnabled}): it does nothing but still orders
   * its dependents, and keeps its parameters (updated ones included) for when it is enabled again.
   */
  record Disabled(Op op) implements Op {
    @Override
    public GraphNodeType type() {
      return op.type();
    }

    @Override
    public String describe() {
      return "disabled " + op.describe();
    }
  }

  /**
   * One launch of an exec: its ops at launch time, after auto-freeing the previous launch's
   * allocations.
   */
  record GraphRun(SimExec exec, List<Op> ops, List<Allocation> autoFree) implements Op {
    @Override
    public GraphNodeType type() {
      return GraphNodeType.GRAPH;
    }

    @Override
    public String describe() {
      return "launch of " + exec.handle;
    }
  }
}
