// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.HostBufferImpl;
import java.lang.foreign.MemorySegment;
import org.apiguardian.api.API;

/**
 * Page-locked (pinned) host memory of {@code length} elements: what asynchronous copies and graph
 * memcpy nodes read and write while the host goes on. Made by {@link Device#allocateHost}, or by
 * {@link Device#allocateMapped} as a {@link MappedHostBuffer}, which kernels also reach directly.
 *
 * <p>A copy op reads or writes the buffer when the stream executes it, not when it is built: the
 * host must not touch the buffer between submitting such an op and its completion. That is what
 * makes a pinned buffer the input of a replayed graph: write new data into it, then launch.
 *
 * <p>{@link #close()} is idempotent; the memory is freed once no queued copy uses it. Accessors
 * fail with {@link IllegalStateException} after close. A buffer that becomes unreachable without
 * being closed is closed by a cleaner: keep the buffer, not only its {@link #segment()}, while you
 * use the memory. Not thread-safe for concurrent writes.
 *
 * @param <T> the Java type of one element
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface HostBuffer<T> extends AutoCloseable
    permits HostBufferImpl, MappedHostBuffer {

  /** {@return the element type} */
  ElementType<T> elementType();

  /** {@return the number of elements} */
  long length();

  /** {@return the size in bytes} */
  long byteSize();

  /** {@return the device whose context allocated the memory} */
  Device device();

  /**
   * {@return the memory, for bulk access; use it only until {@link #close()}}
   *
   * <p>The segment never outlives the memory: it is a slice of the segment the provider allocated,
   * which the provider invalidates when it frees the memory (at {@code close()}, or once the copies
   * still queued then have completed), so touching it later throws {@link IllegalStateException}
   * instead of reading freed memory.
   *
   * @throws IllegalStateException if the buffer is closed, or it is a {@link MappedHostBuffer}
   *     whose platform is closed (the platform's close freed its memory)
   */
  MemorySegment segment();

  /**
   * {@return element {@code index}, boxed}
   *
   * @param index the element's index, from 0 to {@code length() - 1}
   * @throws IndexOutOfBoundsException if {@code index} is outside the buffer
   */
  T get(long index);

  /**
   * Sets element {@code index}.
   *
   * @param index the element's index, from 0 to {@code length() - 1}
   * @param value the new value, not null
   * @throws IndexOutOfBoundsException if {@code index} is outside the buffer
   * @throws IllegalArgumentException if {@code value} is not of the element type's Java type
   *     (through a raw type)
   */
  void set(long index, T value);

  /**
   * Copies {@code data} into the buffer from element 0 (a host copy; the buffer must be large
   * enough). Elements past {@code data.length} keep their values.
   *
   * @param data at most {@link #length()} elements; the buffer must hold {@link ElementType#F32}
   * @throws IllegalArgumentException if the buffer holds another type or fewer elements
   */
  void write(float[] data);

  /**
   * Copies {@code data} into the buffer from element 0, as {@link #write(float[])} does.
   *
   * @param data at most {@link #length()} elements; the buffer must hold {@link ElementType#F64}
   * @throws IllegalArgumentException if the buffer holds another type or fewer elements
   */
  void write(double[] data);

  /**
   * Copies {@code data} into the buffer from element 0, as {@link #write(float[])} does.
   *
   * @param data at most {@link #length()} elements; the buffer must hold {@link ElementType#I32}
   * @throws IllegalArgumentException if the buffer holds another type or fewer elements
   */
  void write(int[] data);

  /**
   * Copies {@code data} into the buffer from element 0, as {@link #write(float[])} does.
   *
   * @param data at most {@link #length()} elements; the buffer must hold {@link ElementType#I64}
   * @throws IllegalArgumentException if the buffer holds another type or fewer elements
   */
  void write(long[] data);

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#F32}} */
  float[] toFloatArray();

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#F64}} */
  double[] toDoubleArray();

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#I32}} */
  int[] toIntArray();

  /** {@return the contents as a new array; the buffer must hold {@link ElementType#I64}} */
  long[] toLongArray();

  /** {@return whether {@link #close()} was called} */
  boolean isClosed();

  /** Frees the memory once no queued copy uses it. Idempotent. */
  void close();
}
