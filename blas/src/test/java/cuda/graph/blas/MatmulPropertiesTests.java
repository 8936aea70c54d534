// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random products against a plain product in double precision: shapes, transposes, both orders,
 * leading dimensions and offsets larger than needed, strided and broadcast batches, every input and
 * output type, TF32, C and every epilogue. Elements of D's buffer outside D (gaps between rows,
 * between batches, before the offset) keep what they held.
 */
class MatmulPropertiesTests {

  /** The type combinations a product can have. */
  enum Types {
    F32(ElementType.F32, ElementType.F32, Compute.F32),
    TF32(ElementType.F32, ElementType.F32, Compute.TF32),
    F16(ElementType.F16, ElementType.F16, Compute.F32),
    F16_TO_F32(ElementType.F16, ElementType.F32, Compute.F32),
    BF16(ElementType.BF16, ElementType.BF16, Compute.F32),
    BF16_TO_F32(ElementType.BF16, ElementType.F32, Compute.F32);

    final ElementType<?> in;
    final ElementType<?> out;
    final Compute compute;

    Types(ElementType<?> in, ElementType<?> out, Compute compute) {
      this.in = in;
      this.out = out;
      this.compute = compute;
    }
  }

  private static CudaPlatform platform;
  private static Stream stream;
  private static Blas blas;
  private static Workspace workspace;

  @BeforeContainer
  static void open() {
    platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    stream = platform.defaultDevice().newStream();
    blas = Blas.open(platform.defaultDevice());
    workspace = Workspace.allocate(blas.workspaceLimit() >> 8).syncOn(stream);
  }

  @AfterContainer
  static void close() {
    workspace.close();
    blas.close();
    stream.close();
    platform.close();
  }

  @Property(tries = 150)
  void aProductEqualsThePlainProductWithinItsRounding(
      @ForAll @IntRange(min = 1, max = 9) int m,
      @ForAll @IntRange(min = 1, max = 9) int n,
      @ForAll @IntRange(min = 1, max = 12) int k,
      @ForAll @IntRange(min = 1, max = 3) int batch,
      @ForAll Order order,
      @ForAll boolean transA,
      @ForAll boolean transB,
      @ForAll @IntRange(max = 3) int padding,
      @ForAll @IntRange(max = 5) int offset,
      @ForAll boolean broadcastB,
      @ForAll Types types,
      @ForAll Epilogue epilogue,
      @ForAll boolean withC,
      @ForAll long seed) {
    Random random = new Random(seed);
    List<DeviceBuffer<?>> buffers = new ArrayList<>();
    try {
      float alpha = random.nextBoolean() ? 1f : (float) (random.nextDouble() * 4 - 2);
      float beta = (float) (random.nextDouble() * 2 - 1);
      Operand a = operand(types.in, transA ? k : m, transA ? m : k, order, padding, offset, batch);
      Operand b =
          operand(
              types.in, transB ? n : k, transB ? k : n, order, padding, 0, broadcastB ? 1 : batch);
      Operand c = operand(types.out, m, n, order, padding, offset, batch);
      Operand d = operand(types.out, m, n, order, padding + 1, offset, batch);
      // One bias element per index of D's contiguous dimension (and two more, never read).
      int biasLength = (order == Order.ROW_MAJOR ? n : m) + 2;
      HostMatrices.Contents biasValues =
          HostMatrices.Contents.random(types.out, biasLength, random);

      List<HostMatrices.Contents> contents = new ArrayList<>();
      for (Operand x : List.of(a, b, c, d)) {
        contents.add(HostMatrices.Contents.random(x.type, (int) x.length, random));
      }
      for (HostMatrices.Contents x : contents) {
        buffers.add(x.upload(stream));
      }
      DeviceBuffer<?> bias = biasValues.upload(stream);
      buffers.add(bias);
      Matmul mm =
          Matmul.of(
                  a.view(buffers.get(0), transA),
                  b.view(buffers.get(1), transB),
                  d.view(buffers.get(3), false))
              .scaledBy(alpha)
              .withCompute(types.compute);
      if (withC) {
        mm = mm.plus(beta, c.view(buffers.get(2), false));
      }
      mm = epilogue.takesBias() ? mm.withEpilogue(epilogue, bias) : mm.withEpilogue(epilogue);

      Matmul product = mm;
      blas.matmul(product, workspace).syncOn(stream);

      double[] result = HostMatrices.Contents.download(buffers.get(3), stream);
      HostMatrices.Expected[] expected =
          HostMatrices.expected(
              product,
              contents.get(0).values(),
              contents.get(1).values(),
              contents.get(2).values(),
              biasValues.values(),
              result.length);
      for (int i = 0; i < result.length; i++) {
        HostMatrices.Expected e = expected[i];
        if (e == null) {
          assertEquals(contents.get(3).values()[i], result[i], "element " + i + " is not D's");
        } else {
          double error = Math.abs(result[i] - e.value());
          int at = i;
          assertTrue(
              error <= e.tolerance(),
              () ->
                  "element "
                      + at
                      + " of "
                      + product
                      + ": "
                      + result[at]
                      + " but the plain product gives "
                      + e.value()
                      + " (tolerance "
                      + e.tolerance()
                      + ")");
        }
      }
    } finally {
      buffers.forEach(DeviceBuffer::close);
    }
  }

  /** A stored matrix's layout and the buffer length it needs. */
  private record Operand(
      ElementType<?> type,
      int rows,
      int cols,
      Order order,
      long ld,
      long offset,
      int batch,
      long stride,
      long length) {

    MatrixView view(DeviceBuffer<?> buffer, boolean transposed) {
      MatrixView view =
          (order == Order.ROW_MAJOR
                  ? MatrixView.rowMajor(buffer, rows, cols)
                  : MatrixView.columnMajor(buffer, rows, cols))
              .withLeadingDimension(ld)
              .atOffset(offset)
              .batched(batch, stride);
      return transposed ? view.transposed() : view;
    }
  }

  private static Operand operand(
      ElementType<?> type, int rows, int cols, Order order, int padding, int offset, int batch) {
    long ld = (order == Order.ROW_MAJOR ? cols : rows) + padding;
    long span = ((order == Order.ROW_MAJOR ? rows : cols) - 1) * ld + ld;
    long stride = batch == 1 ? 0 : span + padding;
    long length = offset + (batch - 1) * stride + span + padding;
    return new Operand(type, rows, cols, order, ld, offset, batch, stride, length);
  }
}
