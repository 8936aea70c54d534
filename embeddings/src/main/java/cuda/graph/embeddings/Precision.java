// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The arithmetic of an {@link Embedder}'s matrix products.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public enum Precision {
  /**
   * Everything in fp32, GELU in its exact erf form: embeddings within cosine 0.99999 of
   * LangChain4j's on fp32 models. The default.
   */
  FP32,
  /**
   * The weight matrices and the products' inputs in fp16, accumulated in fp32; the residual stream,
   * LayerNorm, softmax and pooling stay fp32. Embeddings within cosine 0.9995 of LangChain4j's,
   * about twice the throughput of {@link #FP32} on tensor cores, half the weights' memory.
   */
  FP16
}
