// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The plain-Java fp32 Llama forward pass, the oracle the kernels and the engine are checked
 * against: embedding, RMSNorm, rotary embeddings (Hugging Face's rotate_half, Llama 3's frequency
 * scaling), grouped-query attention over a KV cache, the SwiGLU MLP and the output projection,
 * batched over sequences of different lengths with greedy decoding. May depend on {@code
 * .checkpoint}.
 */
@NullMarked
package cuda.graph.llm.internal.reference;

import org.jspecify.annotations.NullMarked;
