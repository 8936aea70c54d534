// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Sentence embeddings on the GPU: a BERT-family encoder read from an ONNX model (a LangChain4j model
 * jar on the class path, or an ONNX file and its {@code tokenizer.json} on disk), run as one
 * captured CUDA graph per batch shape, with texts batched, sorted by length and coalesced across
 * threads. See {@link cuda.graph.embeddings.Embedder}.
 *
 * <p>Native access: DJL's tokenizer and the cuda provider call native code; grant {@code
 * --enable-native-access=ALL-UNNAMED} on the class path (or name the modules on the module path).
 */
module cuda.graph.embeddings {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph;
  requires cuda.graph.blas;
  requires ai.djl.tokenizers;
  requires ai.djl.api;
  // DJL's JSON library (a dependency of ai.djl.api): BertTokenizer reads the tokenizer.json with it.
  requires com.google.gson;
  requires com.google.protobuf;
  requires jdk.jfr;
  requires static org.jspecify;

  exports cuda.graph.embeddings;
}
