// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * LangChain4j's {@code EmbeddingModel} on the GPU: the public API of {@code
 * cuda-graph-langchain4j}.
 *
 * <p>{@link cuda.graph.langchain4j.CudaGraphEmbeddingModel} embeds with a {@code
 * cuda.graph.embeddings} embedder, so LangChain4j's ingestors, embedding stores and retrievers run
 * on it unchanged; its builder takes the model and the embedder's settings. Its implementation is a
 * package-private class beside it.
 *
 * <p>Modules. LangChain4j runs on the class path, and so does this jar. On the module path it is the
 * automatic module {@code cuda.graph.langchain4j} (named in its manifest): LangChain4j's jars name
 * no module, so no descriptor could require them by a stable name. Native access: DJL's tokenizer
 * and the cuda provider call native code; grant {@code --enable-native-access=ALL-UNNAMED}.
 */
@NullMarked
package cuda.graph.langchain4j;

import org.jspecify.annotations.NullMarked;
