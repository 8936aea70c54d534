// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** One batch of texts embedded: what a profile of a service needs to see its batching. */
@Name("cuda.graph.embeddings.Batch")
@Label("Embedding Batch")
@Category({"CUDA", "Embeddings"})
@Description("A batch of texts embedded in one graph replay: its texts, tokens and model")
final class EmbedBatchEvent extends Event {

  @Label("Model")
  String model = "";

  @Label("Texts")
  int texts;

  @Label("Tokens")
  @Description("The texts' tokens, special tokens included, before padding")
  int tokens;

  @Label("Longest")
  @Description("The longest text's tokens: the batch is padded to its length bucket")
  int longest;

  @Label("Outcome")
  @Description("EMBEDDED, or FAILED with the exception's class")
  String outcome = "";
}
