// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Allocates a buffer in stream order, then initializes it (nothing, a fill, host data, or a device
 * copy).
 */
public final class AllocateOp<T> extends OnceGuard implements DeviceOp<DeviceBuffer<T>> {

  public enum Init {
    NONE,
    FILL,
    COPY_HOST,
    COPY_DEVICE
  }

  public final ElementType<T> type;
  public final long length;
  public final Init init;
  public final long fillBits;
  public final @Nullable MemorySegment hostData;
  public final @Nullable DeviceBuffer<T> deviceData;

  /** Whether the buffer is exclusive: its uses are ordered so that none overlap on the device. */
  public final boolean exclusive;

  public AllocateOp(
      ElementType<T> type,
      long length,
      Init init,
      long fillBits,
      @Nullable MemorySegment hostData,
      @Nullable DeviceBuffer<T> deviceData) {
    this(type, length, init, fillBits, hostData, deviceData, false);
  }

  public AllocateOp(
      ElementType<T> type,
      long length,
      Init init,
      long fillBits,
      @Nullable MemorySegment hostData,
      @Nullable DeviceBuffer<T> deviceData,
      boolean exclusive) {
    // Checked before the op exists, so that a refused allocation leaves no op behind to report.
    requireLength(type, length, "a buffer");
    super();
    this.type = type;
    this.length = length;
    this.init = init;
    this.fillBits = fillBits;
    this.hostData = hostData;
    this.deviceData = deviceData;
    this.exclusive = exclusive;
  }

  /**
   * Fails unless {@code type} is given and {@code length} is at least one element and fits in a
   * {@code long} byte count ({@link #requireByteSize}): the checks of every allocation.
   *
   * @param what what would hold them, e.g. {@code "a buffer"}, for the messages
   * @throws NullPointerException if {@code type} is null
   * @throws IllegalArgumentException naming the length and what to do
   */
  public static void requireLength(ElementType<?> type, long length, String what) {
    Objects.requireNonNull(type, "type");
    if (length <= 0) {
      throw new IllegalArgumentException(
          what + " holds at least one element, got length " + length);
    }
    requireByteSize(type, length, what);
  }

  /**
   * Fails unless {@code length} elements of {@code type} fit in a {@code long} byte count.
   *
   * @param what what would hold them, e.g. {@code "a buffer"}, for the message
   * @throws IllegalArgumentException naming the length, the type and the limit
   */
  public static void requireByteSize(ElementType<?> type, long length, String what) {
    if (length > Long.MAX_VALUE / type.byteSize()) {
      throw new IllegalArgumentException(
          what
              + " of "
              + length
              + " "
              + type
              + " elements would take more than "
              + Long.MAX_VALUE
              + " bytes ("
              + type.byteSize()
              + " bytes each), more than any memory holds; allocate at most "
              + Long.MAX_VALUE / type.byteSize()
              + " elements, and in practice no more than the device's memory");
    }
  }

  @Override
  public String toString() {
    return "allocate " + type + "[" + length + "] (" + init + ")";
  }
}
