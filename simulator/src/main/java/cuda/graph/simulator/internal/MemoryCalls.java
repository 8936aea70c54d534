package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.MemoryInfo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Device and pinned host memory, copies and memsets. */
final class MemoryCalls {

  private final SimState state;
  private final Map<Long, Arena> pinned = new HashMap<>();

  MemoryCalls(SimState state) {
    this.state = state;
  }

  private Allocation allocate(
      SimContext context, long bytes, Allocation.Kind kind, DriverCall call) {
    SimDevice device = context.device;
    if (bytes > device.totalMemory - device.usedMemory) {
      throw fail(
          CuResult.OUT_OF_MEMORY,
          call,
          bytes
              + " bytes requested, "
              + (device.totalMemory - device.usedMemory)
              + " of "
              + device.totalMemory
              + " free");
    }
    Allocation a = state.memory.reserve(device, bytes, kind, null);
    a.back();
    device.usedMemory += bytes;
    context.allocations.add(a);
    return a;
  }

  private void release(Allocation a) {
    a.freeRequested = true;
    a.device.usedMemory -= a.size;
  }

  long alloc(long bytes) {
    DriverCall call = DriverCall.MEM_ALLOC;
    SimContext context = state.currentContext(call);
    if (bytes <= 0) {
      throw invalid(call, "cannot allocate " + bytes + " bytes");
    }
    state.checkUnsafe(call);
    return allocate(context, bytes, Allocation.Kind.SYNC, call).base;
  }

  void free(long pointer) {
    DriverCall call = DriverCall.MEM_FREE;
    state.requireInit(call);
    if (pointer == 0) {
      return;
    }
    Allocation a = state.memory.atBase(pointer);
    if (a == null || (a.kind == Allocation.Kind.GRAPH ? !a.outstanding : a.freeRequested)) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(pointer)
              + " is not the start of a live allocation (interior pointer or double free)");
    }
    state.checkUnsafe(call);
    if (a.kind == Allocation.Kind.GRAPH) {
      a.outstanding = false;
      a.unback();
      a.device.graphMemory.freed(a);
      return;
    }
    release(a);
    a.unback();
    state.memory.remove(a);
    contextOf(a).allocations.remove(a);
  }

  private SimContext contextOf(Allocation a) {
    return a.device.primary;
  }

  long allocAsync(long bytes, CuStream handle) {
    DriverCall call = DriverCall.MEM_ALLOC_ASYNC;
    SimStream stream = state.stream(handle, call);
    state.checkSticky(stream.context, call);
    if (bytes <= 0) {
      throw invalid(call, "cannot allocate " + bytes + " bytes");
    }
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, true);
    }
    SimState.checkNotInvalidated(stream, call);
    CaptureSequence capture = stream.capture;
    if (capture != null) {
      // A graph allocation: the address is fixed now; memory exists between alloc and free nodes.
      Allocation a =
          state.memory.reserve(stream.context.device, bytes, Allocation.Kind.GRAPH, capture.graph);
      stream.context.allocations.add(a);
      state.addNode(stream, new Op.MemAlloc(a));
      return a.base;
    }
    return allocate(stream.context, bytes, Allocation.Kind.ASYNC, call).base;
  }

  void freeAsync(long pointer, CuStream handle) {
    DriverCall call = DriverCall.MEM_FREE_ASYNC;
    SimStream stream = state.stream(handle, call);
    state.checkSticky(stream.context, call);
    Allocation a = state.memory.atBase(pointer);
    CaptureSequence capture = stream.capture;
    if (capture != null) {
      if (a == null
          || a.kind != Allocation.Kind.GRAPH
          || a.owner != capture.graph
          || capture.graph.freedInGraph.contains(a)) {
        throw invalid(
            call,
            "in a capture, cuMemFreeAsync can only free memory allocated by this capture (0x"
                + Long.toHexString(pointer)
                + " is not)");
      }
      if (stream.kind == SimStream.Kind.LEGACY) {
        state.checkLegacyUse(stream.context, call, true);
      }
      SimState.checkNotInvalidated(stream, call);
      state.addNode(stream, new Op.MemFree(a));
      capture.graph.freedInGraph.add(a);
      return;
    }
    if (a == null || (a.kind == Allocation.Kind.GRAPH ? !a.outstanding : a.freeRequested)) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(pointer)
              + " is not the start of a live allocation (interior pointer or double free)");
    }
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, true);
    }
    if (a.kind == Allocation.Kind.GRAPH) {
      a.outstanding = false;
      Command free = state.enqueue(stream, new Op.Free(a, false), List.of());
      a.device.graphMemory.freedOn(a, stream, free.done);
      return;
    }
    release(a);
    contextOf(a).allocations.remove(a);
    state.enqueue(stream, new Op.Free(a, true), List.of());
  }

  MemorySegment allocHost(long bytes) {
    DriverCall call = DriverCall.MEM_ALLOC_HOST;
    state.currentContext(call);
    if (bytes <= 0) {
      throw invalid(call, "cannot allocate " + bytes + " bytes");
    }
    state.checkUnsafe(call);
    Arena arena = Arena.ofShared();
    MemorySegment segment = arena.allocate(bytes, 4096);
    pinned.put(segment.address(), arena);
    return segment;
  }

  void freeHost(MemorySegment memory) {
    DriverCall call = DriverCall.MEM_FREE_HOST;
    state.requireInit(call);
    Arena arena = pinned.get(memory.address());
    if (arena == null) {
      throw invalid(
          call,
          "0x" + Long.toHexString(memory.address()) + " is not pinned memory from cuMemAllocHost");
    }
    state.checkUnsafe(call);
    pinned.remove(memory.address());
    arena.close();
  }

  MemoryInfo info() {
    SimContext context = state.currentContext(DriverCall.MEM_GET_INFO);
    SimDevice d = context.device;
    return new MemoryInfo(d.totalMemory - d.usedMemory, d.totalMemory);
  }

  /** A synchronous copy: runs on the legacy stream; returns the completion to wait for. */
  Completion copySync(Op op, DriverCall call) {
    SimContext context = state.currentContext(call);
    state.checkLegacyUse(context, call, true);
    return state.enqueue(context.legacy, op, List.of()).done;
  }

  void copyAsync(Op op, CuStream handle, DriverCall call) {
    SimStream stream = state.stream(handle, call);
    state.checkSticky(stream.context, call);
    state.submit(call, stream, op);
  }

  void memsetAsync(
      long dst,
      long pitch,
      int value,
      int elementSize,
      long width,
      long height,
      CuStream handle,
      DriverCall call) {
    SimStream stream = state.stream(handle, call);
    state.checkSticky(stream.context, call);
    if (width < 0 || height < 0) {
      throw invalid(call, "negative size " + width + " x " + height);
    }
    if ((dst % elementSize) != 0 || (pitch % elementSize) != 0) {
      throw invalid(
          call,
          call.symbol()
              + " needs "
              + elementSize
              + "-byte aligned addresses and pitch, got 0x"
              + Long.toHexString(dst)
              + " and pitch "
              + pitch);
    }
    if (height > 1 && pitch < width * elementSize) {
      throw invalid(
          call, "pitch " + pitch + " is smaller than a row of " + width * elementSize + " bytes");
    }
    Op.Memset op = new Op.Memset(dst, pitch, value, elementSize, width, height);
    state.checkDevice(dst, op.extent(), call);
    state.submit(call, stream, op);
  }
}
