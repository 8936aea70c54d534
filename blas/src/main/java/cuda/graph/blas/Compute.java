// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How the products of a {@link Matmul} are computed. Accumulation is in fp32 always, and fp16 and
 * bf16 inputs are widened to fp32 exactly.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum Compute {
  /** fp32 multiply-add: every input bit takes part. */
  F32,
  /**
   * TF32 tensor cores, for fp32 inputs only: each input is first rounded to nearest to 10 mantissa
   * bits (ties away from zero, as {@code cvt.rna.tf32.f32}), then multiplied and accumulated in
   * fp32. Faster on Ampere and later, with a relative error per input of at most 2<sup>-11</sup>.
   */
  TF32
}
