// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Sentence embeddings the way a JVM service asks for them: {@link #embedAll} for ingestion (the
 * texts sorted by length so that a batch pads little, embedded a batch at a time, returned in their
 * order, with a progress line) and {@link #embed} for single requests from many threads, coalesced
 * into batches within a short window, as a server does.
 *
 * <p>Thread-safe: both go through one dispatcher thread, one batch at a time.
 */
public final class SentenceEmbedder implements AutoCloseable {

  private final GpuEncoder encoder;
  private final int maxBatch;

  /** Each request is a text's runs of word pieces (one, unless the tokenizer keeps long texts). */
  private final RequestCoalescer<List<BertTokenizer.Part>, float[]> requests;

  /**
   * An embedder of texts on {@code encoder}.
   *
   * @param encoder the encoder; closed with this embedder
   * @param maxBatch the most texts of a batch, at most the encoder's
   * @param window how long a single request waits for others to share its batch
   */
  public SentenceEmbedder(GpuEncoder encoder, int maxBatch, Duration window) {
    this(encoder, maxBatch, window, "");
  }

  /**
   * As {@link #SentenceEmbedder(GpuEncoder, int, Duration)}, naming {@code model} in the batches'
   * JFR events.
   */
  public SentenceEmbedder(GpuEncoder encoder, int maxBatch, Duration window, String model) {
    this.encoder = Objects.requireNonNull(encoder, "encoder");
    this.maxBatch = maxBatch;
    this.requests =
        new RequestCoalescer<>(
            "cuda-graph-embedder", window, maxBatch, batch -> recorded(encoder, batch, model));
  }

  /** {@return the batch's embeddings}, with a JFR event when one is recorded */
  private static List<float[]> recorded(
      GpuEncoder encoder, List<List<BertTokenizer.Part>> batch, String model) {
    EmbedBatchEvent event = new EmbedBatchEvent();
    if (!event.isEnabled()) {
      return List.of(encoder.embedParts(batch));
    }
    event.begin();
    event.model = model;
    event.texts = batch.size();
    for (List<BertTokenizer.Part> text : batch) {
      for (BertTokenizer.Part part : text) {
        event.tokens += part.ids().length;
        event.longest = Math.max(event.longest, part.ids().length);
      }
    }
    try {
      List<float[]> out = List.of(encoder.embedParts(batch));
      event.outcome = "EMBEDDED";
      return out;
    } catch (RuntimeException | Error e) {
      event.outcome = "FAILED " + e.getClass().getName();
      throw e;
    } finally {
      event.commit();
    }
  }

  /**
   * {@return the embedding of {@code text}}, computed in a batch with the requests of other threads
   * that arrive within the window
   *
   * <p>Any text gets its embedding or one of the exceptions below, thrown on the caller's thread
   * before the text joins a batch, so that a bad text fails no other request. A text with an
   * unpaired surrogate is refused rather than embedded without it (see {@link
   * BertTokenizer#parts(String)} for why); replace or drop the surrogate first.
   *
   * @param text the text
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if the text holds an unpaired surrogate, has no word pieces
   *     (it is empty, or only whitespace and characters the tokenizer removes), or is longer than
   *     the encoder's {@code maxLength} tokens
   * @throws IllegalStateException if the embedder is closed
   */
  public float[] embed(@Nullable String text) {
    // Tokenized on the caller's thread: the dispatcher only batches and runs graphs.
    List<BertTokenizer.Part> parts = encoder.tokenize(text, "Embedder.embed", "the text");
    return joined(requests.submit(parts));
  }

  /** {@return the result of {@code future}}, or the exception its batch failed with, unwrapped */
  private static float[] joined(java.util.concurrent.CompletableFuture<float[]> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /**
   * {@return the embedding of each text, in order}: sorted by token count into batches of up to
   * {@code maxBatch}, each batch run in its graph
   *
   * <p>Every text is tokenized before any batch runs, so a list with a text {@link #embed} would
   * refuse is refused whole, with that exception, naming the first such text's index ("text 3 of
   * 9").
   *
   * @param texts the texts
   * @param progress told a line after every batch ("embedded 1,024 of 10,000 texts, ...")
   * @throws NullPointerException if the list, {@code progress} or a text is null
   * @throws IllegalArgumentException if a text is one {@link #embed} refuses
   */
  public float[][] embedAll(
      List<? extends @Nullable String> texts,
      Consumer<? super cuda.graph.embeddings.Progress> progress) {
    if (texts == null || progress == null) {
      throw new NullPointerException(
          "Embedder.embedAll: "
              + (texts == null ? "the list of texts" : "progress")
              + " is null; pass a list of texts and a consumer of progress (p -> {} to ignore it)");
    }
    int n = texts.size();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // Once per text, on every core: tokenizing as LangChain4j does costs about 0.3 ms a text on
    // one core, more than the GPU's share of a batch (DJL's tokenizer is thread-safe). A refusal
    // is kept at its text's index, so that the first bad text is the one reported whatever thread
    // met a bad one first.
    List<List<BertTokenizer.Part>> parts = new ArrayList<>(java.util.Collections.nCopies(n, null));
    RuntimeException[] refused = new RuntimeException[n];
    java.util.stream.IntStream.range(0, n)
        .parallel()
        .forEach(
            i -> {
              try {
                parts.set(
                    i,
                    encoder.tokenize(texts.get(i), "Embedder.embedAll", "text " + i + " of " + n));
              } catch (RuntimeException e) {
                refused[i] = e;
              }
            });
    for (RuntimeException e : refused) {
      if (e != null) {
        throw e;
      }
    }
    java.util.Arrays.sort(
        order,
        Comparator.comparingInt(i -> parts.get(i).stream().mapToInt(p -> p.ids().length).sum()));
    float[][] out = new float[n][];
    long started = System.nanoTime();
    for (int from = 0; from < n; from += maxBatch) {
      int to = Math.min(n, from + maxBatch);
      List<List<BertTokenizer.Part>> batch = new ArrayList<>(to - from);
      for (int k = from; k < to; k++) {
        batch.add(parts.get(order[k]));
      }
      // Through the dispatcher, so that single requests and batches never run at once.
      List<float[]> embedded = new ArrayList<>(batch.size());
      for (var future : batch.stream().map(requests::submit).toList()) {
        embedded.add(joined(future));
      }
      for (int k = from; k < to; k++) {
        out[order[k]] = embedded.get(k - from);
      }
      progress.accept(
          new cuda.graph.embeddings.Progress(
              to, n, java.time.Duration.ofNanos(System.nanoTime() - started)));
    }
    return out;
  }

  /** {@return the encoder the batches run on} */
  public GpuEncoder encoder() {
    return encoder;
  }

  @Override
  public void close() {
    requests.close();
    encoder.close();
  }
}
