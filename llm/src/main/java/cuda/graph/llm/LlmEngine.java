// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.Device;
import cuda.graph.llm.internal.serving.LlmEngineImpl;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A Llama-architecture model on one device, generating for many callers at once.
 *
 * <p><b>The model.</b> A Hugging Face model directory: config.json (the Llama architecture;
 * anything unsupported is refused by name), the weights in model.safetensors or shards with their
 * index (bf16, fp16 or fp32), tokenizer.json, and tokenizer_config.json's chat template for {@link
 * #chat}. Only the directory given to {@link #builder} is read.
 *
 * <p><b>Batching.</b> One engine thread runs steps of up to {@link Builder#maxTokensPerStep} tokens
 * of up to {@link Builder#maxSequences} generations, each step a CUDA graph: a generation joins at
 * the next step, its prompt in chunks beside the other generations' tokens, and leaves when it
 * ends. The keys and values live in a paged cache of {@link Builder#kvCacheBlocks} blocks of 16
 * tokens; a generation is started, in the order they were asked for, once the blocks of its prompt
 * are free, and the ones behind it wait. A running generation that needs a block when none is free
 * ends with {@link FinishReason#LENGTH}. A generation's tokens do not depend on what runs beside
 * it.
 *
 * <p><b>Threads and lifetime.</b> Every method may be called from any thread. The text consumers
 * are called on the engine thread, a generation's pieces in order: they must return quickly (every
 * generation waits for them), and one that throws fails its own generation. {@link #close()} ends
 * the generations in progress exceptionally (IllegalStateException), then frees the device memory;
 * a generation asked for afterwards is refused with IllegalStateException.
 *
 * {@snippet class=cuda.graph.llm.JavadocSnippetsTests region=engine}
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface LlmEngine extends AutoCloseable permits LlmEngineImpl {

  /**
   * {@return a builder of an engine over the model directory {@code modelDirectory}, with the
   * defaults}: the system platform's default device, 8 sequences, 256 tokens a step, 1024 KV blocks
   *
   * @param modelDirectory a Hugging Face model directory
   */
  static Builder builder(Path modelDirectory) {
    return new Builder(modelDirectory);
  }

  /** {@return the model's name: its directory's name} */
  String modelName();

  /**
   * {@return the most tokens a generation may hold, prompt and generated together}: the model's
   * max_position_embeddings, or the KV cache's tokens where fewer
   */
  int contextLength();

  /**
   * Starts generating after {@code prompt} (tokenized with the tokenizer's special tokens, e.g. a
   * beginning-of-text token).
   *
   * @param prompt the prompt, not empty
   * @param options how many tokens, where to stop, how to sample
   * @param onText receives the text as it is made, in order, on the engine thread
   * @return the generation
   * @throws IllegalArgumentException for an empty prompt, or a prompt and {@code maxTokens} beyond
   *     {@link #contextLength()} (the message gives the numbers)
   * @throws IllegalStateException after {@link #close()}
   */
  Generation generate(String prompt, GenerationOptions options, Consumer<String> onText);

  /**
   * Starts the model's answer to {@code messages}, rendered by the model's chat template with the
   * generation prompt (the template writes the special tokens itself).
   *
   * @param messages the chat so far, at least one message
   * @param options how many tokens, where to stop, how to sample
   * @param onText receives the text as it is made, in order, on the engine thread
   * @return the generation
   * @throws IllegalArgumentException for no messages, a template that refuses them, or a rendered
   *     prompt and {@code maxTokens} beyond {@link #contextLength()}
   * @throws IllegalStateException after {@link #close()}, or when the model has no chat template
   */
  Generation chat(List<ChatMessage> messages, GenerationOptions options, Consumer<String> onText);

  /** Ends the generations in progress and frees the model; closing twice does nothing. */
  @Override
  void close();

  /**
   * The settings of an {@link LlmEngine}, then {@link #build()}. Not thread-safe: build on one
   * thread.
   *
   * @since 0.2.0
   */
  final class Builder {
    private final Path modelDirectory;
    private @Nullable Device device;
    private int maxSequences = 8;
    private int maxTokensPerStep = 256;
    private int kvCacheBlocks = 1024;
    private int contextLength;
    private long graphMemoryBudget;

    private Builder(Path modelDirectory) {
      this.modelDirectory =
          Objects.requireNonNull(modelDirectory, "LlmEngine.builder: the model directory is null");
    }

    /**
     * Runs on {@code device}; by default the system platform's default device. The caller keeps
     * owning the device's platform and closes it after the engine.
     *
     * @param device the device
     * @return this builder
     */
    public Builder device(Device device) {
      this.device = Objects.requireNonNull(device, "LlmEngine.Builder.device: null");
      return this;
    }

    /**
     * Sets the most generations of one step; 8 by default.
     *
     * @param maxSequences at least 1, at most {@link #maxTokensPerStep}
     * @return this builder
     * @throws IllegalArgumentException if below 1
     */
    public Builder maxSequences(int maxSequences) {
      this.maxSequences = atLeastOne("maxSequences", maxSequences);
      return this;
    }

    /**
     * Sets the most tokens of one step (decode tokens and prompt chunks together); 256 by default.
     * A step runs the graph of the smallest power of two (or this number) that holds its tokens.
     *
     * @param maxTokensPerStep at least 1
     * @return this builder
     * @throws IllegalArgumentException if below 1
     */
    public Builder maxTokensPerStep(int maxTokensPerStep) {
      this.maxTokensPerStep = atLeastOne("maxTokensPerStep", maxTokensPerStep);
      return this;
    }

    /**
     * Sets the KV cache's blocks of 16 tokens (each a key and a value row of every layer); 1024 by
     * default.
     *
     * @param kvCacheBlocks at least 1
     * @return this builder
     * @throws IllegalArgumentException if below 1
     */
    public Builder kvCacheBlocks(int kvCacheBlocks) {
      this.kvCacheBlocks = atLeastOne("kvCacheBlocks", kvCacheBlocks);
      return this;
    }

    /**
     * Sets the most positions of one generation, prompt and output together; by default (0) the
     * model's {@code max_position_embeddings} or the KV cache's tokens, whichever is smaller. Each
     * step copies every running generation's block table, one entry per 16 positions of this
     * length, so a server whose requests are short steps faster with a shorter context.
     *
     * @param contextLength 0 for the default, else at least 2; it may not exceed the default (the
     *     build says so, with the numbers)
     * @return this builder
     * @throws IllegalArgumentException if negative or 1
     */
    public Builder contextLength(int contextLength) {
      if (contextLength < 0 || contextLength == 1) {
        throw new IllegalArgumentException(
            "LlmEngine.Builder.contextLength: "
                + contextLength
                + "; give 0 for the model's (or the KV cache's) or at least 2");
      }
      this.contextLength = contextLength;
      return this;
    }

    /**
     * Sets the bytes the step graphs' activations may take together; by default (0) those of the
     * largest step.
     *
     * @param bytes 0 or more
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder graphMemoryBudget(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException(
            "LlmEngine.Builder.graphMemoryBudget: " + bytes + " bytes; give 0 or more");
      }
      this.graphMemoryBudget = bytes;
      return this;
    }

    private static int atLeastOne(String what, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(
            "LlmEngine.Builder." + what + ": " + value + "; give at least 1");
      }
      return value;
    }

    /**
     * {@return the engine, its model read, checked and on the device}
     *
     * @throws IllegalArgumentException when the model directory is unsupported or malformed,
     *     maxSequences is above maxTokensPerStep, or contextLength is above the model's or the KV
     *     cache's (the message says which)
     * @throws java.io.UncheckedIOException when a file cannot be read
     */
    public LlmEngine build() {
      return LlmEngineImpl.open(this);
    }

    /** {@return the model directory} */
    public Path modelDirectory() {
      return modelDirectory;
    }

    /** {@return the device set with {@link #device}, or null for the system platform's default} */
    public @Nullable Device device() {
      return device;
    }

    /** {@return the most generations of a step} */
    public int maxSequences() {
      return maxSequences;
    }

    /** {@return the most tokens of a step} */
    public int maxTokensPerStep() {
      return maxTokensPerStep;
    }

    /** {@return the KV cache's blocks} */
    public int kvCacheBlocks() {
      return kvCacheBlocks;
    }

    /** {@return the most positions of a generation, 0 for the model's or the KV cache's} */
    public int contextLength() {
      return contextLength;
    }

    /** {@return the step graphs' memory budget in bytes, 0 for the largest step's} */
    public long graphMemoryBudget() {
      return graphMemoryBudget;
    }
  }
}
