// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.plan;

import cuda.graph.ElementType;
import org.jspecify.annotations.Nullable;

/**
 * A matrix product D = alpha * op(A) * op(B) + beta * C, then the epilogue, resolved to what a
 * backend needs and checked by the public API before any backend sees it: every dimension, leading
 * dimension and stride is positive and consistent with the order and transposes, and the types are
 * a supported combination. Immutable; equal records describe the same product (the backends cache
 * their plans by it).
 *
 * <p>Shapes are those of the product: op(A) is {@code m x k}, op(B) is {@code k x n}, C and D are
 * {@code m x n}. A matrix stored in {@link Order#ROW_MAJOR} order has element (i, j) at {@code i *
 * ld + j}; in {@link Order#COLUMN_MAJOR} at {@code i + j * ld}. The order applies to all four
 * matrices. {@code transA} means A is stored as its transpose ({@code k x m}); likewise {@code
 * transB}. Batches: matrix {@code b} of a batch starts {@code b * stride} elements after the first.
 *
 * @param m rows of op(A), C and D
 * @param n columns of op(B), C and D
 * @param k columns of op(A), rows of op(B)
 * @param order how every matrix is laid out
 * @param transA whether A is stored transposed
 * @param transB whether B is stored transposed
 * @param a the element type of A (F32, F16 or BF16)
 * @param b the element type of B (the same as A's)
 * @param c the element type of C and D (F32, or A's type)
 * @param compute how products are computed: F32, or TF32 for F32 inputs where asked
 * @param lda the leading dimension of A as stored
 * @param ldb the leading dimension of B as stored
 * @param ldc the leading dimension of C (equal to {@code ldd} when C is D)
 * @param ldd the leading dimension of D
 * @param batch how many products, at least 1
 * @param strideA elements between consecutive A matrices (0: one A for the whole batch)
 * @param strideB elements between consecutive B matrices (0: one B for the whole batch)
 * @param strideC elements between consecutive C matrices
 * @param strideD elements between consecutive D matrices
 * @param alpha the scale of the product
 * @param beta the scale of C; 0 when the product has no C
 * @param epilogue what is applied to each element of alpha * op(A) * op(B) + beta * C
 * @param bias the element type of the bias vector, or null when the epilogue takes none; its length
 *     is n for {@link Order#ROW_MAJOR}, m for {@link Order#COLUMN_MAJOR} (see {@link Epilogue})
 * @param alignA the alignment in bytes of A's first element, a power of two at most 256: a plan
 *     chooses only algorithms that can read A so aligned (cuBLASLt's heuristic otherwise assumes
 *     256, and the product is refused when it runs)
 * @param alignB likewise for B
 * @param alignC likewise for C (D's when the product has none)
 * @param alignD likewise for D
 */
public record CheckedMatmul(
    int m,
    int n,
    int k,
    Order order,
    boolean transA,
    boolean transB,
    ElementType<?> a,
    ElementType<?> b,
    ElementType<?> c,
    Compute compute,
    long lda,
    long ldb,
    long ldc,
    long ldd,
    int batch,
    long strideA,
    long strideB,
    long strideC,
    long strideD,
    float alpha,
    float beta,
    Epilogue epilogue,
    @Nullable ElementType<?> bias,
    int alignA,
    int alignB,
    int alignC,
    int alignD) {

  /** Checks that every alignment is a power of two of at most 256 bytes. */
  public CheckedMatmul {
    for (int align : new int[] {alignA, alignB, alignC, alignD}) {
      if (align < 1 || align > 256 || Integer.bitCount(align) != 1) {
        throw new IllegalArgumentException(
            "an alignment is a power of two of at most 256 bytes, got " + align);
      }
    }
  }

  /**
   * {@return the product in one line, as messages name it}: e.g. {@code the row-major product
   * D[16x24] = A[16x32] B[32x24], F32 x F32 -> F32, compute F32}
   */
  public String describe() {
    StringBuilder s =
        new StringBuilder("the ")
            .append(order() == CheckedMatmul.Order.ROW_MAJOR ? "row-major" : "column-major")
            .append(" product ")
            .append(batch() > 1 ? batch() + " x " : "")
            .append("D[")
            .append(m())
            .append('x')
            .append(n())
            .append("] = ")
            .append(transA() ? "A'" : "A")
            .append('[')
            .append(m())
            .append('x')
            .append(k())
            .append("] ")
            .append(transB() ? "B'" : "B")
            .append('[')
            .append(k())
            .append('x')
            .append(n())
            .append("], ")
            .append(a())
            .append(" x ")
            .append(b())
            .append(" -> ")
            .append(c())
            .append(", compute ")
            .append(compute());
    if (beta() != 0f) {
      s.append(", beta ").append(beta());
    }
    if (epilogue() != CheckedMatmul.Epilogue.NONE) {
      s.append(", epilogue ").append(epilogue());
      if (bias() != null) {
        s.append(" (bias ").append(bias()).append(')');
      }
    }
    return s.toString();
  }

  /** How the matrices are laid out in memory. */
  public enum Order {
    ROW_MAJOR,
    COLUMN_MAJOR
  }

  /** How the products are computed; accumulation is in fp32 always. */
  public enum Compute {
    /** fp32 multiply-add (fp16 and bf16 inputs are widened exactly). */
    F32,
    /** TF32 tensor cores for fp32 inputs: inputs rounded to 10 mantissa bits. */
    TF32
  }

  /**
   * What follows the product, element by element. The bias has one element per index of D's
   * contiguous dimension and is added before the activation: element {@code j} to column {@code j}
   * of a row-major D (length n; a row-major linear layer {@code y = x w^T + b} adds one value per
   * output feature, a column of y), element {@code i} to row {@code i} of a column-major D (length
   * m). That is cuBLASLt's bias on the column-major problem a row-major product is run as (its
   * transpose, operands exchanged). GELU is the tanh approximation, as cuBLASLt's.
   */
  public enum Epilogue {
    NONE,
    RELU,
    GELU,
    BIAS,
    BIAS_RELU,
    BIAS_GELU;

    /** {@return whether the epilogue adds a bias vector} */
    public boolean takesBias() {
      return this == BIAS || this == BIAS_RELU || this == BIAS_GELU;
    }
  }
}
