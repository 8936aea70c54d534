// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import cuda.graph.CaptureMode;
import cuda.graph.CudaDriverError;
import cuda.graph.CudaEvent;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.Dim3;
import cuda.graph.ElementType;
import cuda.graph.GraphCaptureException;
import cuda.graph.GraphLaunch;
import cuda.graph.GraphNode;
import cuda.graph.HostBuffer;
import cuda.graph.InputBinding;
import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.MappedHostBuffer;
import cuda.graph.Module;
import cuda.graph.ReentrantExecutionException;
import cuda.graph.SchedulingPolicy;
import cuda.graph.Scope;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The cases of {@link BadInputContract}, one group per public type of the API. Each case calls one
 * entry point with one bad input and names the exception and the key words of its message: what is
 * wrong (the bad value, the closed object, the other platform) and, where one exists, the fix (the
 * limit to respect, the factory to use instead).
 */
final class BadInputCases {

  private static final Class<NullPointerException> NPE = NullPointerException.class;
  private static final Class<IllegalArgumentException> IAE = IllegalArgumentException.class;
  private static final Class<IllegalStateException> ISE = IllegalStateException.class;
  private static final Class<IndexOutOfBoundsException> IOOBE = IndexOutOfBoundsException.class;
  private static final int N = BadInputFixture.LENGTH;
  private static final String PTX_RESOURCE =
      "/cuda/graph/conformance/kernels/conformance_kernels.ptx";

  private BadInputCases() {}

  /** {@return every case, grouped by entry point in the order of the API's documentation} */
  static List<BadInputCase> all() {
    List<BadInputCase> all = new ArrayList<>();
    all.addAll(platform());
    all.addAll(device());
    all.addAll(stream());
    all.addAll(event());
    all.addAll(deviceBuffer());
    all.addAll(hostBuffer());
    all.addAll(mappedHostBuffer());
    all.addAll(elementType());
    all.addAll(kernel());
    all.addAll(kernelImage());
    all.addAll(kernelParam());
    all.addAll(launchConfig());
    all.addAll(dim3());
    all.addAll(deviceOp());
    all.addAll(graphNode());
    all.addAll(cudaGraph());
    all.addAll(scope());
    all.addAll(graphLaunch());
    all.addAll(module());
    all.addAll(inputBinding());
    all.addAll(schedulingPolicy());
    return all;
  }

  /** Collects the cases of one entry point. */
  private static final class Group {
    private final String entryPoint;
    private final List<BadInputCase> cases = new ArrayList<>();

    Group(String entryPoint) {
      this.entryPoint = entryPoint;
    }

    Group rejects(
        String name,
        BadInputCase.Action action,
        Class<? extends Throwable> type,
        String... keywords) {
      cases.add(new BadInputCase(entryPoint, name, action, List.of(type), List.of(keywords)));
      return this;
    }

    Group rejectsWithEither(
        String name,
        BadInputCase.Action action,
        Class<? extends Throwable> type,
        Class<? extends Throwable> other,
        String... keywords) {
      cases.add(
          new BadInputCase(entryPoint, name, action, List.of(type, other), List.of(keywords)));
      return this;
    }

    List<BadInputCase> cases() {
      return List.copyOf(cases);
    }
  }

  // ---- CudaPlatform

  private static List<BadInputCase> platform() {
    return new Group("CudaPlatform")
        .rejects(
            "forDriver with a null driver", f -> CudaPlatform.forDriver(null, "x"), NPE, "driver")
        .rejects(
            "forDriver with a null provider id",
            f -> CudaPlatform.forDriver(f.freshDriver(), null),
            NPE,
            "providerId")
        .rejects("device(-1)", f -> f.platform().device(-1), IAE, "-1", "device")
        .rejects(
            "device(ordinal) one past the last device",
            f -> f.platform().device(f.platform().devices().size()),
            IAE,
            "{devices}",
            "device")
        .rejects(
            "setSchedulingPolicy(null)",
            f -> {
              f.platform().setSchedulingPolicy(null);
              return null;
            },
            NPE,
            "policy")
        .rejects(
            "runAsCurrent(null)",
            f -> {
              f.platform().runAsCurrent(null);
              return null;
            },
            NPE,
            "action")
        .rejects("callAsCurrent(null)", f -> f.platform().callAsCurrent(null), NPE, "action")
        .rejects(
            "newStream() on a device of a closed platform",
            f -> f.closedPlatform().platform().defaultDevice().newStream(),
            ISE,
            "platform",
            "closed")
        .rejects(
            "newEvent() on a device of a closed platform",
            f -> f.closedPlatform().platform().defaultDevice().newEvent(),
            ISE,
            "platform",
            "closed")
        .rejects(
            "allocateHost on a device of a closed platform",
            f -> f.closedPlatform().platform().defaultDevice().allocateHost(ElementType.F32, 4),
            ISE,
            "platform",
            "closed")
        .rejects(
            "allocateMapped on a device of a closed platform",
            f -> f.closedPlatform().platform().defaultDevice().allocateMapped(ElementType.I32, 4),
            ISE,
            "platform",
            "closed")
        .rejects(
            "graphMemory() of a device of a closed platform",
            f -> f.closedPlatform().platform().defaultDevice().graphMemory(),
            ISE,
            "platform",
            "closed")
        .rejects(
            "trimGraphMemory() on a device of a closed platform",
            f -> {
              f.closedPlatform().platform().defaultDevice().trimGraphMemory();
              return null;
            },
            ISE,
            "platform",
            "closed")
        .rejects(
            "resetGraphMemoryHighWater() on a device of a closed platform",
            f -> {
              f.closedPlatform().platform().defaultDevice().resetGraphMemoryHighWater();
              return null;
            },
            ISE,
            "platform",
            "closed")
        .rejects(
            "an op executed on a stream of a closed platform",
            f -> DeviceOp.value(1).syncOn(f.closedPlatform().stream()),
            ISE,
            "platform",
            "closed")
        .rejects(
            "an allocation on a stream of a closed platform",
            f -> DeviceBuffer.zeros(ElementType.I32, 4).syncOn(f.closedPlatform().stream()),
            ISE,
            "platform",
            "closed")
        .rejects(
            "a fill of a closed platform's buffer on its stream",
            f -> f.closedPlatform().buffer().fill(1).syncOn(f.closedPlatform().stream()),
            ISE,
            "platform",
            "closed")
        .rejectsWithEither(
            "a closed platform's buffer copied on this platform's stream",
            f -> f.ints().copyFrom(f.closedPlatform().buffer()).syncOn(f.stream()),
            ISE,
            IAE,
            "platform")
        .rejects(
            "synchronize() of a closed platform's stream",
            f -> {
              f.closedPlatform().stream().synchronize();
              return null;
            },
            ISE,
            "platform",
            "closed")
        .rejects(
            "isDone() of a closed platform's event",
            f -> f.closedPlatform().event().isDone(),
            ISE,
            "platform",
            "closed")
        .rejects(
            "sync() with a closed platform current",
            f -> f.closedPlatform().platform().callAsCurrent(() -> DeviceOp.value(1).sync()),
            ISE,
            "platform",
            "closed")
        .rejects(
            "a capture on a closed platform's stream",
            f -> CudaGraph.capture(f.closedPlatform().stream(), DeviceOp.value(1)),
            ISE,
            "platform",
            "closed")
        .cases();
  }

  // ---- Device

  private static List<BadInputCase> device() {
    return new Group("Device")
        .rejects(
            "allocateHost with a null type", f -> f.device().allocateHost(null, 4), NPE, "type")
        .rejects(
            "allocateHost of 0 elements",
            f -> f.device().allocateHost(ElementType.F32, 0),
            IAE,
            "at least one",
            "0")
        .rejects(
            "allocateHost of -3 elements",
            f -> f.device().allocateHost(ElementType.F32, -3),
            IAE,
            "-3")
        .rejects(
            "allocateHost whose byte size overflows a long",
            f -> f.device().allocateHost(ElementType.F64, Long.MAX_VALUE / 4),
            IAE,
            String.valueOf(Long.MAX_VALUE / 4),
            "bytes",
            "at most|fewer|overflow|too large|exceeds")
        .rejects(
            "allocateMapped with a null type", f -> f.device().allocateMapped(null, 4), NPE, "type")
        .rejects(
            "allocateMapped of 0 elements",
            f -> f.device().allocateMapped(ElementType.I32, 0),
            IAE,
            "at least one",
            "0")
        .rejects(
            "allocateMapped of -3 elements",
            f -> f.device().allocateMapped(ElementType.I32, -3),
            IAE,
            "-3")
        .rejects(
            "allocateMapped whose byte size overflows a long",
            f -> f.device().allocateMapped(ElementType.F64, Long.MAX_VALUE / 4),
            IAE,
            String.valueOf(Long.MAX_VALUE / 4),
            "bytes",
            "at most|fewer|overflow|too large|exceeds")
        .rejects(
            "allocateMapped of more host memory than any host has (2^59 bytes)",
            f -> f.device().allocateMapped(ElementType.F64, 1L << 56),
            CudaDriverError.class,
            "cuMemHostAlloc",
            String.valueOf(8L << 56),
            "page-locked host memory")
        .rejects(
            "attribute(null)", f -> f.device().attribute((Device.Attribute) null), NPE, "attribute")
        .rejects(
            "attribute with an unknown CUdevice_attribute number",
            f -> f.device().attribute(-1),
            CudaDriverError.class,
            "cuDeviceGetAttribute",
            "-1")
        .cases();
  }

  // ---- Stream

  private static List<BadInputCase> stream() {
    return new Group("Stream")
        .rejects("syncOn(null)", f -> DeviceOp.value(1).syncOn(null), NPE, "stream")
        .rejects("asyncOn(null)", f -> DeviceOp.value(1).asyncOn(null), NPE, "stream")
        .rejects(
            "syncOn a closed stream",
            f -> DeviceOp.value(1).syncOn(f.closedStream()),
            ISE,
            "closed",
            "new")
        .rejects(
            "asyncOn a closed stream",
            f -> DeviceOp.value(1).asyncOn(f.closedStream()).join(),
            ISE,
            "closed",
            "new")
        .rejects(
            "synchronize() of a closed stream",
            f -> {
              f.closedStream().synchronize();
              return null;
            },
            ISE,
            "closed")
        .rejects("isIdle() of a closed stream", f -> f.closedStream().isIdle(), ISE, "closed")
        .rejects(
            "a fill of this platform's buffer on another platform's stream",
            f -> f.ints().fill(1).syncOn(f.foreign().stream()),
            IAE,
            "platform")
        .rejects(
            "a kernel over this platform's buffer on another platform's stream",
            f -> ConformanceKernels.inc(f.ints()).syncOn(f.foreign().stream()),
            IAE,
            "platform")
        .cases();
  }

  // ---- CudaEvent

  private static List<BadInputCase> event() {
    return new Group("CudaEvent")
        .rejects(
            "record() of a closed event",
            f -> f.closedEvent().record().syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "waitFor() of a closed event",
            f -> f.closedEvent().waitFor().syncOn(f.stream()),
            ISE,
            "closed")
        .rejects("isDone() of a closed event", f -> f.closedEvent().isDone(), ISE, "closed")
        .rejects(
            "synchronize() of a closed event",
            f -> {
              f.closedEvent().synchronize();
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "elapsedMillisSince a closed event",
            f -> {
              CudaEvent start = f.device().newEvent();
              start.record().syncOn(f.stream());
              start.close();
              return f.recordedEvent().elapsedMillisSince(start);
            },
            ISE,
            "closed")
        .rejects(
            "elapsedMillisSince(null)",
            f -> f.recordedEvent().elapsedMillisSince(null),
            NPE,
            "start")
        .rejects(
            "record() of another platform's event on this platform's stream",
            f -> f.foreignRecordedEvent().record().syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "record() of this platform's event on another platform's stream",
            f -> f.event().record().syncOn(f.foreign().stream()),
            IAE,
            "platform")
        .rejects(
            "waitFor() of another platform's event on this platform's stream",
            f -> f.foreignRecordedEvent().waitFor().syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "elapsedMillisSince another platform's event",
            f -> f.recordedEvent().elapsedMillisSince(f.foreignRecordedEvent()),
            IAE,
            "platform")
        .cases();
  }

  // ---- DeviceBuffer

  private static List<BadInputCase> deviceBuffer() {
    return new Group("DeviceBuffer")
        .rejects("allocate with a null type", f -> DeviceBuffer.allocate(null, 4), NPE, "type")
        .rejects(
            "zeros of 0 elements",
            f -> DeviceBuffer.zeros(ElementType.I32, 0),
            IAE,
            "at least one",
            "0")
        .rejects("zeros of -1 elements", f -> DeviceBuffer.zeros(ElementType.I32, -1), IAE, "-1")
        .rejects(
            "zeros whose byte size overflows a long",
            f -> DeviceBuffer.zeros(ElementType.I64, Long.MAX_VALUE / 4),
            IAE,
            String.valueOf(Long.MAX_VALUE / 4),
            "bytes",
            "at most|fewer|overflow|too large|exceeds")
        .rejectsWithEither(
            "allocate of more bytes than the device has",
            f ->
                DeviceBuffer.allocate(ElementType.I8, f.device().totalMemory() + 1)
                    .syncOn(f.stream()),
            CudaDriverError.class,
            IAE,
            "OUT_OF_MEMORY|memory")
        .rejects(
            "filled with a null value",
            f -> DeviceBuffer.filled(ElementType.F32, 4, null),
            NPE,
            "value")
        .rejects("fill(null)", f -> f.ints().fill(null), NPE, "value")
        .rejects(
            "fromArray((float[]) null)", f -> DeviceBuffer.fromArray((float[]) null), NPE, "data")
        .rejects(
            "fromArray of an empty float[]",
            f -> DeviceBuffer.fromArray(new float[0]),
            IAE,
            "empty")
        .rejects(
            "fromArray of an empty int[]", f -> DeviceBuffer.fromArray(new int[0]), IAE, "empty")
        .rejects(
            "fromSegment of 6 bytes as f32",
            f -> DeviceBuffer.fromSegment(ElementType.F32, MemorySegment.ofArray(new byte[6])),
            IAE,
            "whole number",
            "6")
        .rejects(
            "fromSegment with a null type",
            f -> DeviceBuffer.fromSegment(null, MemorySegment.ofArray(new byte[8])),
            NPE,
            "type")
        .rejects(
            "fromSegment with a null segment",
            f -> DeviceBuffer.fromSegment(ElementType.F32, null),
            NPE,
            "data")
        .rejects(
            "copyFrom a device buffer of another length",
            f -> f.ints().copyFrom(f.ints(3)),
            IAE,
            "length",
            "slice")
        .rejects(
            "copyFrom((DeviceBuffer) null)",
            f -> f.ints().copyFrom((DeviceBuffer<Integer>) null),
            NPE,
            "source")
        .rejects(
            "copyFrom a host buffer of another length",
            f -> f.ints().copyFrom(f.host(ElementType.I32, 3)),
            IAE,
            "length")
        .rejects(
            "copyTo a host buffer of another length",
            f -> f.ints().copyTo(f.host(ElementType.I32, 3)),
            IAE,
            "length")
        .rejects(
            "copyFrom a closed buffer",
            f -> f.ints().copyFrom(f.closedInts()).syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "copyFrom a closed host buffer",
            f -> f.floats().copyFrom(f.closedHost()).syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "fill of a closed buffer",
            f -> f.closedInts().fill(1).syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "toIntArray of a closed buffer",
            f -> f.closedInts().toIntArray().syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "duplicate of a closed buffer",
            f -> f.closedInts().duplicate().syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "a slice of a closed buffer filled",
            f -> f.closedInts().slice(0, 2).fill(1).syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "write into a closed buffer",
            f -> f.closedInts().write(new int[N]).syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "copyFrom another platform's buffer",
            f -> f.ints().copyFrom(f.foreignInts()).syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "another platform's buffer filled on this platform's stream",
            f -> f.foreignInts().fill(1).syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "copyFrom another platform's host buffer",
            f -> f.ints().copyFrom(f.foreignHostInts()).syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "copyTo another platform's host buffer",
            f -> f.ints().copyTo(f.foreignHostInts()).syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "write of 3 floats into 8", f -> f.floats().write(new float[3]), IAE, "3", "elements")
        .rejects("write of an int[] into f32", f -> f.floats().write(new int[N]), IAE, "f32", "i32")
        .rejects(
            "write of a segment of another size",
            f -> f.ints().write(MemorySegment.ofArray(new byte[5])),
            IAE,
            "5",
            "bytes")
        .rejects("write((int[]) null)", f -> f.ints().write((int[]) null), NPE, "data")
        .rejects("toFloatArray of an i32 buffer", f -> f.ints().toFloatArray(), IAE, "i32", "f32")
        .rejects("toShortArray of an f32 buffer", f -> f.floats().toShortArray(), IAE, "16-bit")
        .rejects("free() of a slice", f -> f.ints().slice(0, 2).free(), IAE, "slice")
        .rejects("slice(-1, 2)", f -> f.ints().slice(-1, 2), IOOBE, "-1")
        .rejects("slice(0, 0)", f -> f.ints().slice(0, 0), IAE, "at least one")
        .rejects("slice(length, 1)", f -> f.ints().slice(N, 1), IOOBE, String.valueOf(N))
        .rejects(
            "slice(2, Long.MAX_VALUE), whose end overflows",
            f -> f.ints().slice(2, Long.MAX_VALUE),
            IOOBE,
            String.valueOf(Long.MAX_VALUE))
        .cases();
  }

  // ---- HostBuffer

  private static List<BadInputCase> hostBuffer() {
    return new Group("HostBuffer")
        .rejects("get(-1)", f -> f.host(ElementType.F32, N).get(-1), IOOBE, "-1")
        .rejects("get(length)", f -> f.host(ElementType.F32, N).get(N), IOOBE, String.valueOf(N))
        .rejects(
            "set(0, null)",
            f -> {
              f.host(ElementType.F32, N).set(0, null);
              return null;
            },
            NPE,
            "value")
        .rejects(
            "write of 9 floats into 8",
            f -> {
              f.host(ElementType.F32, N).write(new float[N + 1]);
              return null;
            },
            IAE,
            String.valueOf(N + 1))
        .rejects(
            "write of an int[] into f32",
            f -> {
              f.host(ElementType.F32, N).write(new int[N]);
              return null;
            },
            IAE,
            "f32",
            "i32")
        .rejects(
            "write((float[]) null)",
            f -> {
              f.host(ElementType.F32, N).write((float[]) null);
              return null;
            },
            NPE,
            "data")
        .rejects(
            "toIntArray of an f32 buffer",
            f -> f.host(ElementType.F32, N).toIntArray(),
            IAE,
            "f32",
            "i32")
        .rejects("get of a closed buffer", f -> f.closedHost().get(0), ISE, "closed")
        .rejects("segment() of a closed buffer", f -> f.closedHost().segment(), ISE, "closed")
        .rejects(
            "write into a closed buffer",
            f -> {
              f.closedHost().write(new float[N]);
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "set in a closed buffer",
            f -> {
              f.closedHost().set(0, 1f);
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "toFloatArray of a closed buffer", f -> f.closedHost().toFloatArray(), ISE, "closed")
        .cases();
  }

  // ---- MappedHostBuffer

  private static List<BadInputCase> mappedHostBuffer() {
    return new Group("MappedHostBuffer")
        .rejects(
            "getIntAcquire(-1)", f -> f.mapped(ElementType.I32, N).getIntAcquire(-1), IOOBE, "-1")
        .rejects(
            "getIntAcquire(length)",
            f -> f.mapped(ElementType.I32, N).getIntAcquire(N),
            IOOBE,
            String.valueOf(N))
        .rejects(
            "setLongRelease(length)",
            f -> {
              f.mapped(ElementType.I64, N).setLongRelease(N, 1);
              return null;
            },
            IOOBE,
            String.valueOf(N))
        .rejects(
            "getIntAcquire of an f32 buffer",
            f -> f.mapped(ElementType.F32, N).getIntAcquire(0),
            IAE,
            "f32",
            "i32",
            "ElementType.I32")
        .rejects(
            "getLongAcquire of an i32 buffer",
            f -> f.mapped(ElementType.I32, N).getLongAcquire(0),
            IAE,
            "i32",
            "i64")
        .rejects(
            "setIntRelease on an i64 buffer",
            f -> {
              f.mapped(ElementType.I64, N).setIntRelease(0, 1);
              return null;
            },
            IAE,
            "i64",
            "i32")
        .rejects(
            "free() of the device view",
            f -> f.mapped(ElementType.I32, N).deviceView().free(),
            IAE,
            "MappedHostBuffer",
            "close")
        .rejects(
            "deviceView() of a closed buffer",
            f -> f.closedMapped().deviceView(),
            ISE,
            "closed",
            "allocateMapped")
        .rejects(
            "getIntAcquire of a closed buffer",
            f -> f.closedMapped().getIntAcquire(0),
            ISE,
            "closed")
        .rejects(
            "setIntRelease on a closed buffer",
            f -> {
              f.closedMapped().setIntRelease(0, 1);
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "a kernel launched on the view of a closed buffer",
            f -> {
              MappedHostBuffer<Integer> mapped = f.mapped(ElementType.I32, N);
              DeviceBuffer<Integer> view = mapped.deviceView();
              mapped.close();
              return ConformanceKernels.inc(view).syncOn(f.stream());
            },
            ISE,
            "closed",
            "MappedHostBuffer")
        .rejects(
            "a fill of a slice of the view of a closed buffer",
            f -> {
              MappedHostBuffer<Integer> mapped = f.mapped(ElementType.I32, N);
              DeviceBuffer<Integer> slice = mapped.deviceView().slice(1, 2);
              mapped.close();
              return slice.fill(3);
            },
            ISE,
            "closed",
            "MappedHostBuffer")
        .cases();
  }

  // ---- ElementType: values of one type given where another is declared (raw types)

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static List<BadInputCase> elementType() {
    return new Group("ElementType")
        .rejects(
            "filled of f32 with an Integer (raw type)",
            f -> DeviceBuffer.filled((ElementType) ElementType.F32, 4, 1),
            IAE,
            "f32",
            "Float",
            "Integer")
        .rejects(
            "fill of an f32 buffer with an Integer (raw type)",
            f -> ((DeviceBuffer) f.floats()).fill(1),
            IAE,
            "f32",
            "Float",
            "Integer")
        .rejects(
            "fill of an i32 buffer with a Long (raw type)",
            f -> ((DeviceBuffer) f.ints()).fill(1L),
            IAE,
            "i32",
            "Integer",
            "Long")
        .rejects(
            "fill of an f32 buffer with a String (raw type)",
            f -> ((DeviceBuffer) f.floats()).fill("one"),
            IAE,
            "f32",
            "Float",
            "String")
        .rejects(
            "set of an Integer in an f32 host buffer (raw type)",
            f -> {
              ((HostBuffer) f.host(ElementType.F32, N)).set(0, 1);
              return null;
            },
            IAE,
            "f32",
            "Float",
            "Integer")
        .rejects(
            "fromArray of short[] as f32 (raw type)",
            f -> DeviceBuffer.fromArray((ElementType) ElementType.F32, new short[] {1}),
            IAE,
            "16-bit",
            "f32")
        .rejects(
            "copyFrom a buffer of another element type (raw type)",
            f -> ((DeviceBuffer) f.ints()).copyFrom((DeviceBuffer) f.floats()),
            IAE,
            "element type")
        .rejects(
            "copyTo a host buffer of another element type (raw type)",
            f -> ((DeviceBuffer) f.ints()).copyTo((HostBuffer) f.host(ElementType.F32, N)),
            IAE,
            "element type")
        .cases();
  }

  // ---- Kernel

  private static List<BadInputCase> kernel() {
    LaunchConfig one = LaunchConfig.of(1, 32);
    Kernel inc = ConformanceKernels.INC;
    return new Group("Kernel")
        .rejects("launch with a null config", f -> inc.launch(null, N, f.ints()), NPE, "config")
        .rejects(
            "launch with a null argument array",
            f -> inc.launch(one, (Object[]) null),
            NPE,
            "arguments")
        .rejects("launch with too few arguments", f -> inc.launch(one, N), IAE, "takes 2", "got 1")
        .rejects(
            "launch with a Long where i32 is declared",
            f -> inc.launch(one, (long) N, f.ints()),
            IAE,
            "argument 0",
            "Integer",
            "Long")
        .rejects(
            "launch with an f32 buffer where i32* is declared",
            f -> inc.launch(one, N, f.floats()),
            IAE,
            "argument 1",
            "i32")
        .rejectsWithEither(
            "launch with a null argument",
            f -> inc.launch(one, N, null),
            IAE,
            NPE,
            "argument 1",
            "null")
        .rejects(
            "launch with a lazy op where a buffer is expected",
            f -> inc.launch(one, N, DeviceBuffer.zeros(ElementType.I32, N)),
            IAE,
            "argument 1",
            "DeviceBuffer",
            "then|execute|syncOn")
        .rejects(
            "launch over a closed buffer",
            f -> inc.launch(one, N, f.closedInts()).syncOn(f.stream()),
            ISE,
            "closed")
        .rejects(
            "launch over another platform's buffer",
            f -> inc.launch(one, N, f.foreignInts()).syncOn(f.stream()),
            IAE,
            "platform")
        .rejects(
            "a block of more threads than the device allows",
            f -> launchInc(f, LaunchConfig.of(Dim3.of(1), overThreadLimit(f))),
            IAE,
            "threads",
            "{MAX_THREADS_PER_BLOCK}")
        .rejects(
            "a block wider in x than the device allows",
            f ->
                launchInc(
                    f,
                    LaunchConfig.of(
                        Dim3.of(1), Dim3.of(f.limit(Device.Attribute.MAX_BLOCK_DIM_X) + 1))),
            IAE,
            "block",
            "{MAX_BLOCK_DIM_X}")
        .rejects(
            "a block deeper in z than the device allows",
            f ->
                launchInc(
                    f,
                    LaunchConfig.of(
                        Dim3.of(1), Dim3.of(1, 1, f.limit(Device.Attribute.MAX_BLOCK_DIM_Z) + 1))),
            IAE,
            "block",
            "{MAX_BLOCK_DIM_Z}")
        .rejects(
            "a grid taller in y than the device allows",
            f ->
                launchInc(
                    f,
                    LaunchConfig.of(
                        Dim3.of(1, f.limit(Device.Attribute.MAX_GRID_DIM_Y) + 1), Dim3.of(32))),
            IAE,
            "grid",
            "{MAX_GRID_DIM_Y}")
        .rejects(
            "a grid deeper in z than the device allows",
            f ->
                launchInc(
                    f,
                    LaunchConfig.of(
                        Dim3.of(1, 1, f.limit(Device.Attribute.MAX_GRID_DIM_Z) + 1), Dim3.of(32))),
            IAE,
            "grid",
            "{MAX_GRID_DIM_Z}")
        .rejects(
            "more dynamic shared memory than the device allows",
            f ->
                launchInc(
                    f,
                    one.withSharedMemory(
                        f.limit(Device.Attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) + 1)),
            IAE,
            "shared memory",
            "{MAX_SHARED_MEMORY_PER_BLOCK}|{MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}")
        .rejects(
            "a block of more threads than the device allows, captured",
            f -> {
              DeviceBuffer<Integer> counter = f.ints();
              return CudaGraph.capture(
                  f.stream(),
                  inc.launch(LaunchConfig.of(Dim3.of(1), overThreadLimit(f)), N, counter));
            },
            IAE,
            "threads",
            "{MAX_THREADS_PER_BLOCK}")
        .rejects(
            "runReference of a kernel without a Java reference",
            f -> {
              KernelImage.ptxResource(MethodHandles.lookup(), PTX_RESOURCE)
                  .kernel("inc", KernelParam.I32, KernelParam.pointer(ElementType.I32))
                  .runReference(one, N, new int[N]);
              return null;
            },
            ISE,
            "withReference")
        .rejects(
            "runReference with too few arguments",
            f -> {
              inc.runReference(one, N);
              return null;
            },
            IAE,
            "takes 2")
        .rejects(
            "load(null)",
            f -> {
              inc.load(null);
              return null;
            },
            NPE,
            "device")
        .cases();
  }

  private static Dim3 overThreadLimit(BadInputFixture f) {
    int threads = f.limit(Device.Attribute.MAX_THREADS_PER_BLOCK);
    int x = Math.min(f.limit(Device.Attribute.MAX_BLOCK_DIM_X), threads);
    return Dim3.of(x, threads / x + 1);
  }

  private static @Nullable Object launchInc(BadInputFixture f, LaunchConfig config) {
    return ConformanceKernels.INC.launch(config, N, f.ints()).syncOn(f.stream());
  }

  // ---- KernelImage

  private static List<BadInputCase> kernelImage() {
    KernelImage image = ConformanceKernels.IMAGE;
    return new Group("KernelImage")
        .rejects("ptx(null)", f -> KernelImage.ptx(null), NPE, "text")
        .rejects("cubin(null)", f -> KernelImage.cubin(null), NPE, "image")
        .rejects("fatbin(null)", f -> KernelImage.fatbin(null), NPE, "image")
        .rejects(
            "cudaSource with a null program name",
            f -> KernelImage.cudaSource(null, ""),
            NPE,
            "programName")
        .rejects(
            "cudaSource with null source", f -> KernelImage.cudaSource("x.cu", null), NPE, "source")
        .rejects(
            "ptxResource of a missing resource",
            f -> KernelImage.ptxResource(BadInputCases.class, "no-such-kernels.ptx"),
            IAE,
            "no-such-kernels.ptx")
        .rejects(
            "ptxResource with a lookup that is not full-privilege",
            f ->
                KernelImage.ptxResource(
                    MethodHandles.lookup().dropLookupMode(MethodHandles.Lookup.PRIVATE),
                    PTX_RESOURCE),
            IAE,
            "lookup")
        .rejects("kernel(null)", f -> image.kernel(null), NPE, "name")
        .rejects(
            "kernel with a null parameter array",
            f -> image.kernel("inc", (KernelParam[]) null),
            NPE,
            "parameters")
        .rejects(
            "kernel with a null parameter",
            f -> image.kernel("inc", KernelParam.I32, null),
            NPE,
            "parameter")
        .rejects(
            "kernel declared with fewer parameters than its PTX entry",
            f -> image.kernel("inc", KernelParam.I32),
            IAE,
            "inc",
            "ptx")
        .rejects(
            "a kernel the image lacks, loaded",
            f -> {
              image.kernel("no_such_kernel", KernelParam.I32).load(f.device());
              return null;
            },
            CudaDriverError.class,
            "no_such_kernel")
        .rejects(
            "withReference with a null kernel name",
            f -> image.withReference(null, call -> {}),
            NPE,
            "kernelName")
        .rejects(
            "withReference with a null reference",
            f -> image.withReference("inc", null),
            NPE,
            "reference")
        .rejects(
            "CUDA source that does not compile, loaded",
            f -> {
              KernelImage.cudaSource("broken.cu", "extern \"C\" __global__ void k(int n) {")
                  .kernel("k", KernelParam.I32)
                  .load(f.device());
              return null;
            },
            IAE,
            "broken.cu",
            "compile")
        .cases();
  }

  // ---- KernelParam

  private static List<BadInputCase> kernelParam() {
    return new Group("KernelParam")
        .rejects("pointer(null)", f -> KernelParam.pointer(null), NPE, "type")
        .cases();
  }

  // ---- LaunchConfig

  private static List<BadInputCase> launchConfig() {
    return new Group("LaunchConfig")
        .rejects(
            "covering(Long.MAX_VALUE, 256), whose block count overflows",
            f -> LaunchConfig.covering(Long.MAX_VALUE, 256),
            IAE,
            String.valueOf(Long.MAX_VALUE),
            "blocks")
        .rejects(
            "covering(2^42, 1), more blocks than an int",
            f -> LaunchConfig.covering(1L << 42, 1),
            IAE,
            "blocks",
            "bigger blocks|larger blocks|more threads")
        .rejects("covering(0, 256)", f -> LaunchConfig.covering(0, 256), IAE, ">= 1|at least 1")
        .rejects(
            "covering(10, 0)", f -> LaunchConfig.covering(10, 0), IAE, "block", ">= 1|at least 1")
        .rejects("a null grid", f -> new LaunchConfig(null, Dim3.of(1), 0), NPE, "grid")
        .rejects("a null block", f -> new LaunchConfig(Dim3.of(1), null, 0), NPE, "block")
        .rejects(
            "withSharedMemory(-1)",
            f -> LaunchConfig.of(1, 1).withSharedMemory(-1),
            IAE,
            "shared memory",
            "-1")
        .rejects("of(0, 32)", f -> LaunchConfig.of(0, 32), IAE, "at least 1", "0")
        .cases();
  }

  // ---- Dim3

  private static List<BadInputCase> dim3() {
    return new Group("Dim3")
        .rejects("of(0)", f -> Dim3.of(0), IAE, "at least 1", "0")
        .rejects("(1, -2, 1)", f -> new Dim3(1, -2, 1), IAE, "-2")
        .rejects("of(1, 1, 0)", f -> Dim3.of(1, 1, 0), IAE, "at least 1")
        .cases();
  }

  // ---- DeviceOp

  private static List<BadInputCase> deviceOp() {
    return new Group("DeviceOp")
        .rejects(
            "map(null)", f -> DeviceOp.value(1).then(DeviceOp::value).map(null), NPE, "function")
        .rejects("then(null)", f -> DeviceOp.value(1).then(null), NPE, "next")
        .rejects(
            "andThen(null)",
            f -> DeviceOp.value(1).then(DeviceOp::value).andThen(null),
            NPE,
            "next")
        .rejects(
            "zip(null, combine)",
            f -> DeviceOp.value(1).then(DeviceOp::value).zip(null, (a, b) -> a),
            NPE,
            "other")
        .rejects(
            "zip(op, null)",
            f -> DeviceOp.value(1).then(DeviceOp::value).zip(DeviceOp.value(2), null),
            NPE,
            "combine")
        .rejects("zipAll(null)", f -> DeviceOp.zipAll(null), NPE, "ops")
        .rejects(
            "zipAll of a list holding null",
            f -> DeviceOp.zipAll(Arrays.asList(DeviceOp.value(1), null)),
            NPE,
            "ops")
        .rejects(
            "then whose function returns null",
            f -> DeviceOp.value(1).then(x -> null).syncOn(f.stream()),
            NPE,
            "then",
            "null")
        .rejects(
            "an op executed twice",
            f -> {
              DeviceOp<Integer> op = DeviceOp.value(1).then(DeviceOp::value);
              op.syncOn(f.stream());
              return op.syncOn(f.stream());
            },
            ISE,
            "already executed",
            "shared")
        .rejects(
            "an op executed twice, the second time asynchronously",
            f -> {
              DeviceOp<Integer> op = DeviceOp.value(1).then(DeviceOp::value);
              op.syncOn(f.stream());
              return op.asyncOn(f.stream()).join();
            },
            ISE,
            "already executed")
        .rejects("withRawStream(null)", f -> DeviceOp.withRawStream(null), NPE, "function")
        .rejects("hostCallback(null)", f -> DeviceOp.hostCallback(null), NPE, "callback")
        .rejects(
            "syncOn inside another op's function",
            f ->
                DeviceOp.value(1).map(x -> DeviceOp.value(x).syncOn(f.stream())).syncOn(f.stream()),
            ReentrantExecutionException.class,
            "compose")
        .cases();
  }

  // ---- GraphNode

  private static List<BadInputCase> graphNode() {
    return new Group("GraphNode")
        .rejects("map(null)", f -> DeviceOp.value(1).map(null), NPE, "function")
        .rejects("thenNode(null)", f -> DeviceOp.value(1).thenNode(null), NPE, "next")
        .rejects(
            "thenNode whose function returns null",
            f -> DeviceOp.value(1).thenNode(x -> null).syncOn(f.stream()),
            NPE,
            "thenNode",
            "null")
        .rejects("andThen(null)", f -> DeviceOp.value(1).andThen((GraphNode<?>) null), NPE, "next")
        .rejects(
            "zip(null, combine)",
            f -> DeviceOp.value(1).zip((GraphNode<Integer>) null, (a, b) -> a),
            NPE,
            "other")
        .rejects(
            "sequence((GraphNode[]) null)",
            f -> GraphNode.sequence((GraphNode<?>[]) null),
            NPE,
            "nodes")
        .rejects(
            "sequence holding a null node",
            f -> GraphNode.sequence(DeviceOp.value(1), null),
            NPE,
            "node")
        .rejects(
            "sequence((List) null)",
            f -> GraphNode.sequence((List<GraphNode<?>>) null),
            NPE,
            "nodes")
        .cases();
  }

  // ---- CudaGraph

  private static List<BadInputCase> cudaGraph() {
    return new Group("CudaGraph")
        .rejects(
            "capture with a null stream",
            f -> CudaGraph.capture(null, DeviceOp.value(1)),
            NPE,
            "stream")
        .rejects("capture of a null op", f -> CudaGraph.capture(f.stream(), null), NPE, "op")
        .rejects(
            "capture with a null mode",
            f -> CudaGraph.capture(f.stream(), (CaptureMode) null, DeviceOp.value(1)),
            NPE,
            "mode")
        .rejects("scope with a null stream", f -> CudaGraph.scope(null, s -> {}), NPE, "stream")
        .rejects("scope with a null body", f -> CudaGraph.scope(f.stream(), null), NPE, "body")
        .rejects(
            "capture on a closed stream",
            f -> CudaGraph.capture(f.closedStream(), DeviceOp.value(1)),
            ISE,
            "closed")
        .rejects(
            "capture of a kernel over a closed buffer",
            f -> CudaGraph.capture(f.stream(), ConformanceKernels.inc(f.closedInts())),
            ISE,
            "closed")
        .rejects(
            "capture of an op already executed",
            f -> {
              GraphNode<@Nullable Void> op = ConformanceKernels.inc(f.ints());
              op.syncOn(f.stream());
              return CudaGraph.capture(f.stream(), op);
            },
            ISE,
            "already executed")
        .rejects(
            "capture of an allocation",
            f -> CudaGraph.capture(f.stream(), DeviceBuffer.zeros(ElementType.I32, N)),
            GraphCaptureException.class,
            "allocat",
            "before capturing")
        .rejects(
            "capture on another platform's stream of a kernel over this platform's buffer",
            f -> CudaGraph.capture(f.foreign().stream(), ConformanceKernels.inc(f.ints())),
            IAE,
            "platform")
        .rejects(
            "capture inside another op's function",
            f ->
                DeviceOp.value(1)
                    .map(x -> CudaGraph.capture(f.stream(), DeviceOp.value(x)))
                    .syncOn(f.stream()),
            ReentrantExecutionException.class,
            "compose")
        .rejects("launch() of a closed graph", f -> f.closedGraph().launch(), ISE, "closed")
        .rejects("nodeCount() of a closed graph", f -> f.closedGraph().nodeCount(), ISE, "closed")
        .rejects(
            "writeDot of a closed graph",
            f -> {
              Path dot = Files.createTempFile("bad-input", ".dot");
              try {
                f.closedGraph().writeDot(dot);
              } finally {
                Files.deleteIfExists(dot);
              }
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "writeDot(null)",
            f -> {
              f.graph().writeDot(null);
              return null;
            },
            NPE,
            "path")
        .rejects(
            "update(null)",
            f -> {
              f.graph().update(null);
              return null;
            },
            NPE,
            "node")
        .rejects(
            "update of a closed graph",
            f -> {
              f.closedGraph().update(f.ints().fill(1));
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "update with a fill of a closed buffer",
            f -> {
              f.graph().update(f.closedInts().fill(1));
              return null;
            },
            ISE,
            "closed")
        .rejects(
            "update with a fill of another platform's buffer",
            f -> {
              f.graph().update(f.foreignInts().fill(1));
              return null;
            },
            IAE,
            "platform")
        .rejects(
            "takeOutput() twice",
            f -> {
              CudaGraph<@Nullable Void> graph = f.graph();
              graph.takeOutput();
              return graph.takeOutput();
            },
            ISE,
            "already taken")
        .cases();
  }

  // ---- Scope

  private static List<BadInputCase> scope() {
    return new Group("Scope")
        .rejects("record(null)", f -> CudaGraph.scope(f.stream(), s -> s.record(null)), NPE, "node")
        .rejects(
            "record after the capture ended",
            f -> {
              AtomicReference<Scope> escaped = new AtomicReference<>();
              CudaGraph.scope(f.stream(), escaped::set).close();
              return escaped.get().record(DeviceOp.value(1));
            },
            ISE,
            "ended")
        .rejects(
            "record from another thread",
            f ->
                CudaGraph.scope(
                    f.stream(), s -> onAnotherThread(() -> s.record(DeviceOp.value(1)))),
            ISE,
            "thread")
        .rejects(
            "syncOn inside the scope",
            f -> CudaGraph.scope(f.stream(), s -> DeviceOp.value(1).syncOn(f.stream())),
            ReentrantExecutionException.class,
            "Scope.record|compose")
        .rejects(
            "record of a kernel over a closed buffer",
            f -> {
              DeviceBuffer<Integer> closed = f.closedInts();
              return CudaGraph.scope(f.stream(), s -> s.record(ConformanceKernels.inc(closed)));
            },
            ISE,
            "closed")
        .rejects(
            "record of a node already executed",
            f -> {
              GraphNode<@Nullable Void> node = ConformanceKernels.inc(f.ints());
              node.syncOn(f.stream());
              return CudaGraph.scope(f.stream(), s -> s.record(node));
            },
            ISE,
            "already executed")
        .rejects(
            "record of a kernel over another platform's buffer",
            f -> {
              DeviceBuffer<Integer> other = f.foreignInts();
              return CudaGraph.scope(f.stream(), s -> s.record(ConformanceKernels.inc(other)));
            },
            IAE,
            "platform")
        .cases();
  }

  /** Runs {@code action} on a new thread, waits, and rethrows what it threw as itself. */
  private static void onAnotherThread(Runnable action) {
    AtomicReference<@Nullable Throwable> thrown = new AtomicReference<>();
    Thread t =
        Thread.ofPlatform()
            .name("bad-input-other-thread")
            .start(
                () -> {
                  try {
                    action.run();
                  } catch (Throwable e) {
                    thrown.set(e);
                  }
                });
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Throwable e = thrown.get();
    if (e instanceof RuntimeException r) {
      throw r;
    }
    if (e instanceof Error r) {
      throw r;
    }
    if (e != null) {
      throw new CompletionException(e);
    }
  }

  // ---- GraphLaunch

  private static List<BadInputCase> graphLaunch() {
    return new Group("GraphLaunch")
        .rejects(
            "a launch executed twice",
            f -> {
              GraphLaunch launch = f.graph().launch();
              launch.syncOn(f.stream());
              return launch.syncOn(f.stream());
            },
            ISE,
            "already executed")
        .rejects(
            "a launch recorded into another capture",
            f -> CudaGraph.capture(f.stream(), f.graph().launch()),
            GraphCaptureException.class,
            "after the capture")
        .rejects(
            "another platform's graph launched on this platform's stream",
            f -> f.foreignGraph().launch().syncOn(f.stream()),
            IAE,
            "platform")
        .cases();
  }

  // ---- Module

  /** A module that copies its input into a device buffer and back out. */
  private static Module<float[], float[]> floatsModule(BadInputFixture f) {
    HostBuffer<Float> staging = f.host(ElementType.F32, N);
    HostBuffer<Float> out = f.host(ElementType.F32, N);
    DeviceBuffer<Float> x = f.floats();
    return Module.capture(
        f.stream(), InputBinding.floats(staging, x), x.copyTo(out), ignored -> out.toFloatArray());
  }

  private static List<BadInputCase> module() {
    return new Group("Module")
        .rejects(
            "capture with a null stream",
            f ->
                Module.capture(
                    null, InputBinding.device(f.ints()), DeviceOp.value(1), (Integer c) -> c),
            NPE,
            "stream")
        .rejects(
            "capture with a null input binding",
            f -> Module.capture(f.stream(), null, DeviceOp.value(1), c -> c),
            NPE,
            "input")
        .rejects(
            "capture of a null forward op",
            f -> Module.capture(f.stream(), InputBinding.device(f.ints()), null, c -> c),
            NPE,
            "forward|op")
        .rejects(
            "capture with a null output function",
            f -> Module.capture(f.stream(), InputBinding.device(f.ints()), DeviceOp.value(1), null),
            NPE,
            "output")
        .rejects(
            "capture of a forward op over a closed buffer",
            f ->
                Module.capture(
                    f.stream(),
                    InputBinding.device(f.ints()),
                    ConformanceKernels.inc(f.closedInts()),
                    c -> c),
            ISE,
            "closed")
        .rejects(
            "forward on a closed module",
            f -> {
              Module<float[], float[]> module = floatsModule(f);
              module.close();
              return module.forward(new float[N]);
            },
            ISE,
            "closed")
        .rejects(
            "forward on a closed chain of modules",
            f -> {
              Module<float[], float[]> chain = floatsModule(f).andThen(floatsModule(f));
              chain.close();
              return chain.forward(new float[N]);
            },
            ISE,
            "closed")
        .rejects(
            "forward of 3 floats into a module of 8",
            f -> {
              try (Module<float[], float[]> module = floatsModule(f)) {
                return module.forward(new float[3]);
              }
            },
            IAE,
            String.valueOf(N),
            "3")
        .rejects(
            "forward(null)",
            f -> {
              try (Module<float[], float[]> module = floatsModule(f)) {
                return module.forward(null);
              }
            },
            NPE,
            "input")
        .rejects(
            "forward with the staging buffer closed",
            f -> {
              HostBuffer<Float> staging = f.host(ElementType.F32, N);
              HostBuffer<Float> out = f.host(ElementType.F32, N);
              DeviceBuffer<Float> x = f.floats();
              try (Module<float[], float[]> module =
                  Module.capture(
                      f.stream(),
                      InputBinding.floats(staging, x),
                      x.copyTo(out),
                      ignored -> out.toFloatArray())) {
                staging.close();
                return module.forward(new float[N]);
              }
            },
            ISE,
            "closed")
        .rejects(
            "forward with a binding that returns null",
            f -> {
              DeviceBuffer<Float> x = f.floats();
              InputBinding<float[]> binding = input -> null;
              try (Module<float[], float[]> module =
                  Module.capture(f.stream(), binding, x.fill(0f), ignored -> new float[0])) {
                return module.forward(new float[N]);
              }
            },
            NPE,
            "binding|copyIn",
            "null")
        .rejects(
            "andThen(null)",
            f -> {
              try (Module<float[], float[]> module = floatsModule(f)) {
                return module.andThen(null);
              }
            },
            NPE,
            "next")
        .cases();
  }

  // ---- InputBinding

  private static List<BadInputCase> inputBinding() {
    return new Group("InputBinding")
        .rejects(
            "floats with a null staging buffer",
            f -> InputBinding.floats(null, f.floats()),
            NPE,
            "staging")
        .rejects(
            "floats with a null target",
            f -> InputBinding.floats(f.host(ElementType.F32, N), null),
            NPE,
            "target")
        .rejects(
            "floats with a staging buffer of another length",
            f -> InputBinding.floats(f.host(ElementType.F32, 3), f.floats()),
            IAE,
            "same length")
        .rejects("device(null)", f -> InputBinding.device(null), NPE, "target")
        .rejects(
            "device binding given a buffer of another length",
            f -> InputBinding.device(f.ints()).copyIn(f.ints(3)),
            IAE,
            "length")
        .rejects(
            "device binding given another platform's buffer",
            f -> InputBinding.device(f.ints()).copyIn(f.foreignInts()).syncOn(f.stream()),
            IAE,
            "platform")
        .cases();
  }

  // ---- SchedulingPolicy

  private static List<BadInputCase> schedulingPolicy() {
    return new Group("SchedulingPolicy")
        .rejects("roundRobin(0)", f -> SchedulingPolicy.roundRobin(0), IAE, "at least one", "0")
        .rejects("roundRobin(-2)", f -> SchedulingPolicy.roundRobin(-2), IAE, "-2")
        .rejectsWithEither(
            "a policy that returns null, with sync()",
            f -> withPolicy(f, device -> null, () -> DeviceOp.value(1).sync()),
            NPE,
            ISE,
            "policy",
            "null")
        .rejectsWithEither(
            "a policy that returns null, with async()",
            f -> withPolicy(f, device -> null, () -> DeviceOp.value(1).async().join()),
            NPE,
            ISE,
            "policy",
            "null")
        .rejects(
            "a policy that returns a closed stream",
            f -> {
              Stream closed = f.closedStream();
              return withPolicy(f, device -> closed, () -> DeviceOp.value(1).sync());
            },
            ISE,
            "closed")
        .rejectsWithEither(
            "a policy that returns another platform's stream",
            f -> {
              Stream other = f.foreign().stream();
              return withPolicy(f, device -> other, () -> DeviceOp.value(1).sync());
            },
            IAE,
            ISE,
            "policy",
            "platform|device")
        .cases();
  }

  /** Calls {@code action} with this platform current and {@code policy} set (restored after). */
  private static @Nullable Object withPolicy(
      BadInputFixture f, SchedulingPolicy policy, java.util.function.Supplier<?> action) {
    SchedulingPolicy before = f.platform().schedulingPolicy();
    f.platform().setSchedulingPolicy(policy);
    try {
      return f.platform().callAsCurrent(action);
    } finally {
      f.platform().setSchedulingPolicy(before);
    }
  }
}
