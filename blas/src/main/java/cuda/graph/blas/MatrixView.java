// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A matrix (or a strided batch of matrices) as it lies in a {@link DeviceBuffer}: {@code rows x
 * cols} elements of the buffer's type (f32, f16 or bf16) from element {@code offset}, in {@code
 * order} with leading dimension {@code ld}; matrix {@code b} of a batch starts {@code b * stride}
 * elements after the first. {@code transpose} says that a {@link Matmul} uses the matrix's
 * transpose: op(X) is then {@code cols x rows}.
 *
 * <p>Checked when made: every field is in range, and the buffer is open and holds every element the
 * view spans ({@link #elementsSpanned()}), so a view never reaches outside its buffer. A view holds
 * no memory; it does not keep the buffer open.
 *
 * {@snippet class=cuda.graph.blas.JavadocSnippetsTests region=matrix-view}
 *
 * @param buffer the memory, of element type f32, f16 or bf16
 * @param offset the index in {@code buffer} of element (0, 0) of the first matrix
 * @param rows the rows of the matrix as stored, at least 1
 * @param cols the columns of the matrix as stored, at least 1
 * @param ld the leading dimension: at least {@code cols} in row-major order, {@code rows} in
 *     column-major order
 * @param order how the elements are laid out
 * @param transpose whether a product uses the transpose of the stored matrix
 * @param batch how many matrices, at least 1
 * @param stride elements between consecutive matrices of the batch, at least 0 (0: the same matrix
 *     for every product of a batch, allowed for inputs only)
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record MatrixView(
    DeviceBuffer<?> buffer,
    long offset,
    int rows,
    int cols,
    long ld,
    Order order,
    boolean transpose,
    int batch,
    long stride) {

  /**
   * Checks the view.
   *
   * @throws IllegalArgumentException if a dimension, the leading dimension, the offset, the batch
   *     or the stride is out of range, the buffer's type is not f32, f16 or bf16, or the buffer is
   *     too small for the elements the view spans
   * @throws IllegalStateException if the buffer is closed
   */
  public MatrixView {
    Objects.requireNonNull(buffer, "buffer");
    Objects.requireNonNull(order, "order");
    String call = "MatrixView";
    ElementType<?> type = buffer.elementType();
    if (type != ElementType.F32 && type != ElementType.F16 && type != ElementType.BF16) {
      throw new IllegalArgumentException(
          call
              + ": "
              + buffer
              + " holds "
              + type
              + "; matrix products take f32, f16 or bf16 matrices");
    }
    if (buffer.isClosed()) {
      throw new IllegalStateException(
          call + ": " + buffer + " is closed; make the view over an open buffer");
    }
    if (rows < 1 || cols < 1) {
      throw new IllegalArgumentException(
          call
              + ": a matrix of "
              + rows
              + " x "
              + cols
              + " holds no element; describe at least 1 row and 1 column");
    }
    long minor = order == Order.ROW_MAJOR ? cols : rows;
    if (ld < minor) {
      throw new IllegalArgumentException(
          call
              + ": leading dimension "
              + ld
              + " is less than the "
              + (order == Order.ROW_MAJOR ? "columns" : "rows")
              + " ("
              + minor
              + ") of a "
              + rows
              + " x "
              + cols
              + " "
              + order
              + " matrix; use at least "
              + minor);
    }
    if (offset < 0) {
      throw new IllegalArgumentException(
          call
              + ": offset "
              + offset
              + " is negative; use 0 or more, the index of element (0, 0) in "
              + buffer);
    }
    if (batch < 1) {
      throw new IllegalArgumentException(
          call + ": a batch of " + batch + " matrices; a batch holds at least 1");
    }
    if (stride < 0) {
      throw new IllegalArgumentException(
          call + ": batch stride " + stride + " is negative; use 0 or more elements");
    }
    long needed = end(offset, rows, cols, ld, order, batch, stride);
    if (needed > buffer.length()) {
      throw new IllegalArgumentException(
          call
              + ": the view spans elements "
              + offset
              + " to "
              + (needed - 1)
              + " but "
              + buffer
              + " holds "
              + buffer.length()
              + "; use a larger buffer, or a smaller view (rows, columns, leading dimension,"
              + " batch or stride)");
    }
  }

  /**
   * {@return a dense row-major view of {@code rows x cols} elements from element 0}: leading
   * dimension {@code cols}, not transposed, a batch of one
   *
   * @param buffer the memory, of element type f32, f16 or bf16
   * @param rows the rows as stored
   * @param cols the columns as stored
   */
  public static MatrixView rowMajor(DeviceBuffer<?> buffer, int rows, int cols) {
    return new MatrixView(buffer, 0, rows, cols, cols, Order.ROW_MAJOR, false, 1, 0);
  }

  /**
   * {@return a dense column-major view of {@code rows x cols} elements from element 0}: leading
   * dimension {@code rows}, not transposed, a batch of one
   *
   * @param buffer the memory, of element type f32, f16 or bf16
   * @param rows the rows as stored
   * @param cols the columns as stored
   */
  public static MatrixView columnMajor(DeviceBuffer<?> buffer, int rows, int cols) {
    return new MatrixView(buffer, 0, rows, cols, rows, Order.COLUMN_MAJOR, false, 1, 0);
  }

  /**
   * {@return this view with leading dimension {@code ld}}
   *
   * @param ld at least the columns (row-major) or rows (column-major)
   */
  public MatrixView withLeadingDimension(long ld) {
    return new MatrixView(buffer, offset, rows, cols, ld, order, transpose, batch, stride);
  }

  /**
   * {@return this view starting at element {@code offset} of the buffer}
   *
   * @param offset at least 0
   */
  public MatrixView atOffset(long offset) {
    return new MatrixView(buffer, offset, rows, cols, ld, order, transpose, batch, stride);
  }

  /** {@return this view, used transposed by a product: op(X) = X<sup>T</sup>} */
  public MatrixView transposed() {
    return new MatrixView(buffer, offset, rows, cols, ld, order, true, batch, stride);
  }

  /**
   * {@return this view as a batch of {@code batch} matrices {@code stride} elements apart}
   *
   * @param batch at least 1
   * @param stride at least 0
   */
  public MatrixView batched(int batch, long stride) {
    return new MatrixView(buffer, offset, rows, cols, ld, order, transpose, batch, stride);
  }

  /** {@return the element type of the buffer} */
  public ElementType<?> elementType() {
    return buffer.elementType();
  }

  /** {@return the rows of op(X): {@code cols} when transposed, else {@code rows}} */
  public int opRows() {
    return transpose ? cols : rows;
  }

  /** {@return the columns of op(X): {@code rows} when transposed, else {@code cols}} */
  public int opCols() {
    return transpose ? rows : cols;
  }

  /**
   * {@return the elements of one matrix from its element (0, 0) to its last, gaps included}: {@code
   * (rows - 1) * ld + cols} in row-major order, {@code (cols - 1) * ld + rows} in column-major
   */
  public long matrixSpan() {
    return span(rows, cols, ld, order);
  }

  /** {@return the elements from {@link #offset()} to the end of the last matrix of the batch} */
  public long elementsSpanned() {
    return end(offset, rows, cols, ld, order, batch, stride) - offset;
  }

  private static long span(int rows, int cols, long ld, Order order) {
    long major = order == Order.ROW_MAJOR ? rows : cols;
    long minor = order == Order.ROW_MAJOR ? cols : rows;
    return Math.addExact(Math.multiplyExact(major - 1, ld), minor);
  }

  private static long end(
      long offset, int rows, int cols, long ld, Order order, int batch, long stride) {
    try {
      return Math.addExact(
          Math.addExact(offset, Math.multiplyExact((long) batch - 1, stride)),
          span(rows, cols, ld, order));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "MatrixView: the view's extent overflows a long; check the leading dimension, batch and"
              + " stride",
          e);
    }
  }
}
