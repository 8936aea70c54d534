// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import cuda.graph.embeddings.Progress;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Sentence embeddings the way a JVM service asks for them: {@link #embedAll} for ingestion
 * (tokenized on every core a chunk at a time while the GPU runs the batches of the chunks before,
 * each chunk's texts sorted by length so that a batch pads little, returned in their order, with a
 * progress line per batch) and {@link #embed} for single requests from many threads: run at once on
 * the caller's thread when nothing else runs, coalesced into batches when they overlap.
 *
 * <p>Thread-safe: batches, single requests and ingestion's batches run one at a time (the encoder
 * is not thread-safe), through one {@link RequestCoalescer}'s lock.
 */
public final class SentenceEmbedder implements AutoCloseable {

  /**
   * Texts per chunk of ingestion, rounded down to whole batches: a few thousand, so that the first
   * batch waits for little tokenization (4,096 texts at 60 us a text on 15 cores: 16 ms) and a
   * chunk's batches, sorted by length, pad about as little as batches of the whole list.
   */
  static final int CHUNK_TEXTS = 4096;

  /** Chunks tokenized ahead of the one whose batches run: bounds the memory tokens take. */
  private static final int AHEAD = 3;

  private final GpuEncoder encoder;
  private final int maxBatch;
  private final int chunk;
  private final String model;

  /** Each request is a text's runs of word pieces (one, unless the tokenizer keeps long texts). */
  private final RequestCoalescer<List<BertTokenizer.Part>, float[]> requests;

  /**
   * Ingestion's tokenizers and batch preparers: a thread per core (DJL's tokenizer is thread-safe).
   */
  private final ForkJoinPool pool;

  /**
   * An embedder of texts on {@code encoder}.
   *
   * @param encoder the encoder; closed with this embedder
   * @param maxBatch the most texts of a batch, at most the encoder's
   * @param window how long a single request waits for others to share its batch, once requests
   *     overlap
   */
  public SentenceEmbedder(GpuEncoder encoder, int maxBatch, Duration window) {
    this(encoder, maxBatch, window, "");
  }

  /**
   * As {@link #SentenceEmbedder(GpuEncoder, int, Duration)}, naming {@code model} in the batches'
   * JFR events.
   */
  public SentenceEmbedder(GpuEncoder encoder, int maxBatch, Duration window, String model) {
    this(encoder, maxBatch, window, model, CHUNK_TEXTS);
  }

  /** As above, with chunks of {@code chunkTexts} texts (rounded down to whole batches). */
  SentenceEmbedder(
      GpuEncoder encoder, int maxBatch, Duration window, String model, int chunkTexts) {
    this.encoder = Objects.requireNonNull(encoder, "encoder");
    this.maxBatch = maxBatch;
    this.chunk = Math.max(1, chunkTexts / maxBatch) * maxBatch;
    this.model = model;
    this.requests =
        new RequestCoalescer<>(
            "cuda-graph-embedder",
            window,
            maxBatch,
            batch -> List.of(recorded(batch, () -> encoder.embedParts(batch))));
    this.pool =
        new ForkJoinPool(
            Runtime.getRuntime().availableProcessors(),
            p -> {
              var thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
              thread.setName("cuda-graph-tokenizer-" + thread.getPoolIndex());
              thread.setDaemon(true);
              return thread;
            },
            null,
            false);
  }

  /** {@return {@code run}'s embeddings of {@code batch}}, with a JFR event when one is recorded */
  private float[][] recorded(List<List<BertTokenizer.Part>> batch, Supplier<float[][]> run) {
    EmbedBatchEvent event = new EmbedBatchEvent();
    if (!event.isEnabled()) {
      return run.get();
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
      float[][] out = run.get();
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
   * {@return the embedding of {@code text}}: computed at once on this thread when no other request
   * or batch runs, else in a batch with the requests of other threads that overlap it (those that
   * arrive within the window, or while the batch before runs)
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
    // Tokenized on the caller's thread: a batch only runs graphs.
    List<BertTokenizer.Part> parts = encoder.tokenize(text, "Embedder.embed", "the text");
    return requests.call(parts);
  }

  /** A chunk tokenized and its batches prepared, or the lowest refusal among its texts. */
  private record Chunk(
      @Nullable RuntimeException refused, List<Batch> batches, int[] histogram, long tokens) {}

  /** A batch of a chunk: where its texts come from in the list, and its arrays made ready. */
  private record Batch(
      int[] indices, List<List<BertTokenizer.Part>> texts, GpuEncoder.Prepared prepared) {}

  /** What the pool's threads spent on one call, for its JFR event. */
  private record Clocks(LongAdder tokenize, LongAdder prepare) {}

  /**
   * {@return the embedding of each text, in order}: tokenized on every core a chunk of a few
   * thousand texts at a time, while the batches of the chunks before run; each chunk's texts sorted
   * by token count into batches of up to {@code maxBatch}, padded on the pool's threads, each batch
   * run in its graph
   *
   * <p>A list with a text {@link #embed} would refuse is refused whole, with that exception, naming
   * the lowest such text's index ("text 3 of 9"), whichever thread met a bad text first. The
   * batches of the chunks before that text's may have run by then, and {@code progress} told of
   * them: a refusal found late costs their time, and their embeddings are dropped.
   *
   * <p>Single requests ({@link #embed}) from other threads never run at once with a batch: a
   * request that comes while ingestion runs waits for the batch then running, and runs before the
   * next.
   *
   * @param texts the texts, read from the pool's threads (as from the caller's: a list that is not
   *     changed during the call)
   * @param progress told a line on the calling thread after every batch ("embedded 1,024 of 10,000
   *     texts, ..."), its time counted from the call's start, tokenization included
   * @throws NullPointerException if the list, {@code progress} or a text is null
   * @throws IllegalArgumentException if a text is one {@link #embed} refuses
   * @throws IllegalStateException if the embedder is closed
   */
  public float[][] embedAll(
      List<? extends @Nullable String> texts, Consumer<? super Progress> progress) {
    long started = System.nanoTime();
    if (texts == null || progress == null) {
      throw new NullPointerException(
          "Embedder.embedAll: "
              + (texts == null ? "the list of texts" : "progress")
              + " is null; pass a list of texts and a consumer of progress (p -> {} to ignore it)");
    }
    EmbedIngestionEvent event = new EmbedIngestionEvent();
    event.begin();
    int n = texts.size();
    int chunks = (n + chunk - 1) / chunk;
    float[][] out = new float[n][];
    Clocks clocks = new Clocks(new LongAdder(), new LongAdder());
    AtomicBoolean abandoned = new AtomicBoolean();
    List<ForkJoinTask<Chunk>> tokenizing = new ArrayList<>(chunks);
    int embedded = 0;
    try {
      for (int k = 0; k < chunks; k++) {
        while (tokenizing.size() < Math.min(chunks, k + 1 + AHEAD)) {
          int from = tokenizing.size() * chunk, to = Math.min(n, from + chunk);
          tokenizing.add(submit(() -> tokenized(texts, from, to, abandoned, clocks)));
        }
        long waiting = System.nanoTime();
        Chunk done = tokenizing.get(k).join();
        event.tokenizedWaitNanos += System.nanoTime() - waiting;
        if (done.refused() != null) {
          throw done.refused();
        }
        event.tokens += done.tokens();
        count(event, done.histogram());
        for (Batch batch : done.batches()) {
          long asked = System.nanoTime();
          long[] entered = new long[1];
          long[] streamed = new long[1];
          float[][] embeddings =
              requests.exclusive(
                  () -> {
                    entered[0] = System.nanoTime();
                    long before = encoder.streamWaitNanos();
                    float[][] e =
                        recorded(batch.texts(), () -> encoder.embedPrepared(batch.prepared()));
                    streamed[0] = encoder.streamWaitNanos() - before;
                    return e;
                  });
          event.lockWaitNanos += entered[0] - asked;
          event.streamWaitNanos += streamed[0];
          event.batches++;
          event.paddedTokens += batch.prepared().paddedTokens();
          for (int i = 0; i < batch.indices().length; i++) {
            out[batch.indices()[i]] = embeddings[i];
          }
          embedded += batch.indices().length;
          progress.accept(new Progress(embedded, n, Duration.ofNanos(System.nanoTime() - started)));
        }
      }
      event.outcome = "EMBEDDED";
      return out;
    } catch (RuntimeException | Error e) {
      event.outcome = "FAILED " + e.getClass().getName();
      throw e;
    } finally {
      // No pool thread may tokenize once the call has returned: the tokenizer may be freed next.
      abandoned.set(true);
      for (ForkJoinTask<Chunk> task : tokenizing) {
        task.quietlyJoin();
      }
      if (event.shouldCommit()) {
        event.model = model;
        event.texts = n;
        event.tokenizeNanos = clocks.tokenize().sum();
        event.prepareNanos = clocks.prepare().sum();
        event.commit();
      }
    }
  }

  private ForkJoinTask<Chunk> submit(java.util.concurrent.Callable<Chunk> task) {
    try {
      return pool.submit(task);
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException(
          "Embedder.embedAll: the embedder is closed; open a new one with"
              + " Embedder.builder(...).open()",
          e);
    }
  }

  private static void count(EmbedIngestionEvent event, int[] histogram) {
    event.tokens1To16 += histogram[0];
    event.tokens17To32 += histogram[1];
    event.tokens33To64 += histogram[2];
    event.tokens65To128 += histogram[3];
    event.tokensOver128 += histogram[4];
  }

  /**
   * {@return texts {@code from} to {@code to} tokenized on the pool's threads, sorted by token
   * count and made into prepared batches}, or the lowest refusal among them
   */
  private Chunk tokenized(
      List<? extends @Nullable String> texts,
      int from,
      int to,
      AtomicBoolean abandoned,
      Clocks clocks) {
    int size = to - from, n = texts.size();
    // Set at distinct indices from the pool's threads; read after the stream's join.
    java.util.concurrent.atomic.AtomicReferenceArray<List<BertTokenizer.Part>> parts =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(size);
    RuntimeException[] refused = new RuntimeException[size];
    IntStream.range(0, size)
        .parallel()
        .forEach(
            i -> {
              if (abandoned.get()) {
                return;
              }
              long t0 = System.nanoTime();
              try {
                parts.set(
                    i,
                    encoder.tokenize(
                        texts.get(from + i),
                        "Embedder.embedAll",
                        "text " + (from + i) + " of " + n));
              } catch (RuntimeException e) {
                refused[i] = e; // kept at its index: the lowest is reported, whoever met it first
              }
              clocks.tokenize().add(System.nanoTime() - t0);
            });
    long t0 = System.nanoTime();
    int[] histogram = new int[5];
    long tokens = 0;
    int[] lengths = new int[size];
    for (int i = 0; i < size; i++) {
      if (refused[i] != null) {
        return new Chunk(refused[i], List.of(), histogram, 0);
      }
      if (parts.get(i) == null) {
        // Skipped: the call has ended (a refusal or failure before this chunk) and reads no more.
        return new Chunk(
            new IllegalStateException("Embedder.embedAll: the call ended first"),
            List.of(),
            histogram,
            0);
      }
      for (BertTokenizer.Part p : parts.get(i)) {
        lengths[i] += p.ids().length;
      }
      tokens += lengths[i];
      int l = lengths[i];
      histogram[l <= 16 ? 0 : l <= 32 ? 1 : l <= 64 ? 2 : l <= 128 ? 3 : 4]++;
    }
    Integer[] order = new Integer[size];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingInt(i -> lengths[i]));
    clocks.prepare().add(System.nanoTime() - t0);
    int batches = (size + maxBatch - 1) / maxBatch;
    List<Batch> prepared =
        IntStream.range(0, batches)
            .parallel()
            .mapToObj(
                b -> {
                  long started = System.nanoTime();
                  int first = b * maxBatch, last = Math.min(size, first + maxBatch);
                  int[] indices = new int[last - first];
                  List<List<BertTokenizer.Part>> batch = new ArrayList<>(last - first);
                  for (int k = first; k < last; k++) {
                    indices[k - first] = from + order[k];
                    batch.add(parts.get(order[k]));
                  }
                  Batch made = new Batch(indices, batch, encoder.prepare(batch));
                  clocks.prepare().add(System.nanoTime() - started);
                  return made;
                })
            .toList();
    return new Chunk(null, prepared, histogram, tokens);
  }

  /** {@return the encoder the batches run on} */
  public GpuEncoder encoder() {
    return encoder;
  }

  /**
   * Closes the embedder: runs the single requests already queued, waits for a batch running and for
   * the pool's threads to finish what they tokenize, then closes the encoder. An {@code embedAll}
   * running on another thread fails at its next batch with {@link IllegalStateException}.
   * Idempotent.
   */
  @Override
  public void close() {
    requests.close();
    pool.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    encoder.close();
  }
}
