// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.ElementType;
import cuda.graph.HostBuffer;
import cuda.graph.internal.ops.FillOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * The implementation of {@link HostBuffer}: pinned memory the buffer owns, freed with {@code
 * cuMemFreeHost} when its last reference goes. {@link MappedHostBufferImpl} adds the device view of
 * mapped memory.
 */
public sealed class HostBufferImpl<T> implements HostBuffer<T> permits MappedHostBufferImpl {

  private final DeviceImpl device;
  private final ElementType<T> type;
  private final long length;
  private final MemorySegment memory;
  private final RefCount lifetime;

  /**
   * Wraps page-locked memory the device's context just allocated; the buffer owns it from now on.
   */
  public HostBufferImpl(DeviceImpl device, ElementType<T> type, long length, MemorySegment memory) {
    this.device = device;
    this.type = type;
    this.length = length;
    this.memory = memory.asSlice(0, length * type.byteSize());
    this.lifetime = device.lifetime(driver -> driver.memFreeHost(memory));
    CudaPlatformImpl.CLEANER.register(this, lifetime::closeOwner);
  }

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

  /** {@return the size in bytes} */
  @Override
  public long byteSize() {
    return length * type.byteSize();
  }

  /** {@return the device whose context allocated the memory} */
  @Override
  public DeviceImpl device() {
    return device;
  }

  /**
   * {@return the memory, for bulk access}: a slice of the segment the provider allocated, so it
   * shares that segment's scope and is never valid past the free (the provider invalidates the
   * segment when it frees the memory)
   */
  @Override
  public MemorySegment segment() {
    checkUsable("segment()");
    return memory;
  }

  /**
   * {@return the memory, for the library's own copies}: unlike {@link #segment()} it does not check
   * that the buffer is open, since a copy that leased the buffer may run after its close
   */
  public MemorySegment memory() {
    return memory;
  }

  /** {@return element {@code index}, boxed} */
  @Override
  public T get(long index) {
    checkUsable("get(long)");
    checkIndex(index);
    Object value =
        switch (type.layout()) {
          case ValueLayout.OfFloat f -> memory.getAtIndex(f, index);
          case ValueLayout.OfDouble d -> memory.getAtIndex(d, index);
          case ValueLayout.OfInt i -> memory.getAtIndex(i, index);
          case ValueLayout.OfLong l -> memory.getAtIndex(l, index);
          case ValueLayout.OfShort s -> memory.getAtIndex(s, index);
          case ValueLayout.OfByte b -> memory.getAtIndex(b, index);
          default -> throw new IllegalStateException("unexpected layout " + type.layout());
        };
    return type.javaType().cast(value);
  }

  /** Sets element {@code index}. */
  @Override
  public void set(long index, T value) {
    FillOp.requireElement(type, value, "set an element of " + this + " to");
    checkUsable("set(long, T)");
    checkIndex(index);
    switch (type.layout()) {
      case ValueLayout.OfFloat f -> memory.setAtIndex(f, index, (Float) value);
      case ValueLayout.OfDouble d -> memory.setAtIndex(d, index, (Double) value);
      case ValueLayout.OfInt i -> memory.setAtIndex(i, index, (Integer) value);
      case ValueLayout.OfLong l -> memory.setAtIndex(l, index, (Long) value);
      case ValueLayout.OfShort s -> memory.setAtIndex(s, index, (Short) value);
      case ValueLayout.OfByte b -> memory.setAtIndex(b, index, (Byte) value);
      default -> throw new IllegalStateException("unexpected layout " + type.layout());
    }
  }

  /**
   * Copies {@code data} into the buffer from element 0 (a host copy; the buffer must be large
   * enough).
   */
  @Override
  public void write(float[] data) {
    Objects.requireNonNull(data, "data");
    copyIn(MemorySegment.ofArray(data), ElementType.F32, "write(float[])");
  }

  /** Copies {@code data} into the buffer from element 0. */
  @Override
  public void write(double[] data) {
    Objects.requireNonNull(data, "data");
    copyIn(MemorySegment.ofArray(data), ElementType.F64, "write(double[])");
  }

  /** Copies {@code data} into the buffer from element 0. */
  @Override
  public void write(int[] data) {
    Objects.requireNonNull(data, "data");
    copyIn(MemorySegment.ofArray(data), ElementType.I32, "write(int[])");
  }

  /** Copies {@code data} into the buffer from element 0. */
  @Override
  public void write(long[] data) {
    Objects.requireNonNull(data, "data");
    copyIn(MemorySegment.ofArray(data), ElementType.I64, "write(long[])");
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#F32}} */
  @Override
  public float[] toFloatArray() {
    return segmentOf(ElementType.F32, "toFloatArray()").toArray(ValueLayout.JAVA_FLOAT);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#F64}} */
  @Override
  public double[] toDoubleArray() {
    return segmentOf(ElementType.F64, "toDoubleArray()").toArray(ValueLayout.JAVA_DOUBLE);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#I32}} */
  @Override
  public int[] toIntArray() {
    return segmentOf(ElementType.I32, "toIntArray()").toArray(ValueLayout.JAVA_INT);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#I64}} */
  @Override
  public long[] toLongArray() {
    return segmentOf(ElementType.I64, "toLongArray()").toArray(ValueLayout.JAVA_LONG);
  }

  private void copyIn(MemorySegment data, ElementType<?> dataType, String call) {
    checkType(dataType);
    checkUsable(call);
    if (data.byteSize() > byteSize()) {
      throw new IllegalArgumentException(
          "cannot write "
              + data.byteSize() / type.byteSize()
              + " elements into "
              + this
              + ", which holds "
              + length
              + ": write at most "
              + length
              + ", or allocate a larger buffer");
    }
    MemorySegment.copy(data, 0, memory, 0, data.byteSize());
  }

  private MemorySegment segmentOf(ElementType<?> wanted, String call) {
    checkType(wanted);
    checkUsable(call);
    return memory;
  }

  final void checkType(ElementType<?> wanted) {
    if (wanted != type) {
      throw new IllegalArgumentException(
          this + " holds " + type + ", not " + wanted + ": use " + methodsFor(type));
    }
  }

  /** {@return the methods that read and write elements of {@code type}} */
  private static String methodsFor(ElementType<?> type) {
    if (type == ElementType.F32) {
      return "write(float[]) and toFloatArray()";
    } else if (type == ElementType.F64) {
      return "write(double[]) and toDoubleArray()";
    } else if (type == ElementType.I32) {
      return "write(int[]) and toIntArray()";
    } else if (type == ElementType.I64) {
      return "write(long[]) and toLongArray()";
    }
    return "get, set or segment()";
  }

  final void checkIndex(long index) {
    if (index < 0 || index >= length) {
      throw new IndexOutOfBoundsException(
          this + " has no element " + index + ": its indices run from 0 to " + (length - 1));
    }
  }

  /**
   * Fails unless the host may access the memory now: the buffer is open (and a mapped buffer's
   * platform too, see {@link MappedHostBufferImpl}).
   *
   * @param call the accessor, for messages, e.g. {@code "segment()"}
   */
  void checkUsable(String call) {
    requireOpen();
  }

  /**
   * Fails if this buffer is closed.
   *
   * @throws IllegalStateException naming this buffer
   */
  public final void requireOpen() {
    if (lifetime.isClosed()) {
      throw new IllegalStateException(
          this
              + " is closed, and its memory is freed once no queued "
              + users()
              + " uses it; allocate a new one with "
              + factory()
              + ", or close it only after its last use");
    }
  }

  /** {@return what may still use the memory after the close, for messages} */
  String users() {
    return "copy";
  }

  /** {@return the factory that makes a buffer of this kind, for messages} */
  String factory() {
    return "Device.allocateHost";
  }

  /** {@return whether {@link #close()} was called} */
  @Override
  public boolean isClosed() {
    return lifetime.isClosed();
  }

  /** Frees the memory once no queued copy uses it. Idempotent. */
  @Override
  public void close() {
    lifetime.closeOwner();
  }

  /** {@return the owner's reference and the leases of the memory} */
  public final RefCount lifetime() {
    return lifetime;
  }

  /** {@return the implementation behind a buffer (the only one {@code HostBuffer} permits)} */
  public static <T> HostBufferImpl<T> of(HostBuffer<T> buffer) {
    return (HostBufferImpl<T>) buffer;
  }

  @Override
  public String toString() {
    return "HostBuffer<" + type + ">[" + length + "]";
  }
}
