// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HostAllocFlags;
import cuda.graph.spi.MemoryInfo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Device and pinned host memory, copies and memsets. Host memory mapped into the device address
 * space ({@code cuMemHostAlloc} with {@code CU_MEMHOSTALLOC_DEVICEMAP}) is one segment that both
 * sides reach: its device range is an {@link Allocation.Kind#MAPPED} allocation backed by the host
 * segment itself, so a kernel's store is in the host's memory the moment the kernel makes it (while
 * the kernel still runs, on the asynchronous engine), and the host's stores are what the kernel
 * reads.
 */
final class MemoryCalls {

  /** Page-locked host memory: its arena, and its device range if it is mapped. */
  private record HostMemory(MemorySegment segment, Arena arena, @Nullable Allocation mapping) {}

  private final SimState state;

  /** Live page-locked host memory by address (from cuMemAllocHost or cuMemHostAlloc). */
  private final NavigableMap<Long, HostMemory> pinned = new TreeMap<>();

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
    refuseMapped(a, call);
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
    refuseMapped(a, call);
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

  /** The device pointer of mapped host memory is not device memory: cuMemFree refuses it. */
  private static void refuseMapped(@Nullable Allocation a, DriverCall call) {
    if (a != null && a.kind == Allocation.Kind.MAPPED) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(a.base)
              + " is the device pointer of mapped host memory, not device memory: free the host"
              + " memory with cuMemFreeHost");
    }
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
    pinned.put(segment.address(), new HostMemory(segment, arena, null));
    return segment;
  }

  MemorySegment hostAlloc(long bytes, int flags) {
    DriverCall call = DriverCall.MEM_HOST_ALLOC;
    SimContext context = state.currentContext(call);
    if (bytes <= 0) {
      throw invalid(call, "cannot allocate " + bytes + " bytes");
    }
    if ((flags & ~HostAllocFlags.ALL) != 0) {
      throw invalid(
          call,
          "flags 0x"
              + Integer.toHexString(flags)
              + " hold bits that are no CU_MEMHOSTALLOC_* flag (PORTABLE 0x1, DEVICEMAP 0x2,"
              + " WRITECOMBINED 0x4)");
    }
    state.checkUnsafe(call);
    Arena arena = Arena.ofShared();
    MemorySegment segment;
    try {
      segment = arena.allocate(bytes, 4096);
    } catch (OutOfMemoryError e) {
      arena.close();
      throw fail(
          CuResult.OUT_OF_MEMORY,
          call,
          bytes + " bytes of page-locked host memory: the host cannot allocate that much");
    }
    Allocation mapping = null;
    if ((flags & HostAllocFlags.DEVICEMAP) != 0) {
      // With unified addressing the mapping is the same for every context, portable or not.
      mapping = state.memory.reserve(context.device, bytes, Allocation.Kind.MAPPED, null);
      mapping.backWith(segment);
    }
    pinned.put(segment.address(), new HostMemory(segment, arena, mapping));
    return segment;
  }

  long hostGetDevicePointer(MemorySegment memory, int flags) {
    DriverCall call = DriverCall.MEM_HOST_GET_DEVICE_POINTER;
    state.currentContext(call);
    if (flags != 0) {
      throw invalid(call, "flags must be 0, got " + flags);
    }
    long address = memory.address();
    Map.Entry<Long, HostMemory> e = pinned.floorEntry(address);
    HostMemory host = e == null ? null : e.getValue();
    if (host == null
        || !memory.isNative()
        || address - host.segment.address() >= Math.max(host.segment.byteSize(), 1)) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(address)
              + " is not inside page-locked host memory from cuMemHostAlloc");
    }
    Allocation mapping = host.mapping;
    if (mapping == null) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(host.segment.address())
              + " was allocated without CU_MEMHOSTALLOC_DEVICEMAP (by cuMemAllocHost, or by"
              + " cuMemHostAlloc without the flag), so it has no device pointer");
    }
    return mapping.base + (address - host.segment.address());
  }

  void freeHost(MemorySegment memory) {
    DriverCall call = DriverCall.MEM_FREE_HOST;
    state.requireInit(call);
    HostMemory host = pinned.get(memory.address());
    if (host == null) {
      throw invalid(
          call,
          "0x"
              + Long.toHexString(memory.address())
              + " is not page-locked memory from cuMemAllocHost or cuMemHostAlloc");
    }
    state.checkUnsafe(call);
    pinned.remove(memory.address());
    Allocation mapping = host.mapping;
    if (mapping != null) {
      // The device range goes first: later device accesses are illegal addresses, and a kernel
      // still touching the memory fails as one when the arena closes under it.
      mapping.unback();
      state.memory.remove(mapping);
    }
    host.arena.close();
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
