// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * A grid or block shape in up to three dimensions, as CUDA's {@code dim3}. Every dimension is at
 * least 1.
 *
 * @param x the first dimension
 * @param y the second dimension
 * @param z the third dimension
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public record Dim3(int x, int y, int z) {

  /**
   * Checks the shape.
   *
   * @throws IllegalArgumentException if a dimension is below 1
   */
  public Dim3 {
    if (x < 1 || y < 1 || z < 1) {
      throw new IllegalArgumentException(
          "every dimension of a grid or block is at least 1, got ("
              + x
              + ", "
              + y
              + ", "
              + z
              + ")");
    }
  }

  /**
   * {@return a one-dimensional shape}
   *
   * @param x the first dimension, at least 1
   */
  public static Dim3 of(int x) {
    return new Dim3(x, 1, 1);
  }

  /**
   * {@return a two-dimensional shape}
   *
   * @param x the first dimension, at least 1
   * @param y the second dimension, at least 1
   */
  public static Dim3 of(int x, int y) {
    return new Dim3(x, y, 1);
  }

  /** {@return a three-dimensional shape} */
  public static Dim3 of(int x, int y, int z) {
    return new Dim3(x, y, z);
  }

  /** {@return x * y * z} */
  public long volume() {
    return (long) x * y * z;
  }

  @Override
  public String toString() {
    return "(" + x + ", " + y + ", " + z + ")";
  }
}
