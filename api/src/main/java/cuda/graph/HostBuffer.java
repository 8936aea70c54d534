package cuda.graph;

import cuda.graph.internal.RefCount;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Page-locked (pinned) host memory of {@code length} elements: what asynchronous copies and graph
 * memcpy nodes read and write while the host goes on. Made by {@link Device#allocateHost}.
 *
 * <p>A copy op reads or writes the buffer when the stream executes it, not when it is built: the
 * host must not touch the buffer between submitting such an op and its completion. That is what
 * makes a pinned buffer the input of a replayed graph: write new data into it, then launch.
 *
 * <p>{@link #close()} is idempotent; the memory is freed once no queued copy uses it. Accessors
 * fail with {@link IllegalStateException} after close. Not thread-safe for concurrent writes.
 *
 * @param <T> the Java type of one element
 */
public final class HostBuffer<T> implements AutoCloseable {

  private final Device device;
  private final ElementType<T> type;
  private final long length;
  private final MemorySegment memory;
  private final RefCount lifetime;

  HostBuffer(Device device, ElementType<T> type, long length, MemorySegment memory) {
    this.device = device;
    this.type = type;
    this.length = length;
    this.memory = memory.asSlice(0, length * type.byteSize());
    CudaPlatform platform = device.platform();
    this.lifetime = new RefCount(() -> platform.releases().release(() -> {
      device.bind();
      platform.driver().memFreeHost(memory);
    }));
    CudaPlatform.CLEANER.register(this, lifetime::closeOwner);
  }

  /** {@return the element type} */
  public ElementType<T> elementType() {
    return type;
  }

  /** {@return the number of elements} */
  public long length() {
    return length;
  }

  /** {@return the size in bytes} */
  public long byteSize() {
    return length * type.byteSize();
  }

  /** {@return the device whose context allocated the memory} */
  public Device device() {
    return device;
  }

  /** {@return the memory, for bulk access; valid until {@link #close()}} */
  public MemorySegment segment() {
    checkOpen();
    return memory;
  }

  /** {@return element {@code index}, boxed} */
  public T get(long index) {
    checkOpen();
    Objects.checkIndex(index, length);
    Object value = switch (type.layout()) {
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
  public void set(long index, T value) {
    checkOpen();
    Objects.checkIndex(index, length);
    Objects.requireNonNull(value, "value");
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

  /** Copies {@code data} into the buffer from element 0 (a host copy; the buffer must be large enough). */
  public void write(float[] data) {
    copyIn(MemorySegment.ofArray(data), ElementType.F32);
  }

  /** Copies {@code data} into the buffer from element 0. */
  public void write(double[] data) {
    copyIn(MemorySegment.ofArray(data), ElementType.F64);
  }

  /** Copies {@code data} into the buffer from element 0. */
  public void write(int[] data) {
    copyIn(MemorySegment.ofArray(data), ElementType.I32);
  }

  /** Copies {@code data} into the buffer from element 0. */
  public void write(long[] data) {
    copyIn(MemorySegment.ofArray(data), ElementType.I64);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#F32}} */
  public float[] toFloatArray() {
    return segmentOf(ElementType.F32).toArray(ValueLayout.JAVA_FLOAT);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#F64}} */
  public double[] toDoubleArray() {
    return segmentOf(ElementType.F64).toArray(ValueLayout.JAVA_DOUBLE);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#I32}} */
  public int[] toIntArray() {
    return segmentOf(ElementType.I32).toArray(ValueLayout.JAVA_INT);
  }

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#I64}} */
  public long[] toLongArray() {
    return segmentOf(ElementType.I64).toArray(ValueLayout.JAVA_LONG);
  }

  private void copyIn(MemorySegment data, ElementType<?> dataType) {
    checkType(dataType);
    checkOpen();
    if (data.byteSize() > byteSize()) {
      throw new IllegalArgumentException(
          "cannot write " + data.byteSize() / type.byteSize() + " elements into " + this);
    }
    MemorySegment.copy(data, 0, memory, 0, data.byteSize());
  }

  private MemorySegment segmentOf(ElementType<?> wanted) {
    checkType(wanted);
    checkOpen();
    return memory;
  }

  private void checkType(ElementType<?> wanted) {
    if (wanted != type) {
      throw new IllegalArgumentException(this + " holds " + type + ", not " + wanted);
    }
  }

  private void checkOpen() {
    if (lifetime.isClosed()) {
      throw new IllegalStateException(this + " is closed");
    }
  }

  /** {@return whether {@link #close()} was called} */
  public boolean isClosed() {
    return lifetime.isClosed();
  }

  /** Frees the memory once no queued copy uses it. Idempotent. */
  @Override
  public void close() {
    lifetime.closeOwner();
  }

  RefCount lifetime() {
    return lifetime;
  }

  @Override
  public String toString() {
    return "HostBuffer<" + type + ">[" + length + "]";
  }
}
