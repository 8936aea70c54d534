// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What a {@link Matmul} applies to each element {@code x = alpha * op(A) * op(B) + beta * C} before
 * it is rounded to D's type, in fp32, as cuBLASLt's epilogues do. The bias is a vector with one
 * element per index of D's contiguous dimension, added before the activation: per column of a
 * row-major D ({@code x + bias[j]} for element (i, j), {@code n} elements), as a row-major linear
 * layer {@code y = x w^T + b} adds one bias value per output feature; per row of a column-major D
 * ({@code x + bias[i]}, {@code m} elements). See {@link Matmul}. GELU is the tanh approximation
 * {@code 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))}.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum Epilogue {
  /** D = x. */
  NONE,
  /** D = max(x, 0). */
  RELU,
  /** D = gelu(x). */
  GELU,
  /** D = x + bias. */
  BIAS,
  /** D = max(x + bias, 0). */
  BIAS_RELU,
  /** D = gelu(x + bias). */
  BIAS_GELU;

  /** {@return whether the epilogue adds a bias vector, which the matmul must then be given} */
  public boolean takesBias() {
    return this == BIAS || this == BIAS_RELU || this == BIAS_GELU;
  }
}
