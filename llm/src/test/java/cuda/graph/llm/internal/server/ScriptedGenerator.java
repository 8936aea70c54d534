// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tests' engine: a word is a token, and a generation for a prompt of n tokens makes the pieces
 * "w{n}.0 ", "w{n}.1 ", ... on its own virtual thread, one per {@code delay}, until {@code
 * maxTokens} (finish LENGTH), a stop sequence in the text (finish STOP, the text cut before it), or
 * a cancel. It records what it was asked and what became of each generation.
 */
final class ScriptedGenerator implements Generator {

  static final int BOS = 1;

  volatile Duration delay = Duration.ZERO;
  volatile int context = 64;

  /** Characters of padding in every piece (to fill a socket fast). */
  volatile int padding = 0;

  /** Fail after this many pieces; -1 never. */
  volatile int failAfter = -1;

  final List<GenerationRequest> submitted = new CopyOnWriteArrayList<>();
  final AtomicInteger active = new AtomicInteger();
  final AtomicInteger mostActive = new AtomicInteger();
  final AtomicInteger cancelled = new AtomicInteger();
  final AtomicInteger finished = new AtomicInteger();

  @Override
  public String modelName() {
    return "tiny-test";
  }

  @Override
  public int contextLength() {
    return context;
  }

  @Override
  public int vocabularySize() {
    return 1000;
  }

  @Override
  public int[] tokenize(String text, boolean addSpecialTokens) {
    List<Integer> ids = new ArrayList<>();
    if (addSpecialTokens) {
      ids.add(BOS);
    }
    for (String word : text.split("\\s+")) {
      if (!word.isEmpty()) {
        ids.add(2 + Math.floorMod(word.hashCode(), 998));
      }
    }
    return ids.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The text a prompt of this many tokens makes in {@code count} pieces. */
  static String expectedText(int promptTokens, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append(piece(promptTokens, i, 0));
    }
    return text.toString();
  }

  static String piece(int promptTokens, int i, int padding) {
    return "w" + promptTokens + "." + i + "x".repeat(padding) + " ";
  }

  @Override
  public Handle submit(GenerationRequest request, TokenSink sink) {
    submitted.add(request);
    AtomicBoolean stop = new AtomicBoolean();
    mostActive.accumulateAndGet(active.incrementAndGet(), Math::max);
    int n = request.promptTokens().length;
    Duration pause = delay;
    int pad = padding;
    int failing = failAfter;
    Thread.ofVirtual()
        .name("scripted-generation")
        .start(
            () -> {
              try {
                StringBuilder text = new StringBuilder();
                for (int i = 0; i < request.maxTokens(); i++) {
                  if (!pause.isZero()) {
                    Thread.sleep(pause);
                  }
                  if (stop.get()) {
                    cancelled.incrementAndGet();
                    return;
                  }
                  if (i == failing) {
                    sink.fail(new IllegalStateException("scripted failure at piece " + i));
                    return;
                  }
                  String piece = piece(n, i, pad);
                  String before = text.toString();
                  text.append(piece);
                  for (String s : request.stop()) {
                    int at = text.indexOf(s);
                    if (at >= 0) {
                      sink.text(text.substring(before.length(), Math.max(before.length(), at)));
                      sink.finish(TokenSink.FinishReason.STOP, new TokenSink.Usage(n, i + 1));
                      finished.incrementAndGet();
                      return;
                    }
                  }
                  sink.text(piece);
                }
                sink.finish(
                    TokenSink.FinishReason.LENGTH, new TokenSink.Usage(n, request.maxTokens()));
                finished.incrementAndGet();
              } catch (InterruptedException e) {
                cancelled.incrementAndGet();
              } finally {
                active.decrementAndGet();
              }
            });
    return () -> stop.set(true);
  }

  /** Waits until no generation runs, for at most the timeout; true when none does. */
  boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (active.get() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return active.get() == 0;
  }

  @Override
  public String toString() {
    return "ScriptedGenerator" + Arrays.asList(active, cancelled, finished);
  }
}
