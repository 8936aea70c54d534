// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.ElementType;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.CheckedMatmul.Compute;
import cuda.graph.blas.internal.plan.CheckedMatmul.Epilogue;
import cuda.graph.blas.internal.plan.CheckedMatmul.Order;
import org.jspecify.annotations.Nullable;

/** Checked products for the tests, packed unless a test asks otherwise. */
final class Products {

  private Products() {}

  /**
   * {@return the packed product D[m x n] = op(A)[m x k] op(B)[k x n] of one type, alpha 1, beta 0,
   * no epilogue}
   */
  static CheckedMatmul packed(
      Order order, boolean transA, boolean transB, int m, int n, int k, ElementType<?> type) {
    return with(order, transA, transB, m, n, k, type, 1, Epilogue.NONE, null, Compute.F32);
  }

  /** {@return a packed product, every choice given} */
  static CheckedMatmul with(
      Order order,
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      ElementType<?> type,
      int batch,
      Epilogue epilogue,
      @Nullable ElementType<?> bias,
      Compute compute) {
    boolean row = order == Order.ROW_MAJOR;
    // The stored matrix's leading dimension: its columns when row-major, its rows when not.
    long lda = row ? (transA ? m : k) : (transA ? k : m);
    long ldb = row ? (transB ? k : n) : (transB ? n : k);
    long ldc = row ? n : m;
    return new CheckedMatmul(
        m,
        n,
        k,
        order,
        transA,
        transB,
        type,
        type,
        type,
        compute,
        lda,
        ldb,
        ldc,
        ldc,
        batch,
        batch > 1 ? (long) m * k : 0,
        batch > 1 ? (long) k * n : 0,
        (long) m * n,
        (long) m * n,
        1f,
        0f,
        epilogue,
        bias,
        256,
        256,
        256,
        256);
  }

  /** {@return {@code m} with A, B, C and D aligned to the bytes given} */
  static CheckedMatmul aligned(CheckedMatmul m, int a, int b, int c, int d) {
    return new CheckedMatmul(
        m.m(),
        m.n(),
        m.k(),
        m.order(),
        m.transA(),
        m.transB(),
        m.a(),
        m.b(),
        m.c(),
        m.compute(),
        m.lda(),
        m.ldb(),
        m.ldc(),
        m.ldd(),
        m.batch(),
        m.strideA(),
        m.strideB(),
        m.strideC(),
        m.strideD(),
        m.alpha(),
        m.beta(),
        m.epilogue(),
        m.bias(),
        a,
        b,
        c,
        d);
  }
}
