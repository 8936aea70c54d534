// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * A prepared kernel argument block: the parameter values, packed at their natural alignment in
 * native memory, and the {@code void*[]} array of pointers to them that {@code cuLaunchKernel}
 * takes as {@code kernelParams}.
 *
 * <p>Allocate one per prepared launch and reuse it: setting a value writes native memory and
 * allocates nothing, and the driver copies the values during the launch call, so they may be
 * changed as soon as the call returns. An instance is not thread-safe; its memory lives as long as
 * the arena it was allocated in.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class KernelArguments {

  private static final ValueLayout.OfByte I8 = ValueLayout.JAVA_BYTE;
  private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
  private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
  private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

  private final MemorySegment values;
  private final MemorySegment pointers;
  private final long[] offsets;
  private final int[] sizes;

  private KernelArguments(
      MemorySegment values, MemorySegment pointers, long[] offsets, int[] sizes) {
    this.values = values;
    this.pointers = pointers;
    this.offsets = offsets;
    this.sizes = sizes;
  }

  /**
   * Allocates an argument block for parameters of the given sizes in bytes, each aligned to the
   * largest power of two that divides its size, up to 8 (the kernel ABI's natural alignment).
   *
   * @param arena where the values and the pointer array are allocated; they live as long as it
   * @param sizes each parameter's size in bytes, in parameter order; all positive
   * @return a new block whose pointer array already points at each value
   * @throws IllegalArgumentException if a size is not positive
   */
  public static KernelArguments allocate(Arena arena, int... sizes) {
    int[] alignments = new int[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] <= 0) {
        throw new IllegalArgumentException(
            "parameter " + i + " has size " + sizes[i] + "; sizes must be positive");
      }
      alignments[i] = Math.min(8, Integer.lowestOneBit(sizes[i]));
    }
    return allocate(arena, sizes, alignments);
  }

  /**
   * Allocates an argument block for parameters of explicit sizes and alignments.
   *
   * @param arena where the values and the pointer array are allocated; they live as long as it
   * @param sizes each parameter's size in bytes, in parameter order
   * @param alignments each parameter's alignment in bytes, a power of two, in parameter order
   * @return a new block whose pointer array already points at each value
   * @throws IllegalArgumentException if the arrays differ in length or an alignment is not a power
   *     of two
   */
  public static KernelArguments allocate(Arena arena, int[] sizes, int[] alignments) {
    if (sizes.length != alignments.length) {
      throw new IllegalArgumentException(
          sizes.length + " sizes but " + alignments.length + " alignments");
    }
    long[] offsets = new long[sizes.length];
    long end = 0;
    long maxAlign = 8;
    for (int i = 0; i < sizes.length; i++) {
      int align = alignments[i];
      if (align <= 0 || Integer.bitCount(align) != 1) {
        throw new IllegalArgumentException(
            "parameter " + i + " has alignment " + align + "; alignments are powers of two");
      }
      maxAlign = Math.max(maxAlign, align);
      end = (end + align - 1) & -align;
      offsets[i] = end;
      end += sizes[i];
    }
    MemorySegment values = arena.allocate(Math.max(end, 1), maxAlign);
    MemorySegment pointers = arena.allocate(ValueLayout.ADDRESS, Math.max(sizes.length, 1));
    for (int i = 0; i < sizes.length; i++) {
      pointers.setAtIndex(ValueLayout.ADDRESS, i, values.asSlice(offsets[i], sizes[i]));
    }
    return new KernelArguments(values, pointers, offsets, sizes.clone());
  }

  /** {@return the number of parameters} */
  public int count() {
    return sizes.length;
  }

  /**
   * {@return the size in bytes of parameter {@code index}}
   *
   * @param index the parameter's position, from 0
   */
  public int size(int index) {
    return sizes[index];
  }

  /**
   * {@return the byte offset of parameter {@code index} within {@link #values()}}
   *
   * @param index the parameter's position, from 0
   */
  public long offset(int index) {
    return offsets[index];
  }

  /** {@return the packed values (native memory)} */
  public MemorySegment values() {
    return values;
  }

  /** {@return the {@code void*[]} array of pointers to each value (native memory)} */
  public MemorySegment pointerArray() {
    return pointers;
  }

  /** {@return a copy of the packed values, as a provider that snapshots arguments takes it} */
  public byte[] snapshot() {
    return values.toArray(ValueLayout.JAVA_BYTE);
  }

  private long at(int index, int size) {
    if (sizes[index] != size) {
      throw new IllegalArgumentException(
          "parameter " + index + " is " + sizes[index] + " bytes, not " + size);
    }
    return offsets[index];
  }

  /**
   * Sets parameter {@code index} to an 8-bit value.
   *
   * @param index the parameter's position, from 0
   * @param value the new value
   * @throws IllegalArgumentException if the parameter is not 1 byte
   */
  public void setI8(int index, byte value) {
    values.set(I8, at(index, 1), value);
  }

  /**
   * Sets parameter {@code index} to a 16-bit value.
   *
   * @param index the parameter's position, from 0
   * @param value the new value
   * @throws IllegalArgumentException if the parameter is not 2 bytes
   */
  public void setI16(int index, short value) {
    values.set(I16, at(index, 2), value);
  }

  /**
   * Sets parameter {@code index} to a 32-bit integer.
   *
   * @param index the parameter's position, from 0
   * @param value the new value
   * @throws IllegalArgumentException if the parameter is not 4 bytes
   */
  public void setI32(int index, int value) {
    values.set(I32, at(index, 4), value);
  }

  /**
   * Sets parameter {@code index} to a 64-bit integer.
   *
   * @param index the parameter's position, from 0
   * @param value the new value
   * @throws IllegalArgumentException if the parameter is not 8 bytes
   */
  public void setI64(int index, long value) {
    values.set(I64, at(index, 8), value);
  }

  /**
   * Sets parameter {@code index} to a float.
   *
   * @param index the parameter's position, from 0
   * @param value the new value
   * @throws IllegalArgumentException if the parameter is not 4 bytes
   */
  public void setF32(int index, float value) {
    values.set(F32, at(index, 4), value);
  }

  /**
   * Sets parameter {@code index} to a double.
   *
   * @param index the parameter's position, from 0
   * @param value the new value
   * @throws IllegalArgumentException if the parameter is not 8 bytes
   */
  public void setF64(int index, double value) {
    values.set(F64, at(index, 8), value);
  }

  /**
   * Copies {@code bytes} into parameter {@code index}, which must have exactly that size.
   *
   * @param index the parameter's position, from 0
   * @param bytes the value's bytes, in the device's (little-endian) order
   * @throws IllegalArgumentException if the parameter is not {@code bytes.length} bytes
   */
  public void setBytes(int index, byte[] bytes) {
    long offset = at(index, bytes.length);
    MemorySegment.copy(bytes, 0, values, I8, offset, bytes.length);
  }

  /**
   * {@return parameter {@code index} as an 8-bit value}
   *
   * @param index the parameter's position, from 0
   * @throws IllegalArgumentException if the parameter is not 1 byte
   */
  public byte getI8(int index) {
    return values.get(I8, at(index, 1));
  }

  /**
   * {@return parameter {@code index} as a 16-bit value}
   *
   * @param index the parameter's position, from 0
   * @throws IllegalArgumentException if the parameter is not 2 bytes
   */
  public short getI16(int index) {
    return values.get(I16, at(index, 2));
  }

  /**
   * {@return parameter {@code index} as a 32-bit integer}
   *
   * @param index the parameter's position, from 0
   * @throws IllegalArgumentException if the parameter is not 4 bytes
   */
  public int getI32(int index) {
    return values.get(I32, at(index, 4));
  }

  /**
   * {@return parameter {@code index} as a 64-bit integer}
   *
   * @param index the parameter's position, from 0
   * @throws IllegalArgumentException if the parameter is not 8 bytes
   */
  public long getI64(int index) {
    return values.get(I64, at(index, 8));
  }

  /**
   * {@return parameter {@code index} as a float}
   *
   * @param index the parameter's position, from 0
   * @throws IllegalArgumentException if the parameter is not 4 bytes
   */
  public float getF32(int index) {
    return values.get(F32, at(index, 4));
  }

  /**
   * {@return parameter {@code index} as a double}
   *
   * @param index the parameter's position, from 0
   * @throws IllegalArgumentException if the parameter is not 8 bytes
   */
  public double getF64(int index) {
    return values.get(F64, at(index, 8));
  }

  @Override
  public String toString() {
    return "KernelArguments" + Arrays.toString(sizes);
  }
}
