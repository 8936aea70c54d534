// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How a matrix is laid out in memory. Element (i, j) of a matrix with leading dimension {@code ld}
 * lies at {@code i * ld + j} in {@link #ROW_MAJOR} order and at {@code i + j * ld} in {@link
 * #COLUMN_MAJOR} order (cuBLAS's own). The matrices of one {@link Matmul} share one order.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum Order {
  /** Rows are contiguous: element (i, j) at {@code i * ld + j}; {@code ld >= cols}. */
  ROW_MAJOR,
  /** Columns are contiguous: element (i, j) at {@code i + j * ld}; {@code ld >= rows}. */
  COLUMN_MAJOR
}
