// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.llm.internal.engine.BatchStep;
import cuda.graph.llm.internal.engine.KvCache;
import cuda.graph.llm.internal.engine.Sampling;
import cuda.graph.llm.internal.server.GenerationRequest;
import cuda.graph.llm.internal.server.Generator;
import cuda.graph.llm.internal.server.TokenSink;
import cuda.graph.llm.internal.text.DecodeStream;
import cuda.graph.llm.internal.text.Tokenizer;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Continuous batching over one {@link BatchStep}: one engine thread owns the step and the {@link
 * KvCache} (the CUDA objects are used from that thread alone) and loops: apply cancels, admit, run
 * one step, deliver its tokens.
 *
 * <p><b>A step.</b> At most {@code maxTokens} tokens of at most {@code maxSequences} sequences:
 * first one decode token of each running sequence whose prompt is in the cache (in admission order,
 * each extended by a block when it needs one), then the next prefill chunk of each running sequence
 * still prefilling, then new requests in arrival order, each admitted only if the blocks of its
 * whole prompt are free (so a prefill never waits for blocks half-way). When blocks run out a new
 * request waits, and the requests behind it wait too (arrival order is kept).
 *
 * <p><b>A running sequence that cannot extend</b> (every block held, none free) is finished with
 * {@link TokenSink.FinishReason#LENGTH} and its blocks freed: it keeps nothing waiting on it and
 * the others keep their order. Submit refuses a prompt whose blocks exceed the cache, so the first
 * request in line can always start once the others end.
 *
 * <p><b>Ending.</b> A request ends at its {@code maxTokens}, at one of the model's end-of-sequence
 * tokens (not streamed) or at a stop sequence (matched on the text by {@link DecodeStream}; the
 * stop is not streamed), and its blocks are freed before the next step. A {@link
 * Generator.Handle#cancel} from any thread is applied before the next step: the request's blocks
 * freed and its sink told nothing more. An exception from a step fails that step's requests with
 * the cause (their blocks freed) and the engine goes on serving the others.
 *
 * <p>Thread-safe: {@link #submit} and {@link Generator.Handle#cancel} may be called from any
 * thread, the sinks are called from the engine thread.
 */
public final class Scheduler implements Generator, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Scheduler.class.getName());

  /**
   * What the engine thread last saw, after a step (for tests and monitoring).
   *
   * @param steps the steps run so far
   * @param running the requests admitted and not ended
   * @param waiting the requests not admitted yet
   * @param usedBlocks the KV blocks held
   * @param freeBlocks the KV blocks free
   * @param cancelled the requests cancelled so far (running or waiting when the cancel was applied)
   */
  public record Stats(
      long steps, int running, int waiting, int usedBlocks, int freeBlocks, long cancelled) {}

  private final String modelName;
  private final int contextLength;
  private final int vocabularySize;
  private final Tokenizer tokenizer;
  private final Set<Integer> eos;
  private final BatchStep.Limits limits;
  private final LinkedBlockingQueue<Request> incoming = new LinkedBlockingQueue<>();
  private final AtomicLong ids = new AtomicLong();
  private final Thread thread;
  private volatile boolean closed;
  private volatile Stats stats;
  private volatile @Nullable LongConsumer afterStep;

  // The engine thread's alone.
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final List<Request> running = new ArrayList<>();
  private final KvCache cache;
  private long steps;
  private long cancelledCount;

  /**
   * Starts the engine thread and makes the steps on it.
   *
   * @param modelName the name the endpoint reports
   * @param contextLength the most positions of a sequence (at most {@code limits.maxContext()})
   * @param vocabularySize the model's token ids
   * @param tokenizer the model's tokenizer (thread-safe encoding)
   * @param eosTokenIds the tokens that end a sequence
   * @param limits the step's limits (the cache has {@code limits.kvBlocks()} blocks)
   * @param makeSteps makes the steps, on the engine thread
   * @throws RuntimeException what making the steps threw
   */
  public Scheduler(
      String modelName,
      int contextLength,
      int vocabularySize,
      Tokenizer tokenizer,
      List<Integer> eosTokenIds,
      BatchStep.Limits limits,
      Supplier<? extends Steps> makeSteps) {
    if (contextLength < 2 || contextLength > limits.maxContext()) {
      throw new IllegalArgumentException(
          "Scheduler: context length "
              + contextLength
              + " must be in [2, "
              + limits.maxContext()
              + "] (the step's maxContext)");
    }
    this.modelName = modelName;
    this.contextLength = contextLength;
    this.vocabularySize = vocabularySize;
    this.tokenizer = tokenizer;
    this.eos = Set.copyOf(eosTokenIds);
    this.limits = limits;
    this.cache = new KvCache(limits.kvBlocks());
    this.stats = new Stats(0, 0, 0, 0, limits.kvBlocks(), 0);
    CompletableFuture<Steps> started = new CompletableFuture<>();
    this.thread =
        Thread.ofPlatform()
            .name("llm-engine-" + modelName)
            .daemon(true)
            .unstarted(() -> loop(makeSteps, started));
    thread.start();
    try {
      started.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw e;
    }
  }

  @Override
  public String modelName() {
    return modelName;
  }

  @Override
  public int contextLength() {
    return contextLength;
  }

  @Override
  public int vocabularySize() {
    return vocabularySize;
  }

  @Override
  public int[] tokenize(String text, boolean addSpecialTokens) {
    return tokenizer.encode(text, addSpecialTokens);
  }

  /** {@return the tokenizer} */
  public Tokenizer tokenizer() {
    return tokenizer;
  }

  /** {@return what the engine thread last saw} */
  public Stats stats() {
    return stats;
  }

  /**
   * Sets what the engine thread calls after each step with the number of steps run (a test hook: it
   * may submit or cancel; it must not block).
   */
  public void afterStep(@Nullable LongConsumer listener) {
    this.afterStep = listener;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException for a prompt or prompt and maxTokens beyond the context, a
   *     prompt beyond the KV cache, or a token id outside the vocabulary
   * @throws IllegalStateException after {@link #close}
   */
  @Override
  public Ticket submit(GenerationRequest request, TokenSink sink) {
    int[] prompt = request.promptTokens();
    if (prompt.length + request.maxTokens() > contextLength) {
      throw new IllegalArgumentException(
          "Scheduler.submit: a prompt of "
              + prompt.length
              + " tokens and maxTokens "
              + request.maxTokens()
              + " need "
              + (prompt.length + request.maxTokens())
              + " positions, beyond the context of "
              + contextLength
              + "; shorten the prompt or ask for fewer tokens");
    }
    if (KvCache.blocksFor(prompt.length) > limits.kvBlocks()) {
      throw new IllegalArgumentException(
          "Scheduler.submit: a prompt of "
              + prompt.length
              + " tokens needs "
              + KvCache.blocksFor(prompt.length)
              + " KV blocks, beyond the cache's "
              + limits.kvBlocks()
              + "; shorten the prompt or give the engine more KV blocks");
    }
    for (int id : prompt) {
      if (id < 0 || id >= vocabularySize) {
        throw new IllegalArgumentException(
            "Scheduler.submit: token id "
                + id
                + " is outside the vocabulary [0, "
                + vocabularySize
                + "); give ids the model's tokenizer makes");
      }
    }
    if (closed) {
      throw new IllegalStateException(
          "Scheduler.submit: the engine of " + modelName + " is closed; open another");
    }
    long seed = request.seed() != null ? request.seed() : ThreadLocalRandom.current().nextLong();
    Sampling sampling = new Sampling((float) request.temperature(), (float) request.topP(), seed);
    Request r =
        new Request(
            ids.incrementAndGet(),
            prompt,
            request.maxTokens(),
            sampling,
            tokenizer.stream(request.stop()),
            sink);
    incoming.add(r);
    return r;
  }

  /** A generation in progress, with what it has made so far. */
  public interface Ticket extends Handle {
    /** {@return the tokens generated so far (any thread)} */
    int generatedTokens();
  }

  /** Stops the engine thread; requests not ended fail with an {@link IllegalStateException}. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop(Supplier<? extends Steps> makeSteps, CompletableFuture<Steps> started) {
    Steps step;
    try {
      step = makeSteps.get();
    } catch (RuntimeException | Error e) {
      started.completeExceptionally(e);
      return;
    }
    started.complete(step);
    try (step) {
      while (!closed) {
        if (running.isEmpty() && waiting.isEmpty()) {
          Request first;
          try {
            first = incoming.poll(1, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            break;
          }
          if (first != null) {
            waiting.add(first);
          }
        }
        incoming.drainTo(waiting);
        dropCancelled();
        List<Part> parts = plan();
        if (!parts.isEmpty()) {
          runStep(step, parts);
        }
        publish();
        LongConsumer listener = afterStep;
        if (listener != null && !parts.isEmpty()) {
          listener.accept(steps);
        }
      }
    } finally {
      incoming.drainTo(waiting);
      IllegalStateException gone =
          new IllegalStateException(
              "Scheduler: the engine of " + modelName + " was closed before the request ended");
      for (Request r : running) {
        r.fail(gone);
      }
      for (Request r : waiting) {
        r.fail(gone);
      }
      running.clear();
      waiting.clear();
    }
  }

  private void publish() {
    stats =
        new Stats(
            steps,
            running.size(),
            waiting.size(),
            cache.usedBlocks(),
            cache.freeBlocks(),
            cancelledCount);
  }

  private void dropCancelled() {
    for (Iterator<Request> it = running.iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (r.cancelled) {
        release(r);
        it.remove();
        cancelledCount++;
      }
    }
    for (Iterator<Request> it = waiting.iterator(); it.hasNext(); ) {
      if (it.next().cancelled) {
        it.remove();
        cancelledCount++;
      }
    }
  }

  private void release(Request r) {
    if (cache.holds(r.id)) {
      cache.free(r.id);
    }
  }

  /** One sequence's part of the step being planned. */
  private record Part(Request request, BatchStep.Chunk chunk) {}

  private List<Part> plan() {
    List<Part> parts = new ArrayList<>();
    int tokens = limits.maxTokens();
    // Decode tokens first, in admission order.
    for (Iterator<Request> it = running.iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (!r.decoding() || parts.size() == limits.maxSequences() || tokens == 0) {
        continue;
      }
      int position = r.computed;
      if (!cache.extend(r.id, position + 1)) {
        LOG.log(
            Level.DEBUG,
            "request {0} cannot extend past {1} tokens: KV cache full; finished with LENGTH",
            r.id,
            position);
        r.finish(TokenSink.FinishReason.LENGTH);
        release(r);
        it.remove();
        continue;
      }
      parts.add(
          new Part(
              r,
              new BatchStep.Chunk(
                  new int[] {r.tokens[position]}, position, cache.blocks(r.id), r.sampling)));
      tokens--;
    }
    // Then the prefill chunks of running sequences, then new ones in arrival order.
    for (Request r : running) {
      if (r.decoding() || parts.size() == limits.maxSequences() || tokens == 0) {
        continue;
      }
      tokens -= addPrefill(parts, r, tokens);
    }
    while (!waiting.isEmpty() && parts.size() < limits.maxSequences() && tokens > 0) {
      Request r = waiting.peek();
      if (!cache.allocate(r.id, r.prompt)) {
        break; // it waits for blocks, and the ones behind it with it
      }
      waiting.poll();
      running.add(r);
      tokens -= addPrefill(parts, r, tokens);
    }
    return parts;
  }

  private int addPrefill(List<Part> parts, Request r, int budget) {
    int n = Math.min(budget, r.prompt - r.computed);
    parts.add(
        new Part(
            r,
            new BatchStep.Chunk(
                Arrays.copyOfRange(r.tokens, r.computed, r.computed + n),
                r.computed,
                cache.blocks(r.id),
                r.sampling)));
    return n;
  }

  private void runStep(Steps step, List<Part> parts) {
    List<BatchStep.Chunk> chunks = new ArrayList<>(parts.size());
    for (Part p : parts) {
      chunks.add(p.chunk());
    }
    int[] sampled;
    try {
      sampled = step.run(chunks);
    } catch (RuntimeException | Error e) {
      LOG.log(Level.DEBUG, "a step of " + parts.size() + " sequences failed", e);
      for (Part p : parts) {
        p.request().fail(e);
        release(p.request());
        running.remove(p.request());
      }
      return;
    } finally {
      steps++;
    }
    for (int i = 0; i < parts.size(); i++) {
      Request r = parts.get(i).request();
      if (r.cancelled) {
        continue; // cancelled during the step: dropped, and counted, before the next one
      }
      r.computed += parts.get(i).chunk().tokens().length;
      if (r.computed < r.length) {
        continue; // a prefill chunk before the prompt's last: its sample is not a token
      }
      TokenSink.FinishReason end;
      try {
        end = r.accept(sampled[i], eos);
      } catch (RuntimeException e) {
        r.fail(e);
        end = TokenSink.FinishReason.STOP;
      }
      if (end != null) {
        release(r);
        running.remove(r);
      }
    }
  }

  /**
   * A request, its tokens and its place; its fields are the engine thread's but {@link #cancelled}.
   */
  private static final class Request implements Ticket {
    final long id;
    final int prompt;
    final int maxTokens;
    final Sampling sampling;
    final DecodeStream text;
    final TokenSink sink;
    final int[] tokens;
    int length;
    int computed;
    private volatile boolean cancelled;
    private volatile int made;
    private boolean ended;

    Request(
        long id,
        int[] prompt,
        int maxTokens,
        Sampling sampling,
        DecodeStream text,
        TokenSink sink) {
      this.id = id;
      this.prompt = prompt.length;
      this.maxTokens = maxTokens;
      this.sampling = sampling;
      this.text = text;
      this.sink = sink;
      this.tokens = Arrays.copyOf(prompt, prompt.length + maxTokens);
      this.length = prompt.length;
    }

    /** Whether the whole prompt is in the cache: its next part is one decode token. */
    boolean decoding() {
      return computed >= prompt;
    }

    /** Takes the next token; returns why the request ended, or null if it goes on. */
    TokenSink.@Nullable FinishReason accept(int token, Set<Integer> eos) {
      tokens[length++] = token;
      made = length - prompt;
      if (eos.contains(token)) {
        finish(TokenSink.FinishReason.STOP);
        return TokenSink.FinishReason.STOP;
      }
      String piece = text.next(token);
      if (!piece.isEmpty()) {
        deliver(piece);
      }
      if (text.stopped()) {
        finish(TokenSink.FinishReason.STOP);
        return TokenSink.FinishReason.STOP;
      }
      if (made == maxTokens) {
        finish(TokenSink.FinishReason.LENGTH);
        return TokenSink.FinishReason.LENGTH;
      }
      return null;
    }

    private synchronized void deliver(String piece) {
      if (!cancelled && !ended) {
        sink.text(piece);
      }
    }

    synchronized void finish(TokenSink.FinishReason reason) {
      if (cancelled || ended) {
        return;
      }
      ended = true;
      String rest = text.stopped() ? "" : text.finish();
      if (!rest.isEmpty()) {
        sink.text(rest);
      }
      sink.finish(reason, new TokenSink.Usage(prompt, length - prompt));
    }

    synchronized void fail(Throwable cause) {
      if (cancelled || ended) {
        return;
      }
      ended = true;
      sink.fail(cause);
    }

    @Override
    public int generatedTokens() {
      return made;
    }

    @Override
    public synchronized void cancel() {
      cancelled = true;
    }
  }
}
