// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.matmul;

import cuda.graph.DeviceBuffer;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.MatmulOperands;
import org.jspecify.annotations.Nullable;

/**
 * A public {@link Matmul}, already checked when it was made, as the backends take it: the product
 * ({@link CheckedMatmul}, the key plans are cached by) and its buffers, each view cut down to a
 * slice that starts at its element (0, 0), so leading dimensions and strides count from there.
 */
final class Resolution {

  private Resolution() {}

  /**
   * {@return the product {@code matmul} describes}: a C scaled by 0 is dropped (cuBLASLt reads
   * none), and then C's layout is D's; inputs of a batch of one are given stride 0
   */
  static CheckedMatmul product(Matmul matmul) {
    MatrixView a = matmul.a();
    MatrixView b = matmul.b();
    MatrixView d = matmul.d();
    MatrixView c = hasC(matmul) ? matmul.c() : null;
    int batch = d.batch();
    MatrixView cLayout = c == null ? d : c;
    return new CheckedMatmul(
        matmul.m(),
        matmul.n(),
        matmul.k(),
        CheckedMatmul.Order.valueOf(d.order().name()),
        a.transpose(),
        b.transpose(),
        a.elementType(),
        b.elementType(),
        d.elementType(),
        CheckedMatmul.Compute.valueOf(matmul.compute().name()),
        a.ld(),
        b.ld(),
        cLayout.ld(),
        d.ld(),
        batch,
        stride(a, batch),
        stride(b, batch),
        stride(cLayout, batch),
        stride(d, batch),
        matmul.alpha(),
        c == null ? 0f : matmul.beta(),
        CheckedMatmul.Epilogue.valueOf(matmul.epilogue().name()),
        matmul.bias() == null ? null : matmul.bias().elementType(),
        slice(a).alignment(),
        slice(b).alignment(),
        slice(cLayout).alignment(),
        slice(d).alignment());
  }

  /**
   * {@return the buffers of {@code matmul}}
   *
   * @param workspace the workspace to declare, or null when the plan needs none
   */
  static MatmulOperands operands(Matmul matmul, @Nullable DeviceBuffer<?> workspace) {
    DeviceBuffer<?> d = slice(matmul.d());
    MatrixView c = hasC(matmul) ? matmul.c() : null;
    DeviceBuffer<?> cSlice = c == null ? null : c.equals(matmul.d()) ? d : slice(c);
    return new MatmulOperands(
        slice(matmul.a()), slice(matmul.b()), cSlice, d, matmul.bias(), workspace);
  }

  private static boolean hasC(Matmul matmul) {
    return matmul.c() != null && matmul.beta() != 0;
  }

  private static long stride(MatrixView x, int batch) {
    return batch == 1 || x.batch() == 1 ? 0 : x.stride();
  }

  private static DeviceBuffer<?> slice(MatrixView x) {
    DeviceBuffer<?> buffer = x.buffer();
    long length = x.elementsSpanned();
    return x.offset() == 0 && length == buffer.length() ? buffer : buffer.slice(x.offset(), length);
  }
}
