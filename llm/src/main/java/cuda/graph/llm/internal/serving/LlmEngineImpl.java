// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.llm.ChatMessage;
import cuda.graph.llm.Generation;
import cuda.graph.llm.GenerationOptions;
import cuda.graph.llm.LlmEngine;
import cuda.graph.llm.Sampling;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.ModelConfig;
import cuda.graph.llm.internal.engine.BatchStep;
import cuda.graph.llm.internal.engine.KvCache;
import cuda.graph.llm.internal.engine.ModelWeights;
import cuda.graph.llm.internal.server.GenerationRequest;
import cuda.graph.llm.internal.text.ChatTemplate;
import cuda.graph.llm.internal.text.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** An {@link LlmEngine}: the model's files read, its {@link Scheduler} started. */
public final class LlmEngineImpl implements LlmEngine {

  private final Scheduler scheduler;
  private final Tokenizer tokenizer;
  private final @Nullable ChatTemplate template;
  private final @Nullable IllegalArgumentException noTemplate;
  private volatile boolean closed;

  private LlmEngineImpl(
      Scheduler scheduler,
      Tokenizer tokenizer,
      @Nullable ChatTemplate template,
      @Nullable IllegalArgumentException noTemplate) {
    this.scheduler = scheduler;
    this.tokenizer = tokenizer;
    this.template = template;
    this.noTemplate = noTemplate;
  }

  /** {@return the engine {@code settings} describe}: see {@link LlmEngine.Builder#build()} */
  public static LlmEngine open(LlmEngine.Builder settings) {
    if (settings.maxSequences() > settings.maxTokensPerStep()) {
      throw new IllegalArgumentException(
          "LlmEngine.Builder.build: maxSequences "
              + settings.maxSequences()
              + " is above maxTokensPerStep "
              + settings.maxTokensPerStep()
              + "; a step holds at least one token of each sequence");
    }
    Device device =
        settings.device() != null ? settings.device() : CudaPlatform.system().defaultDevice();
    Tokenizer tokenizer = null;
    try (Checkpoint checkpoint = Checkpoint.open(settings.modelDirectory())) {
      ModelConfig config = checkpoint.config();
      ModelWeights weights = ModelWeights.of(checkpoint);
      tokenizer = Tokenizer.load(settings.modelDirectory().resolve("tokenizer.json"));
      ChatTemplate template = null;
      IllegalArgumentException noTemplate = null;
      try {
        template = ChatTemplate.load(settings.modelDirectory());
      } catch (IllegalArgumentException e) {
        noTemplate = e; // a model without one still completes; chat says why it cannot
      }
      int most =
          Math.min(config.maxPositionEmbeddings(), settings.kvCacheBlocks() * KvCache.BLOCK_SIZE);
      if (settings.contextLength() > most) {
        throw new IllegalArgumentException(
            "LlmEngine.Builder.build: contextLength "
                + settings.contextLength()
                + " is above the model's max_position_embeddings ("
                + config.maxPositionEmbeddings()
                + ") or the KV cache's "
                + settings.kvCacheBlocks() * KvCache.BLOCK_SIZE
                + " tokens ("
                + settings.kvCacheBlocks()
                + " blocks of "
                + KvCache.BLOCK_SIZE
                + "); give at most "
                + most
                + " or more kvCacheBlocks");
      }
      int context = settings.contextLength() == 0 ? most : settings.contextLength();
      BatchStep.Limits limits =
          new BatchStep.Limits(
              settings.maxTokensPerStep(),
              settings.maxSequences(),
              context,
              settings.kvCacheBlocks());
      Path name = settings.modelDirectory().toAbsolutePath().normalize().getFileName();
      Scheduler scheduler =
          new Scheduler(
              name == null ? "model" : name.toString(),
              context,
              config.vocabSize(),
              tokenizer,
              config.eosTokenIds(),
              limits,
              () -> StreamSteps.open(device, weights, limits, settings.graphMemoryBudget()));
      return new LlmEngineImpl(scheduler, tokenizer, template, noTemplate);
    } catch (RuntimeException | Error e) {
      if (tokenizer != null) {
        tokenizer.close();
      }
      throw e;
    }
  }

  /** {@return the scheduler (tests read its counts; the server serves it)} */
  public Scheduler scheduler() {
    return scheduler;
  }

  /**
   * {@return the prompt text of {@code messages}}: the model's chat template with the generation
   * prompt
   *
   * @throws IllegalStateException when the model has no chat template
   */
  public String render(List<ChatMessage> messages) {
    if (template == null) {
      throw new IllegalStateException(
          "LlmEngine.chat: " + Objects.requireNonNull(noTemplate).getMessage(), noTemplate);
    }
    if (messages.isEmpty()) {
      throw new IllegalArgumentException(
          "LlmEngine.chat: no messages; give at least the user's message");
    }
    List<ChatTemplate.Message> list = new ArrayList<>();
    for (ChatMessage m : messages) {
      list.add(new ChatTemplate.Message(m.role(), m.content()));
    }
    return template.render(list, true);
  }

  @Override
  public String modelName() {
    return scheduler.modelName();
  }

  @Override
  public int contextLength() {
    return scheduler.contextLength();
  }

  @Override
  public Generation generate(String prompt, GenerationOptions options, Consumer<String> onText) {
    checkOpen();
    if (prompt.isEmpty()) {
      throw new IllegalArgumentException(
          "LlmEngine.generate: the prompt is empty; give the text to continue");
    }
    return submit(tokenizer.encode(prompt, true), options, onText);
  }

  @Override
  public Generation chat(
      List<ChatMessage> messages, GenerationOptions options, Consumer<String> onText) {
    checkOpen();
    return submit(tokenizer.encode(render(messages), false), options, onText);
  }

  private Generation submit(int[] prompt, GenerationOptions options, Consumer<String> onText) {
    Objects.requireNonNull(onText, "LlmEngine: the text consumer is null");
    if (prompt.length == 0) {
      throw new IllegalArgumentException(
          "LlmEngine: the prompt has no tokens; give text the tokenizer keeps");
    }
    GenerationRequest request =
        switch (options.sampling()) {
          case Sampling.Greedy g ->
              new GenerationRequest(prompt, options.maxTokens(), 0, 1, null, options.stop());
          case Sampling.Random r ->
              new GenerationRequest(
                  prompt, options.maxTokens(), r.temperature(), r.topP(), r.seed(), options.stop());
        };
    GenerationImpl generation = new GenerationImpl(prompt.length, onText);
    generation.started(scheduler.submit(request, generation));
    return generation;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(
          "LlmEngine: the engine of " + modelName() + " is closed; build another");
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    scheduler.close();
    tokenizer.close();
  }
}
