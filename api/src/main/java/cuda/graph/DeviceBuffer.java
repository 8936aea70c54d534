// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.DeviceBufferImpl;
import java.lang.foreign.MemorySegment;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Device memory holding {@code length} elements of one {@link ElementType}.
 *
 * <p>Buffers are made by ops ({@link #zeros}, {@link #fromArray(float[])}, {@link #duplicate()},
 * ...), so allocation is ordered with the rest of the work on the executing stream. Ops on a buffer
 * ({@link #copyFrom(DeviceBuffer)}, {@link #fill}, {@link #toFloatArray()}, kernel launches) read
 * and write it when they execute.
 *
 * <p><b>Lifetime.</b> {@link #close()} releases the memory once every op that uses it has
 * completed, including ops still queued on a stream and graphs it was captured into; it is
 * idempotent and safe from any thread. A buffer that becomes unreachable without being closed is
 * closed by a cleaner. Building an op on a closed buffer fails with {@link IllegalStateException};
 * an op built before the close fails the same way when it executes. A {@link #slice} shares its
 * parent's memory and lifetime and owns nothing; it keeps its parent reachable, so the cleaner does
 * not free memory a slice still views. The {@linkplain MappedHostBuffer#deviceView() device view}
 * of mapped host memory is such a view of its {@link MappedHostBuffer}: ops on it lease that
 * buffer's memory, and it is closed when that buffer is.
 *
 * <p><b>Temporaries.</b> A buffer from {@link Scope#temporary} belongs to the graph that capture
 * records: only that capture's nodes may use it, its contents exist only during a replay, and it
 * cannot be read or written from the host, duplicated, freed or closed (each fails with {@link
 * IllegalStateException}); {@link #isClosed()} is true once its capture has ended.
 *
 * <p>For example, buffers made from an array and zeroed, copied, written from the host, filled
 * through a view and read back:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=device-buffer}
 *
 * @param <T> the Java type of one element
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface DeviceBuffer<T> extends AutoCloseable permits DeviceBufferImpl {

  /**
   * {@return an op that allocates {@code length} elements of uninitialized memory}
   *
   * @param <T> the Java type of one element
   * @param type the element type
   * @param length the number of elements, at least 1
   * @throws IllegalArgumentException if {@code length} is not positive, or the buffer's byte size
   *     would overflow a {@code long}
   */
  @CheckReturnValue
  static <T> DeviceOp<DeviceBuffer<T>> allocate(ElementType<T> type, long length) {
    return DeviceBufferImpl.allocate(type, length);
  }

  /**
   * {@return an op that allocates {@code length} elements of uninitialized memory that no two uses
   * share at once}: scratch memory that every use overwrites, such as a matrix product's workspace
   *
   * <p>The library orders the uses of an exclusive buffer on the device: an execution ({@code
   * syncOn}, {@code asyncOn}) or a graph launch that uses it (directly, or through a graph that
   * captured a node using it) first waits, with an event, for the last use enqueued on another
   * stream, so graphs and ops that share it run one after the other whatever streams and threads
   * they come from, instead of overwriting each other's data. Uses on one stream are ordered by the
   * stream already. The cost, only for work that uses such a buffer: an event recorded after each
   * use, a wait where the stream changes, and a lock per device held while the use is enqueued.
   * Within one op or graph, its nodes run in their own order: two parallel branches of one capture
   * must not use the same exclusive buffer. Its slices are exclusive with it. Otherwise it is a
   * buffer like those of {@link #allocate}.
   *
   * @param <T> the Java type of one element
   * @param type the element type
   * @param length the number of elements, at least 1
   * @throws IllegalArgumentException if {@code length} is not positive, or the buffer's byte size
   *     would overflow a {@code long}
   * @since 0.2.0
   */
  @CheckReturnValue
  static <T> DeviceOp<DeviceBuffer<T>> allocateExclusive(ElementType<T> type, long length) {
    return DeviceBufferImpl.allocateExclusive(type, length);
  }

  /**
   * {@return an op that allocates {@code length} elements set to zero}
   *
   * @param <T> the Java type of one element
   * @param type the element type
   * @param length the number of elements, at least 1
   * @throws IllegalArgumentException if {@code length} is not positive, or the buffer's byte size
   *     would overflow a {@code long}
   */
  @CheckReturnValue
  static <T> DeviceOp<DeviceBuffer<T>> zeros(ElementType<T> type, long length) {
    return DeviceBufferImpl.zeros(type, length);
  }

  /**
   * {@return an op that allocates {@code length} elements set to {@code value}}
   *
   * @param <T> the Java type of one element
   * @param type the element type
   * @param length the number of elements, at least 1
   * @param value the value of every element, not null
   * @throws IllegalArgumentException if {@code length} is not positive, the buffer's byte size
   *     would overflow a {@code long}, or {@code value} is not of the type's Java type (through a
   *     raw type)
   */
  @CheckReturnValue
  static <T> DeviceOp<DeviceBuffer<T>> filled(ElementType<T> type, long length, T value) {
    return DeviceBufferImpl.filled(type, length, value);
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}
   *
   * @param data the elements, at least one; copied when this method is called
   * @throws IllegalArgumentException if {@code data} is empty
   */
  @CheckReturnValue
  static DeviceOp<DeviceBuffer<Float>> fromArray(float[] data) {
    return DeviceBufferImpl.fromArray(data);
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}
   *
   * @param data the elements, at least one; copied when this method is called
   * @throws IllegalArgumentException if {@code data} is empty
   */
  @CheckReturnValue
  static DeviceOp<DeviceBuffer<Double>> fromArray(double[] data) {
    return DeviceBufferImpl.fromArray(data);
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}
   *
   * @param data the elements, at least one; copied when this method is called
   * @throws IllegalArgumentException if {@code data} is empty
   */
  @CheckReturnValue
  static DeviceOp<DeviceBuffer<Integer>> fromArray(int[] data) {
    return DeviceBufferImpl.fromArray(data);
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}
   *
   * @param data the elements, at least one; copied when this method is called
   * @throws IllegalArgumentException if {@code data} is empty
   */
  @CheckReturnValue
  static DeviceOp<DeviceBuffer<Long>> fromArray(long[] data) {
    return DeviceBufferImpl.fromArray(data);
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}
   *
   * @param data the elements, at least one; copied when this method is called
   * @throws IllegalArgumentException if {@code data} is empty
   */
  @CheckReturnValue
  static DeviceOp<DeviceBuffer<Byte>> fromArray(byte[] data) {
    return DeviceBufferImpl.fromArray(data);
  }

  /**
   * {@return an op that allocates a buffer of a 16-bit type ({@link ElementType#I16}, {@link
   * ElementType#F16} or {@link ElementType#BF16}) holding a copy of {@code data}}
   *
   * @param type a 16-bit element type, which says how the raw {@code short} bits are read
   * @param data the elements, at least one; copied when this method is called
   * @throws IllegalArgumentException if {@code type} is not 16 bits wide or {@code data} is empty
   */
  @CheckReturnValue
  static DeviceOp<DeviceBuffer<Short>> fromArray(ElementType<Short> type, short[] data) {
    return DeviceBufferImpl.fromArray(type, data);
  }

  /**
   * {@return an op that allocates a buffer holding a copy of {@code data}}, whose size must be a
   * whole number of elements. The contents are copied when the op is built.
   *
   * @param <T> the Java type of one element
   * @param type the element type
   * @param data the bytes of at least one element, at most 2 GiB
   * @throws IllegalArgumentException if {@code data} is empty, not a whole number of elements or
   *     larger than 2 GiB
   */
  @CheckReturnValue
  static <T> DeviceOp<DeviceBuffer<T>> fromSegment(ElementType<T> type, MemorySegment data) {
    return DeviceBufferImpl.fromSegment(type, data);
  }

  /** {@return an op that allocates a new buffer holding a copy of this one} */
  @CheckReturnValue
  DeviceOp<DeviceBuffer<T>> duplicate();

  /**
   * {@return a graph node that copies {@code source} (same type and length) into this buffer}
   *
   * @param source the device buffer read when the node executes
   * @throws IllegalArgumentException if {@code source} differs in element type or length
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> copyFrom(DeviceBuffer<T> source);

  /**
   * {@return a graph node that copies pinned {@code source} into this buffer, reading it when it
   * executes}
   *
   * @param source the pinned buffer read when the node executes (and at every replay of a graph)
   * @throws IllegalArgumentException if {@code source} differs in element type or length
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> copyFrom(HostBuffer<T> source);

  /**
   * {@return a graph node that copies this buffer into pinned {@code target} when it executes}
   *
   * @param target the pinned buffer written when the node executes (and at every replay of a graph)
   * @throws IllegalArgumentException if {@code target} differs in element type or length
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> copyTo(HostBuffer<T> target);

  /**
   * {@return a graph node that sets every element to {@code value}}
   *
   * @param value the value of every element, not null
   * @throws IllegalArgumentException if {@code value} is not of the element type's Java type (an
   *     {@code Integer} passed for an {@code f32} buffer through a raw type)
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> fill(T value);

  /**
   * {@return an op that copies {@code data} into this buffer (staged through pinned memory; not a
   * graph node)}
   *
   * @param data exactly {@link #length()} elements, copied when this method is called; the buffer
   *     must hold {@link ElementType#F32}
   * @throws IllegalArgumentException if the buffer holds another type or another length
   */
  @CheckReturnValue
  DeviceOp<@Nullable Void> write(float[] data);

  /**
   * {@return an op that copies {@code data} into this buffer}, as {@link #write(float[])} does
   *
   * @param data exactly {@link #length()} elements, copied when this method is called; the buffer
   *     must hold {@link ElementType#F64}
   * @throws IllegalArgumentException if the buffer holds another type or another length
   */
  @CheckReturnValue
  DeviceOp<@Nullable Void> write(double[] data);

  /**
   * {@return an op that copies {@code data} into this buffer}, as {@link #write(float[])} does
   *
   * @param data exactly {@link #length()} elements, copied when this method is called; the buffer
   *     must hold {@link ElementType#I32}
   * @throws IllegalArgumentException if the buffer holds another type or another length
   */
  @CheckReturnValue
  DeviceOp<@Nullable Void> write(int[] data);

  /**
   * {@return an op that copies {@code data} into this buffer}, as {@link #write(float[])} does
   *
   * @param data exactly {@link #length()} elements, copied when this method is called; the buffer
   *     must hold {@link ElementType#I64}
   * @throws IllegalArgumentException if the buffer holds another type or another length
   */
  @CheckReturnValue
  DeviceOp<@Nullable Void> write(long[] data);

  /**
   * {@return an op that copies the bytes of {@code data} (exactly this buffer's size) into this
   * buffer}
   *
   * @param data exactly {@link #byteSize()} bytes, copied when this method is called
   * @throws IllegalArgumentException if {@code data} is another size
   */
  @CheckReturnValue
  DeviceOp<@Nullable Void> write(MemorySegment data);

  /**
   * {@return an op that reads this {@link ElementType#F32} buffer into a new array (waits for the
   * stream)}
   */
  @CheckReturnValue
  DeviceOp<float[]> toFloatArray();

  /** {@return an op that reads this {@link ElementType#F64} buffer into a new array} */
  @CheckReturnValue
  DeviceOp<double[]> toDoubleArray();

  /** {@return an op that reads this {@link ElementType#I32} buffer into a new array} */
  @CheckReturnValue
  DeviceOp<int[]> toIntArray();

  /** {@return an op that reads this {@link ElementType#I64} buffer into a new array} */
  @CheckReturnValue
  DeviceOp<long[]> toLongArray();

  /**
   * {@return an op that reads this 16-bit buffer ({@code i16}, {@code f16}, {@code bf16}) into a
   * new array}
   */
  @CheckReturnValue
  DeviceOp<short[]> toShortArray();

  /** {@return an op that reads this buffer's raw bytes into a new array} */
  @CheckReturnValue
  DeviceOp<byte[]> toByteArray();

  /**
   * {@return an op that closes this buffer in stream order}: the memory is released once the work
   * queued before the op (and every other use) has completed. Not a graph node.
   *
   * @throws IllegalArgumentException for a {@link #slice}, which owns no memory, and for the device
   *     view of a {@link cuda.graph.MappedHostBuffer}, whose buffer owns it
   */
  @CheckReturnValue
  DeviceOp<@Nullable Void> free();

  /**
   * {@return a view of {@code length} elements from {@code offset}, sharing this buffer's memory
   * and lifetime}: closing this buffer closes the view too, and the view keeps this buffer
   * reachable
   *
   * @param offset the index in this buffer of the view's element 0
   * @param length the number of elements, at least 1
   * @throws IndexOutOfBoundsException if {@code offset} or {@code length} is negative, or the view
   *     does not lie within this buffer
   * @throws IllegalArgumentException if {@code length} is 0
   */
  DeviceBuffer<T> slice(long offset, long length);

  /** {@return the element type} */
  ElementType<T> elementType();

  /** {@return the number of elements} */
  long length();

  /** {@return the size in bytes} */
  long byteSize();

  /** {@return the device the memory lives on} */
  Device device();

  /**
   * {@return the alignment of element 0's device address, in bytes}: the largest power of two that
   * divides it, at most 256. Memory the library allocates starts at 256; a {@link #slice} is as
   * aligned as its offset allows. Libraries that read memory in wide vectors (cuBLASLt's kernels
   * and epilogues) need their operands aligned, and check it here before they plan.
   *
   * @since 0.2.0
   */
  int alignment();

  /**
   * {@return whether the memory was closed (it may still be alive for queued work)}; for a {@link
   * Scope#temporary}, whether its capture has ended
   */
  boolean isClosed();

  /**
   * Releases the memory once every queued use has completed. Idempotent; does nothing for a {@link
   * #slice} or the device view of a {@link cuda.graph.MappedHostBuffer}, which own no memory.
   *
   * @throws IllegalStateException for a {@link Scope#temporary}, which its graph releases
   */
  void close();
}
