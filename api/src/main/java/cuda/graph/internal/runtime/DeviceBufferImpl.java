// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.HostBuffer;
import cuda.graph.internal.ops.AllocateOp;
import cuda.graph.internal.ops.ArrayReadOp;
import cuda.graph.internal.ops.ArrayWriteOp;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.ops.FillOp;
import cuda.graph.internal.ops.FreeOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** The implementation of {@link DeviceBuffer}. */
public final class DeviceBufferImpl<T> implements DeviceBuffer<T> {

  private final DeviceImpl device;
  private final ElementType<T> type;
  private final long length;
  private final long address;

  /** The owner's reference and the leases; null for a temporary, whose graph owns the memory. */
  private final @Nullable RefCount lifetime;

  /** Non-null for a temporary of a capture ({@code Scope.temporary}) and its slices. */
  private final @Nullable GraphTemporary temporary;

  /**
   * The buffer that owns the memory, for a slice; null for that owner itself. A slice keeps it
   * reachable: the cleaner closes an owner once it is unreachable, and that must not happen while a
   * view of its memory is still in use.
   */
  private final @Nullable DeviceBufferImpl<T> parent;

  /**
   * For the device view of mapped host memory (and its slices): the host buffer that owns the
   * memory. The view keeps it reachable, so its cleaner does not free memory the view is used for.
   */
  private final @Nullable HostBufferImpl<T> mappedFrom;

  private DeviceBufferImpl(
      DeviceImpl device,
      ElementType<T> type,
      long length,
      long address,
      @Nullable RefCount lifetime,
      @Nullable GraphTemporary temporary,
      @Nullable DeviceBufferImpl<T> parent,
      @Nullable HostBufferImpl<T> mappedFrom) {
    this.device = device;
    this.type = type;
    this.length = length;
    this.address = address;
    this.lifetime = lifetime;
    this.temporary = temporary;
    this.parent = parent;
    this.mappedFrom = mappedFrom;
  }

  /**
   * Wraps memory just allocated on {@code device} with {@code cuMemAllocAsync}; frees it on the
   * device's release stream.
   */
  public static <T> DeviceBufferImpl<T> allocated(
      DeviceImpl device, ElementType<T> type, long length, long address, boolean exclusive) {
    DeviceImpl.NativeRelease free = driver -> driver.memFreeAsync(address, device.releaseStream());
    RefCount lifetime = exclusive ? device.exclusiveLifetime(free) : device.lifetime(free);
    DeviceBufferImpl<T> buffer =
        new DeviceBufferImpl<>(device, type, length, address, lifetime, null, null, null);
    CudaPlatformImpl.CLEANER.register(buffer, lifetime::closeOwner);
    return buffer;
  }

  /**
   * The device's view of the mapped host memory {@code host} owns, at {@code devicePointer}: the
   * same elements and lifetime as {@code host}, so ops on the view lease the host buffer's memory.
   * The view owns nothing (closing it does nothing, freeing it is refused) and has no cleaner of
   * its own; it keeps {@code host} reachable.
   */
  public static <T> DeviceBufferImpl<T> mapped(HostBufferImpl<T> host, long devicePointer) {
    return new DeviceBufferImpl<>(
        host.device(),
        host.elementType(),
        host.length(),
        devicePointer,
        host.lifetime(),
        null,
        null,
        host);
  }

  /**
   * Wraps a graph allocation that {@code cuMemAllocAsync} just recorded into the capture {@code
   * execution} records: a temporary of that capture, which the capture's free node releases. No
   * cleaner and no lease: the graph owns the memory.
   */
  public static <T> DeviceBufferImpl<T> temporary(
      Execution execution, ElementType<T> type, long length, long address) {
    GraphTemporary temporary = execution.newTemporary(address, length * type.byteSize());
    return new DeviceBufferImpl<>(
        execution.device, type, length, address, null, temporary, null, null);
  }

  // ---- allocation ops

  /** {@return an op that allocates {@code length} elements of uninitialized memory} */
  public static <T> DeviceOp<DeviceBuffer<T>> allocate(ElementType<T> type, long length) {
    return new AllocateOp<>(type, length, AllocateOp.Init.NONE, 0, null, null);
  }

  /**
   * {@return an op that allocates {@code length} elements of uninitialized memory whose uses never
   * overlap}
   */
  public static <T> DeviceOp<DeviceBuffer<T>> allocateExclusive(ElementType<T> type, long length) {
    return new AllocateOp<>(type, length, AllocateOp.Init.NONE, 0, null, null, true);
  }

  /** {@return an op that allocates {@code length} elements set to zero} */
  public static <T> DeviceOp<DeviceBuffer<T>> zeros(ElementType<T> type, long length) {
    return new AllocateOp<>(type, length, AllocateOp.Init.FILL, 0, null, null);
  }

  /** {@return an op that allocates {@code length} elements set to {@code value}} */
  public static <T> DeviceOp<DeviceBuffer<T>> filled(ElementType<T> type, long length, T value) {
    return new AllocateOp<>(
        type, length, AllocateOp.Init.FILL, FillOp.bits(type, value), null, null);
  }

  /** {@return an op that allocates a buffer holding a copy of {@code data}} */
  public static DeviceOp<DeviceBuffer<Float>> fromArray(float[] data) {
    Objects.requireNonNull(data, "data");
    return fromHeap(ElementType.F32, MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that allocates a buffer holding a copy of {@code data}} */
  public static DeviceOp<DeviceBuffer<Double>> fromArray(double[] data) {
    Objects.requireNonNull(data, "data");
    return fromHeap(ElementType.F64, MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that allocates a buffer holding a copy of {@code data}} */
  public static DeviceOp<DeviceBuffer<Integer>> fromArray(int[] data) {
    Objects.requireNonNull(data, "data");
    return fromHeap(ElementType.I32, MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that allocates a buffer holding a copy of {@code data}} */
  public static DeviceOp<DeviceBuffer<Long>> fromArray(long[] data) {
    Objects.requireNonNull(data, "data");
    return fromHeap(ElementType.I64, MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that allocates a buffer holding a copy of {@code data}} */
  public static DeviceOp<DeviceBuffer<Byte>> fromArray(byte[] data) {
    Objects.requireNonNull(data, "data");
    return fromHeap(ElementType.I8, MemorySegment.ofArray(data.clone()));
  }

  /**
   * {@return an op that allocates a buffer of a 16-bit type ({@link ElementType#I16}, {@link
   * ElementType#F16} or {@link ElementType#BF16}) holding a copy of {@code data}}
   */
  public static DeviceOp<DeviceBuffer<Short>> fromArray(ElementType<Short> type, short[] data) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(data, "data");
    if (type.byteSize() != 2) {
      throw new IllegalArgumentException(
          "short[] data fits a 16-bit element type (i16, f16 or bf16), not "
              + type
              + "; for "
              + type
              + " use "
              + arrayFor(type)
              + " data");
    }
    return fromHeap(type, MemorySegment.ofArray(data.clone()));
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}, whose size must be a
   * whole number of elements. The contents are copied when the op is built.
   */
  public static <T> DeviceOp<DeviceBuffer<T>> fromSegment(ElementType<T> type, MemorySegment data) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(data, "data");
    long size = data.byteSize();
    if (size == 0 || size % type.byteSize() != 0) {
      throw new IllegalArgumentException(
          "a "
              + type
              + " buffer needs a non-empty whole number of "
              + type.byteSize()
              + "-byte elements, got "
              + size
              + " bytes");
    }
    if (size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "copy more than 2 GiB through a HostBuffer; "
              + size
              + " bytes is too large to stage at once");
    }
    return fromHeap(type, MemorySegment.ofArray(data.toArray(ValueLayout.JAVA_BYTE)));
  }

  /** An allocation initialized from host memory that nothing else references. */
  private static <T> DeviceOp<DeviceBuffer<T>> fromHeap(ElementType<T> type, MemorySegment data) {
    if (data.byteSize() == 0) {
      throw new IllegalArgumentException("cannot make a buffer from empty data");
    }
    return new AllocateOp<>(
        type, data.byteSize() / type.byteSize(), AllocateOp.Init.COPY_HOST, 0, data, null);
  }

  /** {@return an op that allocates a new buffer holding a copy of this one} */
  @Override
  public DeviceOp<DeviceBuffer<T>> duplicate() {
    refuseIfTemporary("duplicated into a new buffer (an allocation, which no graph node can be)");
    requireOpen();
    return new AllocateOp<>(type, length, AllocateOp.Init.COPY_DEVICE, 0, null, this);
  }

  // ---- ops on an existing buffer

  /** {@return a graph node that copies {@code source} (same type and length) into this buffer} */
  @Override
  public GraphNode<@Nullable Void> copyFrom(DeviceBuffer<T> source) {
    Objects.requireNonNull(source, "source");
    requireOpen();
    of(source).requireOpen();
    requireSameShape(source.elementType(), source.length(), source);
    return new CopyOp(CopyOp.Kind.DEVICE_TO_DEVICE, source, this, null, null, byteSize());
  }

  /**
   * {@return a graph node that copies pinned {@code source} into this buffer, reading it when it
   * executes}
   */
  @Override
  public GraphNode<@Nullable Void> copyFrom(HostBuffer<T> source) {
    Objects.requireNonNull(source, "source");
    requireOpen();
    HostBufferImpl.of(source).requireOpen();
    requireSameShape(source.elementType(), source.length(), source);
    return new CopyOp(CopyOp.Kind.HOST_TO_DEVICE, null, this, source, null, byteSize());
  }

  /** {@return a graph node that copies this buffer into pinned {@code target} when it executes} */
  @Override
  public GraphNode<@Nullable Void> copyTo(HostBuffer<T> target) {
    Objects.requireNonNull(target, "target");
    requireOpen();
    HostBufferImpl.of(target).requireOpen();
    requireSameShape(target.elementType(), target.length(), target);
    return new CopyOp(CopyOp.Kind.DEVICE_TO_HOST, this, null, null, target, byteSize());
  }

  /** {@return a graph node that sets every element to {@code value}} */
  @Override
  public GraphNode<@Nullable Void> fill(T value) {
    long bits = FillOp.bits(type, value);
    requireOpen();
    return new FillOp(this, bits);
  }

  /**
   * {@return an op that copies {@code data} into this buffer (staged through pinned memory; not a
   * graph node)}
   */
  @Override
  public DeviceOp<@Nullable Void> write(float[] data) {
    Objects.requireNonNull(data, "data");
    requireType(ElementType.F32, "write a float[] into it");
    return writeElements(MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that copies {@code data} into this buffer} */
  @Override
  public DeviceOp<@Nullable Void> write(double[] data) {
    Objects.requireNonNull(data, "data");
    requireType(ElementType.F64, "write a double[] into it");
    return writeElements(MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that copies {@code data} into this buffer} */
  @Override
  public DeviceOp<@Nullable Void> write(int[] data) {
    Objects.requireNonNull(data, "data");
    requireType(ElementType.I32, "write an int[] into it");
    return writeElements(MemorySegment.ofArray(data.clone()));
  }

  /** {@return an op that copies {@code data} into this buffer} */
  @Override
  public DeviceOp<@Nullable Void> write(long[] data) {
    Objects.requireNonNull(data, "data");
    requireType(ElementType.I64, "write a long[] into it");
    return writeElements(MemorySegment.ofArray(data.clone()));
  }

  /**
   * {@return an op that copies the bytes of {@code data} (exactly this buffer's size) into this
   * buffer}
   */
  @Override
  public DeviceOp<@Nullable Void> write(MemorySegment data) {
    Objects.requireNonNull(data, "data");
    refuseIfTemporary("written from the host");
    requireOpen();
    if (data.byteSize() != byteSize()) {
      throw new IllegalArgumentException(
          this
              + " is "
              + byteSize()
              + " bytes; cannot write "
              + data.byteSize()
              + " bytes into it; write exactly its size, or into a slice() of the size of the"
              + " data");
    }
    if (data.byteSize() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          this
              + " is "
              + byteSize()
              + " bytes, too large to copy from a segment at once (at most 2 GiB); write"
              + " slice()s of it in parts, or copy through a HostBuffer with copyFrom");
    }
    MemorySegment copy = MemorySegment.ofArray(data.toArray(ValueLayout.JAVA_BYTE));
    return new ArrayWriteOp(this, copy);
  }

  private DeviceOp<@Nullable Void> writeElements(MemorySegment data) {
    refuseIfTemporary("written from the host");
    requireOpen();
    if (data.byteSize() != byteSize()) {
      throw new IllegalArgumentException(
          this
              + " has "
              + length
              + " elements; cannot write "
              + data.byteSize() / type.byteSize()
              + " into it: write exactly "
              + length
              + ", or into a slice() of the length of the data");
    }
    return new ArrayWriteOp(this, data);
  }

  /**
   * {@return an op that reads this {@link ElementType#F32} buffer into a new array (waits for the
   * stream)}
   */
  @Override
  public DeviceOp<float[]> toFloatArray() {
    return read(ElementType.F32, s -> s.toArray(ValueLayout.JAVA_FLOAT));
  }

  /** {@return an op that reads this {@link ElementType#F64} buffer into a new array} */
  @Override
  public DeviceOp<double[]> toDoubleArray() {
    return read(ElementType.F64, s -> s.toArray(ValueLayout.JAVA_DOUBLE));
  }

  /** {@return an op that reads this {@link ElementType#I32} buffer into a new array} */
  @Override
  public DeviceOp<int[]> toIntArray() {
    return read(ElementType.I32, s -> s.toArray(ValueLayout.JAVA_INT));
  }

  /** {@return an op that reads this {@link ElementType#I64} buffer into a new array} */
  @Override
  public DeviceOp<long[]> toLongArray() {
    return read(ElementType.I64, s -> s.toArray(ValueLayout.JAVA_LONG));
  }

  /**
   * {@return an op that reads this 16-bit buffer ({@code i16}, {@code f16}, {@code bf16}) into a
   * new array}
   */
  @Override
  public DeviceOp<short[]> toShortArray() {
    if (type.byteSize() != 2) {
      throw new IllegalArgumentException(
          this + " holds " + type + ", not a 16-bit type: read it with " + readerFor(type));
    }
    refuseIfTemporary("read into a Java array");
    requireOpen();
    return new ArrayReadOp<>(this, s -> s.toArray(ValueLayout.JAVA_SHORT));
  }

  /** {@return an op that reads this buffer's raw bytes into a new array} */
  @Override
  public DeviceOp<byte[]> toByteArray() {
    refuseIfTemporary("read into a Java array");
    requireOpen();
    return new ArrayReadOp<>(this, s -> s.toArray(ValueLayout.JAVA_BYTE));
  }

  private <A> DeviceOp<A> read(ElementType<?> wanted, Function<MemorySegment, A> convert) {
    requireType(wanted, "read it as " + wanted);
    refuseIfTemporary("read into a Java array");
    requireOpen();
    return new ArrayReadOp<>(this, convert);
  }

  /**
   * {@return an op that closes this buffer in stream order}: the memory is released once the work
   * queued before the op (and every other use) has completed. Not a graph node.
   *
   * @throws IllegalArgumentException for a {@link #slice}, which owns no memory, and for the device
   *     view of a {@link cuda.graph.MappedHostBuffer}, whose buffer owns it
   */
  @Override
  public DeviceOp<@Nullable Void> free() {
    refuseIfTemporary("freed");
    if (mappedFrom != null) {
      throw new IllegalArgumentException(
          this
              + " is the device view of "
              + mappedFrom
              + ", which owns the memory: close the MappedHostBuffer once its last op is queued");
    }
    if (!isOwner()) {
      throw new IllegalArgumentException(
          this + " is a slice, which owns no memory: free the buffer it was sliced from");
    }
    requireOpen();
    return new FreeOp(this);
  }

  /**
   * {@return a view of {@code length} elements from {@code offset}, sharing this buffer's memory
   * and lifetime}
   */
  @Override
  public DeviceBufferImpl<T> slice(long offset, long length) {
    if (offset < 0 || length < 0 || offset > this.length - length) {
      throw new IndexOutOfBoundsException(
          this
              + ".slice("
              + offset
              + ", "
              + length
              + ") does not lie within the buffer: offset and length must not be negative, and"
              + " offset + length must be at most its length "
              + this.length);
    }
    if (length == 0) {
      throw new IllegalArgumentException(
          this + ".slice(" + offset + ", 0): a slice holds at least one element");
    }
    return new DeviceBufferImpl<>(
        device,
        type,
        length,
        address + offset * type.byteSize(),
        lifetime,
        temporary,
        parent == null ? this : parent,
        mappedFrom);
  }

  // ---- accessors

  /** {@return the element type} */
  @Override
  public ElementType<T> elementType() {
    return type;
  }

  /** {@return the number of elements} */
  @Override
  public long length() {
    return length;
  }

  /**
   * What memory a buffer is, as the driver maps it. A copy or fill node of an instantiated graph
   * cannot move an operand to memory of another kind in place: {@code
   * cuGraphExecMemcpyNodeSetParams} refuses a change of the operands' mappings.
   */
  public enum Memory {
    DEVICE("device memory"),
    TEMPORARY("a temporary's graph memory (Scope.temporary)"),
    MAPPED("mapped host memory (Device.allocateMapped)");

    private final String description;

    Memory(String description) {
      this.description = description;
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /** {@return what memory this buffer is} */
  public Memory memory() {
    return temporary != null
        ? Memory.TEMPORARY
        : mappedFrom != null ? Memory.MAPPED : Memory.DEVICE;
  }

  @Override
  public int alignment() {
    return (int) Math.min(256, Long.lowestOneBit(address));
  }

  /** {@return the size in bytes} */
  @Override
  public long byteSize() {
    return length * type.byteSize();
  }

  /** {@return the device the memory lives on} */
  @Override
  public DeviceImpl device() {
    return device;
  }

  /** {@return whether the memory was closed (it may still be alive for queued work)} */
  @Override
  public boolean isClosed() {
    return temporary != null ? temporary.ended() : owned().isClosed();
  }

  /**
   * Releases the memory once every queued use has completed. Idempotent; does nothing for a {@link
   * #slice} or the device view of a {@link cuda.graph.MappedHostBuffer}, which own no memory.
   */
  @Override
  public void close() {
    refuseIfTemporary("closed");
    if (isOwner()) {
      owned().closeOwner();
    }
  }

  private boolean isOwner() {
    return parent == null && mappedFrom == null;
  }

  public long address() {
    return address;
  }

  /** {@return the reference count of memory the library owns; never asked of a temporary} */
  public RefCount lifetime() {
    return owned();
  }

  /** {@return what makes this buffer a temporary of a capture, or null for memory it owns} */
  public @Nullable GraphTemporary temporary() {
    return temporary;
  }

  private RefCount owned() {
    RefCount owned = lifetime;
    if (owned == null) {
      throw new IllegalStateException(this + " is a temporary: its graph owns the memory");
    }
    return owned;
  }

  private void refuseIfTemporary(String use) {
    if (temporary != null) {
      temporary.refuse(this, use);
    }
  }

  /**
   * Fails if {@code buffer} is a temporary whose capture has ended: checked when a node that names
   * it is built (a kernel launch, a foreign node), so no op on it reaches the driver.
   *
   * @throws IllegalStateException naming the buffer, its capture and what to do
   */
  public static void requireLiveIfTemporary(DeviceBuffer<?> buffer) {
    GraphTemporary temporary = of(buffer).temporary;
    if (temporary != null) {
      temporary.requireLive(buffer);
    }
  }

  private void requireType(ElementType<?> wanted, String use) {
    if (wanted != type) {
      throw new IllegalArgumentException(
          this
              + " holds "
              + type
              + ", not "
              + wanted
              + ", so you cannot "
              + use
              + ": "
              + (use.startsWith("read")
                  ? "read it with " + readerFor(type)
                  : "write " + writerFor(type)));
    }
  }

  /**
   * Fails if this buffer is closed: an op built on it could only fail when it executes.
   *
   * @throws IllegalStateException naming this buffer
   */
  public void requireOpen() {
    if (temporary != null) {
      temporary.requireLive(this);
      return;
    }
    if (owned().isClosed()) {
      throw new IllegalStateException(
          this
              + " is closed"
              + (mappedFrom != null
                  ? " (the MappedHostBuffer it views, " + mappedFrom + ", was closed)"
                  : isOwner() ? "" : " (the buffer it was sliced from was closed)")
              + "; build ops only on open buffers: allocate a new one, or close it only after its"
              + " last use");
    }
  }

  /** {@return the read op for a buffer of {@code type}, e.g. {@code toIntArray()}} */
  private static String readerFor(ElementType<?> type) {
    if (type == ElementType.F32) {
      return "toFloatArray()";
    } else if (type == ElementType.F64) {
      return "toDoubleArray()";
    } else if (type == ElementType.I32) {
      return "toIntArray()";
    } else if (type == ElementType.I64) {
      return "toLongArray()";
    } else if (type.byteSize() == 2) {
      return "toShortArray()";
    }
    return "toByteArray()";
  }

  /** {@return what to write into a buffer of {@code type}, e.g. {@code an int[]}} */
  private static String writerFor(ElementType<?> type) {
    String array = arrayFor(type);
    return array.equals("float[]")
            || array.equals("double[]")
            || array.equals("int[]")
            || array.equals("long[]")
        ? "an " + array + " (or its bytes with write(MemorySegment))"
        : "its bytes with write(MemorySegment), e.g. MemorySegment.ofArray(a " + array + ")";
  }

  /** {@return the Java array type that holds elements of {@code type}, e.g. {@code int[]}} */
  static String arrayFor(ElementType<?> type) {
    if (type == ElementType.F32) {
      return "float[]";
    } else if (type == ElementType.F64) {
      return "double[]";
    } else if (type == ElementType.I32) {
      return "int[]";
    } else if (type == ElementType.I64) {
      return "long[]";
    } else if (type.byteSize() == 2) {
      return "short[]";
    }
    return "byte[]";
  }

  private void requireSameShape(ElementType<?> otherType, long otherLength, Object other) {
    if (otherType != type || otherLength != length) {
      throw new IllegalArgumentException(
          "cannot copy between "
              + this
              + " and "
              + other
              + ": copies need the same element type and length; use slice()");
    }
  }

  /** {@return the implementation behind a buffer (the only one {@code DeviceBuffer} permits)} */
  public static <T> DeviceBufferImpl<T> of(DeviceBuffer<T> buffer) {
    return (DeviceBufferImpl<T>) buffer;
  }

  @Override
  public String toString() {
    return "DeviceBuffer<"
        + type
        + ">["
        + length
        + " on device "
        + device.ordinal()
        + (parent == null ? "" : ", slice")
        + (mappedFrom == null ? "" : ", mapped host memory")
        + (temporary == null ? "" : ", " + temporary)
        + "]";
  }
}
