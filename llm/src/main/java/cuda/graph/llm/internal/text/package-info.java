// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Text in and out of a model: the Hugging Face tokenizer of {@code tokenizer.json} (DJL's), decoding
 * streamed a token at a time (text emitted only once its UTF-8 is complete, stop sequences matched
 * on the decoded text) and the chat template of {@code tokenizer_config.json} (Jinja, rendered by
 * the module's own renderer, {@code .jinja}, as transformers renders it). May depend on {@code
 * .jinja}.
 */
@NullMarked
package cuda.graph.llm.internal.text;

import org.jspecify.annotations.NullMarked;
