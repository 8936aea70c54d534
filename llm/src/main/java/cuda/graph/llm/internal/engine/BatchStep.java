// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.Buckets;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.Scope;
import cuda.graph.Stream;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import cuda.graph.llm.internal.checkpoint.DType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One batched step of a Llama model on one device: up to {@code maxTokens} tokens of up to {@code
 * maxSequences} sequences (decode tokens and prefill chunks together), each sequence's tokens
 * attending causally to its own positions in the paged KV cache, and each sequence's next token
 * sampled on the device.
 *
 * <p><b>Graphs.</b> A step of {@code n} tokens runs the graph of the smallest token bucket (1, 2,
 * 4, ..., {@code maxTokens}) that holds them, from a {@link GraphCache} keyed by the bucket; a
 * bucket of {@code T} tokens serves {@code min(T, maxSequences)} sequences. Its nodes: embed; per
 * layer RMSNorm, the fused QKV product, RoPE with the KV cache writes, attention, the output
 * product added to the residual stream, RMSNorm, the fused gate/up product, SwiGLU, the down
 * product added to the residual stream; then each sequence's last token gathered and normalised,
 * the lm_head product and sampling. The products are the blas module's matmul nodes: inputs in the
 * weights' type, fp32 accumulation, fp32 outputs, the residual added by the product itself ({@code
 * x = x + a W^T}, {@link Matmul#accumulating}); for steps of at most {@link
 * LlmKernels#GEMV_MAX_TOKENS} rows they are the engine's gemv kernels instead. Every kernel after
 * embed is a programmatic dependent launch: it begins while the kernel before it finishes and waits
 * for it before reading, so launches overlap and gemv_stream copies its first weights early.
 * Activations are the graph's temporaries.
 *
 * <p><b>Inputs.</b> Everything a step varies lives in one int buffer written with one copy before
 * the launch, so graphs stay valid: for a bucket of {@code T} tokens and {@code S} sequences, the
 * token ids, positions and sequence of each token ({@code T} each), each sequence's last token row
 * ({@code S}), its sampling words ({@link LlmKernels#SAMPLING_WORDS} each) and its block table
 * ({@code maxBlocks} each, {@code maxBlocks = ceil(maxContext / 16)}). Padding tokens have position
 * -1 (they touch no cache) and padding sequences are greedy over row 0; their outputs are dropped.
 * The sampled tokens come back with one copy; the last step's logits stay on the device ({@link
 * #logits}).
 *
 * <p><b>Precision.</b> The weights, the products' inputs and the KV cache are the checkpoint's type
 * (fp32, fp16 or bf16); the residual stream, the products' outputs, the norms' arithmetic, RoPE,
 * softmax and sampling are fp32.
 *
 * <p>Not thread-safe: one {@link #run} at a time, on the stream it was made with.
 */
public final class BatchStep implements AutoCloseable {

  /**
   * How large a step can be.
   *
   * @param maxTokens the most tokens of a step, at least 1
   * @param maxSequences the most sequences of a step, 1 to {@code maxTokens}
   * @param maxContext the most positions of a sequence, at least 1
   * @param kvBlocks the KV cache's blocks of {@link KvCache#BLOCK_SIZE} tokens, at least 1
   */
  public record Limits(int maxTokens, int maxSequences, int maxContext, int kvBlocks) {
    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException if one is out of range
     */
    public Limits {
      if (maxTokens < 1
          || maxSequences < 1
          || maxSequences > maxTokens
          || maxContext < 1
          || kvBlocks < 1) {
        throw new IllegalArgumentException(
            "BatchStep.Limits: maxTokens "
                + maxTokens
                + ", maxSequences "
                + maxSequences
                + ", maxContext "
                + maxContext
                + ", kvBlocks "
                + kvBlocks
                + "; each is at least 1 and maxSequences at most maxTokens");
      }
    }

    /** {@return the columns of a block table: the blocks of {@code maxContext} positions} */
    public int maxBlocks() {
      return KvCache.blocksFor(maxContext);
    }
  }

  /**
   * One sequence's part of a step: its tokens at positions {@code start, start + 1, ...} (one for a
   * decode, a chunk of its prompt for a prefill) and the blocks of its KV cache.
   *
   * @param tokens the tokens, at least 1
   * @param start the position of the first, at least 0 (the sequence's positions before it are in
   *     the cache)
   * @param blockTable the sequence's blocks ({@link KvCache#blocks}), enough for {@code start +
   *     tokens.length} positions
   * @param sampling how its next token is chosen
   */
  public record Chunk(int[] tokens, int start, int[] blockTable, Sampling sampling) {
    /** Checks that the parts are there. */
    public Chunk {
      Objects.requireNonNull(tokens, "tokens");
      Objects.requireNonNull(blockTable, "blockTable");
      Objects.requireNonNull(sampling, "sampling");
    }

    /** {@return the position of the token this chunk samples: its sequence's length after it} */
    public int end() {
      return start + tokens.length;
    }
  }

  private record Layer(
      DeviceBuffer<?> attentionNorm,
      DeviceBuffer<?> qkv,
      DeviceBuffer<?> o,
      DeviceBuffer<?> mlpNorm,
      DeviceBuffer<?> gateUp,
      DeviceBuffer<?> down,
      DeviceBuffer<?> kCache,
      DeviceBuffer<?> vCache) {}

  private final Stream stream;
  private final ModelShape shape;
  private final DType type;
  private final Limits limits;
  private final LlmKernels.Heads heads;
  private final Buckets buckets;
  private final List<DeviceBuffer<?>> owned = new ArrayList<>();
  private final List<Layer> layers = new ArrayList<>();
  private final DeviceBuffer<?> embedding;
  private final DeviceBuffer<?> finalNorm;
  private final DeviceBuffer<?> lmHead;
  private final DeviceBuffer<Float> inverseFrequencies;
  private final DeviceBuffer<Integer> inputs;
  private final DeviceBuffer<Integer> sampled;
  private final DeviceBuffer<Float> logits;
  private final Blas blas;
  private final Workspace workspace;
  private final GraphCache<Integer> graphs;
  private final int gemvBlocks;
  private final int gemvOneBlocks;
  private final boolean normInProductOne;
  private final boolean ropeInProductOne;
  private final int oneTokenSplits;
  private int lastSequences;

  /**
   * Uploads {@code weights} to the device of {@code stream}, allocates the KV cache of {@code
   * limits.kvBlocks()} blocks a layer and prepares the graphs.
   *
   * @param weights the model
   * @param stream the stream of the device the steps run on
   * @param limits how large a step and the cache can be
   * @param graphMemoryBudget the graph cache's budget in bytes, or 0 for the largest bucket's
   *     activations
   */
  public BatchStep(ModelWeights weights, Stream stream, Limits limits, long graphMemoryBudget) {
    this(weights, stream, limits, graphMemoryBudget, Tuning.defaults());
  }

  /**
   * How a step of one token runs its products: the engine takes {@link #defaults()}; LlmBench
   * builds steps of several to compare them in one process.
   *
   * @param gemvOneBlocksPerSm gemv_stream1's blocks an SM (0: gemv_stream takes the step)
   * @param normInProductOne whether its RMSNorms and SwiGLU run inside its products (gemv_norm1,
   *     gemv_norm_silu1), where gemv_stream1 runs
   * @param ropeInProductOne whether RoPE with its cache writes runs inside the QKV product too
   *     (gemv_norm_rope1), where the norms do
   * @param oneTokenSplits grouped attention's splits in a step of one token, 1 to {@link
   *     LlmKernels#MAX_SPLITS}, or 0 for {@link LlmKernels#attentionSplits}'s
   */
  public record Tuning(
      int gemvOneBlocksPerSm,
      boolean normInProductOne,
      boolean ropeInProductOne,
      int oneTokenSplits) {
    /**
     * Checks the blocks and the splits.
     *
     * @throws IllegalArgumentException for negative blocks, splits outside 0 to {@link
     *     LlmKernels#MAX_SPLITS}
     */
    public Tuning {
      if (gemvOneBlocksPerSm < 0) {
        throw new IllegalArgumentException(
            "BatchStep.Tuning: gemvOneBlocksPerSm " + gemvOneBlocksPerSm + " is negative");
      }
      if (oneTokenSplits < 0 || oneTokenSplits > LlmKernels.MAX_SPLITS) {
        throw new IllegalArgumentException(
            "BatchStep.Tuning: oneTokenSplits "
                + oneTokenSplits
                + " is outside 0 (the rule's) to "
                + LlmKernels.MAX_SPLITS);
      }
    }

    /** As the four-component constructor, with the rule's splits. */
    public Tuning(int gemvOneBlocksPerSm, boolean normInProductOne, boolean ropeInProductOne) {
      this(gemvOneBlocksPerSm, normInProductOne, ropeInProductOne, 0);
    }

    /**
     * {@return the engine's tuning: {@link LlmKernels#GEMV_ONE_BLOCKS_PER_SM}, {@link
     * LlmKernels#NORM_IN_PRODUCT_ONE} and {@link LlmKernels#ROPE_IN_PRODUCT_ONE}, which system
     * properties may change}
     */
    public static Tuning defaults() {
      return new Tuning(
          LlmKernels.GEMV_ONE_BLOCKS_PER_SM,
          LlmKernels.NORM_IN_PRODUCT_ONE,
          LlmKernels.ROPE_IN_PRODUCT_ONE);
    }
  }

  /**
   * As the four-argument constructor, with a step of one token run as {@code tuning} says.
   *
   * @param weights the model
   * @param stream the stream of the device the steps run on
   * @param limits how large a step and the cache can be
   * @param graphMemoryBudget the graph cache's budget in bytes, or 0 for the largest bucket's
   *     activations
   * @param tuning how a step of one token runs its products
   */
  public BatchStep(
      ModelWeights weights, Stream stream, Limits limits, long graphMemoryBudget, Tuning tuning) {
    this.stream = stream;
    this.shape = weights.shape();
    this.type = weights.type();
    this.limits = limits;
    this.heads =
        new LlmKernels.Heads(shape.heads(), shape.kvHeads(), shape.headDim(), limits.maxBlocks());
    this.buckets = tokenBuckets(limits.maxTokens());
    this.gemvBlocks = LlmKernels.gemvStreamBlocks(stream.device());
    this.gemvOneBlocks =
        tuning.gemvOneBlocksPerSm()
            * stream.device().attribute(cuda.graph.Device.Attribute.MULTIPROCESSOR_COUNT);
    this.normInProductOne = tuning.normInProductOne();
    this.ropeInProductOne = tuning.ropeInProductOne();
    this.oneTokenSplits = tuning.oneTokenSplits();
    List<AutoCloseable> closeOnFailure = new ArrayList<>();
    try {
      LlmKernels.loadAll(stream.device()); // module loading must stay out of captures
      embedding = upload(weights.embedding());
      finalNorm = upload(weights.finalNorm());
      lmHead = weights.lmHead().equals(weights.embedding()) ? embedding : upload(weights.lmHead());
      long kvElements = (long) limits.kvBlocks() * KvCache.BLOCK_SIZE * shape.kvWidth();
      for (ModelWeights.Layer l : weights.layers()) {
        layers.add(
            new Layer(
                upload(l.attentionNorm()),
                upload(concatenated(l.q(), l.k(), l.v())),
                upload(l.o()),
                upload(l.mlpNorm()),
                upload(concatenated(l.gate(), l.up())),
                upload(l.down()),
                zeros(Numerics.elementType(type), kvElements),
                zeros(Numerics.elementType(type), kvElements)));
      }
      inverseFrequencies =
          upload(
              DeviceBuffer.fromArray(
                      Rope.inverseFrequencies(
                          shape.headDim(), shape.ropeTheta(), shape.ropeScaling()))
                  .syncOn(stream));
      inputs = zeros(ElementType.I32, inputLength(limits.maxTokens()));
      sampled = zeros(ElementType.I32, limits.maxSequences());
      logits = zeros(ElementType.F32, (long) limits.maxSequences() * shape.vocab());
      Blas opened = Blas.open(stream.device());
      closeOnFailure.add(opened);
      blas = opened;
      Workspace allocated = Workspace.allocate(blas.workspaceLimit()).syncOn(stream);
      closeOnFailure.add(allocated);
      workspace = allocated;
      graphs =
          GraphCache.create(
              stream,
              GraphCache.Settings.budget(
                  graphMemoryBudget > 0
                      ? graphMemoryBudget
                      : temporaryBytes(shape, type, limits.maxTokens())),
              (Integer tokens, Scope scope) -> record(tokens, scope));
    } catch (RuntimeException | Error e) {
      for (DeviceBuffer<?> b : owned) {
        b.close();
      }
      for (AutoCloseable c : closeOnFailure.reversed()) {
        try {
          c.close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  private static MemorySegment concatenated(MemorySegment... parts) {
    long size = 0;
    for (MemorySegment p : parts) {
      size += p.byteSize();
    }
    // Row-major [out, in] matrices stacked along out are their bytes one after another.
    MemorySegment all = MemorySegment.ofArray(new byte[Math.toIntExact(size)]);
    long at = 0;
    for (MemorySegment p : parts) {
      MemorySegment.copy(p, 0, all, at, p.byteSize());
      at += p.byteSize();
    }
    return all;
  }

  private DeviceBuffer<?> upload(MemorySegment tensor) {
    return upload(DeviceBuffer.fromSegment(Numerics.elementType(type), tensor).syncOn(stream));
  }

  private <T> DeviceBuffer<T> upload(DeviceBuffer<T> buffer) {
    owned.add(buffer);
    return buffer;
  }

  private <T> DeviceBuffer<T> zeros(ElementType<T> elementType, long length) {
    return upload(DeviceBuffer.zeros(elementType, length).syncOn(stream));
  }

  /**
   * {@return the token buckets up to {@code maxTokens}: the powers of two below it, and it}
   *
   * @param maxTokens the most tokens of a step
   */
  public static Buckets tokenBuckets(int maxTokens) {
    List<Integer> sizes = new ArrayList<>();
    for (int size = 1; size < maxTokens; size *= 2) {
      sizes.add(size);
    }
    sizes.add(maxTokens);
    return new Buckets(sizes);
  }

  /** {@return the sequences a bucket of {@code tokens} tokens serves} */
  private int sequencesOf(int tokens) {
    return Math.min(tokens, limits.maxSequences());
  }

  /** {@return the ints of the inputs of a bucket of {@code tokens} tokens} */
  private long inputLength(int tokens) {
    return 3L * tokens
        + (long) sequencesOf(tokens) * (1 + LlmKernels.SAMPLING_WORDS + limits.maxBlocks());
  }

  /**
   * {@return the bytes of a graph's temporaries for {@code tokens} tokens}: the residual stream,
   * the QKV and gate/up products' fp32 rows, the normalised rows, the context and the SwiGLU
   * activations in the weights' type, attention's records of its splits and the argmax's keys
   *
   * @param shape the model's dimensions
   * @param type the weights' type
   * @param tokens the bucket's tokens
   */
  public static long temporaryBytes(ModelShape shape, DType type, long tokens) {
    long fp32 = (long) shape.hidden() + shape.qkvWidth() + 2L * shape.intermediate();
    long typed = (long) shape.hidden() + shape.qWidth() + shape.intermediate();
    LlmKernels.Heads heads =
        new LlmKernels.Heads(shape.heads(), shape.kvHeads(), shape.headDim(), 1);
    long partials = Math.max(1, LlmKernels.attentionPartialFloats((int) tokens, heads));
    // argmax_parts' keys: S ceil(64 / S) parts for S sequences, at most 64 + S - 1, S <= tokens
    long keys = 2L * (LlmKernels.ARGMAX_TARGET_BLOCKS + tokens);
    return tokens * (fp32 * Float.BYTES + typed * type.bytes())
        + partials * Float.BYTES
        + keys * Integer.BYTES;
  }

  /** Records the step of a bucket of {@code tokens} tokens. */
  private void record(int tokens, Scope scope) {
    int sequences = sequencesOf(tokens);
    int h = shape.hidden(), inter = shape.intermediate();
    ElementType<?> t = Numerics.elementType(type);
    DeviceBuffer<Float> x = scope.temporary(ElementType.F32, (long) tokens * h);
    DeviceBuffer<?> xn = scope.temporary(t, (long) tokens * h);
    DeviceBuffer<Float> qkv = scope.temporary(ElementType.F32, (long) tokens * shape.qkvWidth());
    DeviceBuffer<?> context = scope.temporary(t, (long) tokens * shape.qWidth());
    DeviceBuffer<Float> gateUp = scope.temporary(ElementType.F32, 2L * tokens * inter);
    DeviceBuffer<?> act = scope.temporary(t, (long) tokens * inter);
    int splits =
        tokens == 1 && oneTokenSplits > 0 && heads.grouped()
            ? oneTokenSplits
            : LlmKernels.attentionSplits(tokens, heads);
    DeviceBuffer<Float> partials =
        scope.temporary(
            ElementType.F32, Math.max(1, LlmKernels.attentionPartialFloats(tokens, heads, splits)));

    long at = 0;
    DeviceBuffer<Integer> ids = inputs.slice(at, tokens);
    DeviceBuffer<Integer> positions = inputs.slice(at += tokens, tokens);
    DeviceBuffer<Integer> seqOfToken = inputs.slice(at += tokens, tokens);
    DeviceBuffer<Integer> lastRows = inputs.slice(at += tokens, sequences);
    DeviceBuffer<Integer> params =
        inputs.slice(at += sequences, (long) sequences * LlmKernels.SAMPLING_WORDS);
    DeviceBuffer<Integer> tables =
        inputs.slice(
            at + (long) sequences * LlmKernels.SAMPLING_WORDS,
            (long) sequences * limits.maxBlocks());

    scope.record(LlmKernels.embed(type, ids, embedding, x, tokens, h, shape.vocab()));
    for (Layer l : layers) {
      if (fusesOne(tokens, x, l.qkv())
          && ropeInProductOne
          && LlmKernels.gemvNormRopeTakes(type, x, l.qkv(), h, heads)) {
        scope.record(
            LlmKernels.gemvNormRopeOne(
                type,
                x,
                l.attentionNorm(),
                l.qkv(),
                qkv,
                inverseFrequencies,
                positions,
                seqOfToken,
                tables,
                l.kCache(),
                l.vCache(),
                heads,
                h,
                eps(),
                gemvOneBlocks));
      } else {
        normedProduct(scope, x, l.attentionNorm(), xn, tokens, l.qkv(), shape.qkvWidth(), qkv);
        scope.record(
            LlmKernels.ropeCache(
                type,
                qkv,
                inverseFrequencies,
                positions,
                seqOfToken,
                tables,
                l.kCache(),
                l.vCache(),
                tokens,
                heads));
      }
      scope.record(
          LlmKernels.attention(
              type,
              qkv,
              l.kCache(),
              l.vCache(),
              positions,
              seqOfToken,
              tables,
              context,
              partials,
              tokens,
              heads,
              splits));
      scope.record(product(context, tokens, l.o(), h, shape.qWidth(), x, true));
      if (fusesOne(tokens, x, l.gateUp()) && LlmKernels.gemvNormSiluTakes(type, x, l.gateUp(), h)) {
        scope.record(
            LlmKernels.gemvNormSiluOne(
                type, x, l.mlpNorm(), l.gateUp(), act, inter, h, eps(), gemvOneBlocks));
      } else {
        scope.record(LlmKernels.rmsNorm(type, x, l.mlpNorm(), xn, tokens, h, eps()));
        scope.record(product(xn, tokens, l.gateUp(), 2 * inter, h, gateUp, false));
        scope.record(LlmKernels.siluMul(type, gateUp, act, tokens, inter));
      }
      scope.record(product(act, tokens, l.down(), h, inter, x, true));
    }
    DeviceBuffer<Float> rowsOfLogits = logits.slice(0, (long) sequences * shape.vocab());
    if (fusesOne(tokens, x, lmHead)) {
      // One token: its sequence's last row is row 0, the row gemv_norm1 normalises.
      scope.record(
          LlmKernels.gemvNormOne(
              type, x, finalNorm, lmHead, rowsOfLogits, shape.vocab(), h, eps(), gemvOneBlocks));
    } else {
      scope.record(LlmKernels.gatherRmsNorm(type, x, lastRows, finalNorm, xn, sequences, h, eps()));
      scope.record(product(xn, sequences, lmHead, shape.vocab(), h, rowsOfLogits, false));
    }
    DeviceBuffer<Integer> keys =
        scope.temporary(ElementType.I32, 2L * sequences * LlmKernels.argmaxParts(sequences));
    scope.record(
        LlmKernels.sample(
            rowsOfLogits, params, sampled.slice(0, sequences), keys, sequences, shape.vocab()));
  }

  /**
   * {@return whether a step of {@code tokens} tokens takes gemv_norm1 (and gemv_norm_silu1) for the
   * RMSNorm before a product of {@code w}}: steps of one token on gemv_stream1's grid, unless the
   * tuning says otherwise
   */
  private boolean fusesOne(int tokens, DeviceBuffer<Float> x, DeviceBuffer<?> w) {
    return tokens == 1
        && gemvOneBlocks > 0
        && normInProductOne
        && LlmKernels.gemvNormTakes(type, x, w, shape.hidden());
  }

  /** Records y = rms_norm(x) w^T: one kernel where {@link #fusesOne} says so, else two. */
  private void normedProduct(
      Scope scope,
      DeviceBuffer<Float> x,
      DeviceBuffer<?> norm,
      DeviceBuffer<?> xn,
      int tokens,
      DeviceBuffer<?> w,
      int rows,
      DeviceBuffer<Float> y) {
    int h = shape.hidden();
    if (fusesOne(tokens, x, w)) {
      scope.record(LlmKernels.gemvNormOne(type, x, norm, w, y, rows, h, eps(), gemvOneBlocks));
    } else {
      scope.record(LlmKernels.rmsNorm(type, x, norm, xn, tokens, h, eps()));
      scope.record(product(xn, tokens, w, rows, h, y, false));
    }
  }

  /**
   * {@return y = x w^T (y += it where accumulating) for {@code tokens} rows of x}: a linear layer's
   * product, by gemv_stream (or gemv, for rows longer than its tile) for a decode step's few rows
   * (cuBLASLt reads the smaller weights at 30-70% of the bandwidth there) and by cuBLASLt otherwise
   */
  private GraphNode<@Nullable Void> product(
      DeviceBuffer<?> x,
      int tokens,
      DeviceBuffer<?> w,
      int rows,
      int k,
      DeviceBuffer<Float> y,
      boolean accumulating) {
    if (tokens == 1 && gemvOneBlocks > 0 && LlmKernels.gemvStreamTakes(type, x, w, y, 1, k)) {
      return LlmKernels.gemvStreamOne(type, x, w, y, rows, k, accumulating, gemvOneBlocks);
    }
    if (LlmKernels.gemvStreamTakes(type, x, w, y, tokens, k)) {
      return LlmKernels.gemvStream(type, x, w, y, tokens, rows, k, accumulating, gemvBlocks);
    }
    if (LlmKernels.gemvTakes(type, x, w, y, tokens, k)) {
      return LlmKernels.gemv(type, x, w, y, tokens, rows, k, accumulating);
    }
    Matmul m =
        Matmul.of(
            MatrixView.rowMajor(x, tokens, k),
            weight(w, rows, k),
            MatrixView.rowMajor(y, tokens, rows));
    return blas.matmul(accumulating ? m.accumulating(1f) : m, workspace);
  }

  private float eps() {
    return shape.rmsNormEps();
  }

  /** {@return a linear layer's {@code [out, in]} weight as the right operand, {@code W^T}} */
  private static MatrixView weight(DeviceBuffer<?> w, int out, int in) {
    return MatrixView.rowMajor(w, out, in).transposed();
  }

  /**
   * {@return the bucket of tokens a step of {@code tokens} tokens runs in}
   *
   * @param tokens the step's tokens, 1 to {@code maxTokens}
   */
  public int bucketFor(int tokens) {
    return buckets.cover(tokens).size();
  }

  /**
   * Runs one step: the chunks' tokens through the model, their k and v into the cache, and each
   * chunk's next token sampled.
   *
   * @param chunks 1 to {@code maxSequences} chunks of distinct sequences, together at most {@code
   *     maxTokens} tokens
   * @return each chunk's next token, in order
   * @throws IllegalArgumentException naming the chunk and what is wrong: too many chunks or tokens,
   *     an empty chunk, a negative start, a sequence past {@code maxContext}, a block table too
   *     short for the chunk's positions or longer than {@code maxBlocks}, a block outside the
   *     cache, a token outside the vocabulary
   */
  public int[] run(List<Chunk> chunks) {
    return run(chunks, null);
  }

  /**
   * For measurement tools (LlmBench's trace): {@link #run} with the step's graph between {@link
   * LlmKernels#TRACE_TO} launches naming {@code trace} (its count of records set to 0 first), whose
   * words hold the kernel timeline's records when this returns, where the PTX was built to trace.
   *
   * @param chunks as {@link #run}'s
   * @param trace the timeline's buffer (testkit's KernelTimeline: its capacity in word 1)
   * @return as {@link #run}'s
   */
  public int[] runTraced(List<Chunk> chunks, DeviceBuffer<Long> trace) {
    return run(chunks, Objects.requireNonNull(trace, "trace"));
  }

  private int[] run(List<Chunk> chunks, @Nullable DeviceBuffer<Long> trace) {
    int total = check(chunks);
    int tokens = bucketFor(total);
    int sequences = sequencesOf(tokens);
    int maxBlocks = limits.maxBlocks();
    int[] in = new int[Math.toIntExact(inputLength(tokens))];
    int ids = 0, positions = tokens, seqOfToken = 2 * tokens, lastRows = 3 * tokens;
    int params = lastRows + sequences;
    int tables = params + sequences * LlmKernels.SAMPLING_WORDS;
    java.util.Arrays.fill(in, positions, positions + tokens, -1);
    int row = 0;
    for (int s = 0; s < sequences; s++) {
      int[] words =
          s < chunks.size()
              ? chunks.get(s).sampling().words(chunks.get(s).end())
              : Sampling.GREEDY.words(0);
      System.arraycopy(words, 0, in, params + s * LlmKernels.SAMPLING_WORDS, words.length);
      if (s >= chunks.size()) {
        continue;
      }
      Chunk c = chunks.get(s);
      for (int i = 0; i < c.tokens().length; i++, row++) {
        in[ids + row] = c.tokens()[i];
        in[positions + row] = c.start() + i;
        in[seqOfToken + row] = s;
      }
      in[lastRows + s] = row - 1;
      System.arraycopy(c.blockTable(), 0, in, tables + s * maxBlocks, c.blockTable().length);
    }
    DeviceOp<?> step = graphs.launch(tokens);
    if (trace != null) {
      LaunchConfig one = LaunchConfig.of(1, 1);
      step =
          trace
              .slice(0, 1)
              .write(new long[] {0})
              .andThen(LlmKernels.TRACE_TO.launch(one, trace, 1))
              .andThen(step)
              .andThen(LlmKernels.TRACE_TO.launch(one, trace, 0));
    }
    int[] out =
        inputs
            .slice(0, in.length)
            .write(in)
            .andThen(step)
            .andThen(sampled.slice(0, chunks.size()).toIntArray())
            .syncOn(stream);
    lastSequences = chunks.size();
    return out;
  }

  private int check(List<Chunk> chunks) {
    if (chunks.isEmpty() || chunks.size() > limits.maxSequences()) {
      throw new IllegalArgumentException(
          "BatchStep.run: "
              + chunks.size()
              + " chunks; a step takes 1 to "
              + limits.maxSequences()
              + " (maxSequences)");
    }
    int total = 0;
    for (int s = 0; s < chunks.size(); s++) {
      Chunk c = chunks.get(s);
      String which = "BatchStep.run: chunk " + s + " of " + chunks.size();
      if (c.tokens().length == 0 || c.start() < 0 || c.end() > limits.maxContext()) {
        throw new IllegalArgumentException(
            which
                + " has "
                + c.tokens().length
                + " tokens from position "
                + c.start()
                + "; a chunk has at least 1 token, starts at 0 or later and ends by maxContext "
                + limits.maxContext());
      }
      int need = KvCache.blocksFor(c.end());
      if (c.blockTable().length < need || c.blockTable().length > limits.maxBlocks()) {
        throw new IllegalArgumentException(
            which
                + " has a block table of "
                + c.blockTable().length
                + " blocks; its "
                + c.end()
                + " positions need "
                + need
                + ", and a table holds at most "
                + limits.maxBlocks()
                + " (extend the sequence in the KvCache first)");
      }
      for (int b : c.blockTable()) {
        if (b < 0 || b >= limits.kvBlocks()) {
          throw new IllegalArgumentException(
              which
                  + " names block "
                  + b
                  + "; the cache has blocks 0 to "
                  + (limits.kvBlocks() - 1)
                  + " (take tables from the KvCache of kvBlocks blocks)");
        }
      }
      for (int i = 0; i < c.tokens().length; i++) {
        int id = c.tokens()[i];
        if (id < 0 || id >= shape.vocab()) {
          throw new IllegalArgumentException(
              which
                  + ": token "
                  + i
                  + " is id "
                  + id
                  + ", outside the vocabulary of "
                  + shape.vocab());
        }
      }
      total += c.tokens().length;
    }
    if (total > limits.maxTokens()) {
      throw new IllegalArgumentException(
          "BatchStep.run: "
              + total
              + " tokens; a step takes at most "
              + limits.maxTokens()
              + " (maxTokens); split the prefill into chunks");
    }
    return total;
  }

  /** {@return each chunk's logits row of the last {@link #run}, copied from the device} */
  public float[][] logits() {
    float[] all =
        logits.slice(0, (long) lastSequences * shape.vocab()).toFloatArray().syncOn(stream);
    float[][] rows = new float[lastSequences][];
    for (int s = 0; s < lastSequences; s++) {
      rows[s] = java.util.Arrays.copyOfRange(all, s * shape.vocab(), (s + 1) * shape.vocab());
    }
    return rows;
  }

  /** {@return the graphs, one per token bucket run so far} */
  public GraphCache<Integer> graphs() {
    return graphs;
  }

  /** {@return the limits} */
  public Limits limits() {
    return limits;
  }

  @Override
  public void close() {
    graphs.close();
    workspace.close();
    blas.close();
    for (DeviceBuffer<?> b : owned) {
      b.close();
    }
  }
}
