// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import cuda.graph.ElementType;

/**
 * The {@code ncclDataType_t} values, and which one carries each {@link ElementType}. NCCL has
 * unsigned types the public API does not, and no 16-bit integer type, which the public API has.
 */
public final class NcclDataTypes {

  /** {@code ncclInt8}, also {@code ncclChar}. */
  public static final int INT8 = 0;

  /** {@code ncclUint8}. */
  public static final int UINT8 = 1;

  /** {@code ncclInt32}, also {@code ncclInt}. */
  public static final int INT32 = 2;

  /** {@code ncclUint32}. */
  public static final int UINT32 = 3;

  /** {@code ncclInt64}. */
  public static final int INT64 = 4;

  /** {@code ncclUint64}. */
  public static final int UINT64 = 5;

  /** {@code ncclFloat16}, also {@code ncclHalf}. */
  public static final int FLOAT16 = 6;

  /** {@code ncclFloat32}, also {@code ncclFloat}. */
  public static final int FLOAT32 = 7;

  /** {@code ncclFloat64}, also {@code ncclDouble}. */
  public static final int FLOAT64 = 8;

  /** {@code ncclBfloat16} (NCCL 2.10 and later). */
  public static final int BFLOAT16 = 9;

  private NcclDataTypes() {}

  /**
   * {@return the {@code ncclDataType_t} of {@code type}}
   *
   * @throws IllegalArgumentException for {@link ElementType#I16}, which NCCL has no type for, and
   *     for any element type added after this mapping
   */
  public static int of(ElementType<?> type) {
    // ElementType's instances are constants, compared by identity (see its Javadoc).
    if (type == ElementType.I8) {
      return INT8;
    } else if (type == ElementType.I32) {
      return INT32;
    } else if (type == ElementType.I64) {
      return INT64;
    } else if (type == ElementType.F16) {
      return FLOAT16;
    } else if (type == ElementType.F32) {
      return FLOAT32;
    } else if (type == ElementType.F64) {
      return FLOAT64;
    } else if (type == ElementType.BF16) {
      return BFLOAT16;
    } else if (type == ElementType.I16) {
      throw new IllegalArgumentException(
          "NCCL has no 16-bit integer type, so a collective cannot take an i16 buffer: widen it"
              + " to i32, or, for a collective that only moves data (all-gather, broadcast, send,"
              + " receive), pass its bits as f16 or bf16; never reduce them as such");
    }
    throw new IllegalArgumentException("no NCCL data type is mapped for element type " + type);
  }
}
