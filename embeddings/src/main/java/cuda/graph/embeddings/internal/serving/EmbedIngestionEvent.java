// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * One {@code embedAll}: where its time went and how long its texts were, what a profile (and the
 * benchmark) needs to see whether tokenization, the host or the GPU bounds ingestion. The call's
 * duration is the event's; the parts of it spent by the calling thread (waiting for tokenized
 * texts, for a single query's batch, for the stream) are disjoint; tokenization and preparation run
 * on the pool's threads, overlapped with them, and are summed over those threads.
 */
@Name("cuda.graph.embeddings.Ingestion")
@Label("Embedding Ingestion")
@Category({"CUDA", "Embeddings"})
@Description("One embedAll: its texts, batches, token lengths and where its time went")
final class EmbedIngestionEvent extends Event {

  @Label("Model")
  String model = "";

  @Label("Texts")
  int texts;

  @Label("Batches")
  int batches;

  @Label("Tokens")
  @Description("The texts' tokens, special tokens included, before padding")
  long tokens;

  @Label("Padded Tokens")
  @Description("The tokens of the shapes the batches ran in, padding included")
  long paddedTokens;

  @Label("Tokenization")
  @Description("Time the pool's threads spent tokenizing, summed over the threads")
  @Timespan(Timespan.NANOSECONDS)
  long tokenizeNanos;

  @Label("Preparation")
  @Description(
      "Time the pool's threads spent sorting and padding batches into their shapes' arrays, summed"
          + " over the threads")
  @Timespan(Timespan.NANOSECONDS)
  long prepareNanos;

  @Label("Waiting for Tokens")
  @Description("Time the calling thread waited for a chunk's texts to be tokenized")
  @Timespan(Timespan.NANOSECONDS)
  long tokenizedWaitNanos;

  @Label("Waiting for Queries")
  @Description("Time the calling thread waited for the encoder while single queries ran")
  @Timespan(Timespan.NANOSECONDS)
  long lockWaitNanos;

  @Label("Waiting for the Stream")
  @Description(
      "Time the calling thread waited on the stream: the inputs' copy, the graphs, the outputs'"
          + " copy back")
  @Timespan(Timespan.NANOSECONDS)
  long streamWaitNanos;

  @Label("1-16 Tokens")
  int tokens1To16;

  @Label("17-32 Tokens")
  int tokens17To32;

  @Label("33-64 Tokens")
  int tokens33To64;

  @Label("65-128 Tokens")
  int tokens65To128;

  @Label("Over 128 Tokens")
  int tokensOver128;

  @Label("Outcome")
  @Description("EMBEDDED, or FAILED with the exception's class")
  String outcome = "";
}
