// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Experimental: serving Llama-architecture checkpoints from the JVM. A Hugging Face model directory
 * (config.json, safetensors weights in bf16, fp16 or fp32, tokenizer.json and the chat template of
 * tokenizer_config.json) is read, checked and refused by name where unsupported, and decoded with
 * continuous batching on CUDA graph buckets built on the library's public API. It exports {@code
 * cuda.graph.llm}: {@link cuda.graph.llm.LlmEngine} generates, {@link cuda.graph.llm.LlmServer}
 * serves an engine over an OpenAI-compatible HTTP endpoint. Everything in it is experimental and
 * may change or go in any release.
 *
 * <p>Native access: DJL's tokenizer and the cuda provider call native code; grant {@code
 * --enable-native-access=ALL-UNNAMED} on the class path (or name the modules on the module path).
 */
module cuda.graph.llm {
  exports cuda.graph.llm;

  // Transitive: the public types carry their @API status.
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph;
  requires cuda.graph.blas;
  requires ai.djl.tokenizers;
  requires ai.djl.api;
  // DJL's JSON library (a dependency of ai.djl.api): config.json and safetensors headers.
  requires com.google.gson;
  // The OpenAI-compatible endpoint (internal.server) runs on the JDK's HTTP server.
  requires jdk.httpserver;
  requires static org.jspecify;
}
