// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.Buckets;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.MappedHostBuffer;
import cuda.graph.Scope;
import cuda.graph.Stream;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Epilogue;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.internal.model.Architecture;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.ReferenceEncoder;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A BERT encoder on one device (all-MiniLM-L6-v2, bge-small-en-v1.5, any whose {@link Architecture}
 * the kernels take: heads of at most 32, rows of at most 1024): the whole forward pass of a padded
 * batch as one captured graph per shape (batch size, padded length), replayed from a {@link
 * GraphCache}.
 *
 * <p>A graph is the embeddings kernel, each layer's (QKV projection, attention, output projection
 * with the residual, LayerNorm, up projection with GELU, down projection with the residual,
 * LayerNorm), and pooling (the mean over the mask or the [CLS] row) with the L2 normalisation:
 * {@code 2 + 7 * layers} nodes with {@link Gelu#EPILOGUE}, one more per layer with {@link
 * Gelu#EXACT_KERNEL}, and the allocation and free nodes of its temporaries. The matrix products are
 * {@link Blas} matmul nodes with the bias in the epilogue; the residual is added by the product
 * itself ({@link Matmul#accumulating}: {@code x = x + context W + b}), so the LayerNorm after it
 * runs in place. Everything else is {@link EncoderKernels}.
 *
 * <p>GELU. BERT's GELU is the exact erf form; cuBLASLt's GELU epilogue is the tanh approximation.
 * Measured on the simulator (whose matmul model applies the same epilogue) over the eight sentences
 * of ReferenceEncoderTests and the long text, each embedding's cosine to LangChain4j's is at least
 * 0.9999988 with the epilogue ({@link Gelu#EPILOGUE}) and 0.999999999999 with the exact form in a
 * kernel of its own after a BIAS epilogue ({@link Gelu#EXACT_KERNEL}). At scale the epilogue's
 * margin is too thin for fp32's floor: on the H200 over 100,000 sentences of documentation, the
 * worst cosine to PyTorch's {@code BertModel} (fp32, exact GELU) was 0.99998933 with the epilogue,
 * on 128-token lists of copyright holders. So the fp32 mode computes the exact form ({@link
 * Gelu#defaultFor}), at the cost of a kernel and two passes over the {@code [tokens, 1536]}
 * activations per layer, and the fp16 mode, whose floor is 0.9995 and whose activations are fp16,
 * uses the epilogue.
 *
 * <p>Memory. The weights are uploaded once, in the layout the ONNX file stores them: each linear
 * layer's weight is {@code [in, out]} row-major, the right operand of {@code x W}, so a product
 * takes it as it is ({@code MatrixView.rowMajor(w, in, out)}, not transposed). The query, key and
 * value weights are placed side by side in one {@code [hidden, 3 * hidden]} matrix (and their
 * biases in one vector), so one product gives the {@code Q | K | V} rows the attention kernel
 * reads. Each kind of weight of every layer is one buffer, {@code [layers][...]}, and a layer's
 * weights are slices of them, which the products take. Activations are {@link Scope#temporary
 * temporaries} of each graph, so they exist only while a replay runs. The token ids, types and mask
 * (ints, side by side: one copy) and the pooled rows with their norms (one copy back) are views of
 * buffers sized for {@code maxBatch x maxLength}, shared by the graphs of every shape. One matmul
 * workspace serves every graph, since the graphs replay one after another on one stream (the
 * cache's {@link GraphCache.Sharing#SERIAL}). It is as large as the {@code Blas}'s workspace limit,
 * which bounds every plan, rather than {@link Blas#workspaceFor} the largest shape's products: a
 * plan is made for a product's shape, each shape's products are planned when its graph is first
 * captured, and cuBLASLt may give a smaller shape an algorithm that needs more workspace.
 *
 * <p>Precision. In {@link Precision#FP32} (the default) everything is fp32. In {@link
 * Precision#FP16} the four weight matrices of each layer are stored as fp16 and every product reads
 * fp16 inputs and accumulates in fp32 (cuBLASLt's {@code A, B} fp16, compute fp32): the LayerNorms
 * write an fp16 copy of their rows beside the fp32 ones, attention writes fp16, and the up
 * projection writes its GELU'd activations as fp16; the QKV product and the two products that add
 * to the residual stream write fp32, so the residual stream, LayerNorm, softmax and pooling stay
 * fp32. It halves the weights' bytes and takes the tensor cores' fp16 path.
 *
 * <p>Long texts. A text is the runs of word pieces {@link BertTokenizer#parts} makes of it, each at
 * most {@code maxLength} tokens (with DJL's truncation, one run). Each run is a sequence of a
 * batch; the pooling kernel writes each sequence's unit vector and the norm it divided by, so that
 * a text of one run takes its unit vector as it is and a text of several runs gets LangChain4j's
 * embedding: the runs' pooled vectors (unit vector times norm) averaged with their piece counts as
 * weights, then normalised, on the host. A batch of texts whose runs are more than {@code maxBatch}
 * runs in graphs of up to {@code maxBatch} sequences, the runs sorted by length.
 *
 * <p>Not thread-safe: one {@link #embed} at a time. Closing frees the graphs, weights and buffers.
 */
public final class GpuEncoder implements AutoCloseable {

  /**
   * A graph's key.
   *
   * @param batch how many sequences
   * @param length the length they are padded to
   */
  public record Shape(int batch, int length) {}

  /** The arithmetic of the matrix products: see the class comment. */
  public enum Precision {
    /** fp32 weights and activations; the products in fp32. */
    FP32,
    /**
     * fp16 weights and product inputs, fp32 accumulation; the residual stream, LayerNorm, softmax
     * and pooling stay fp32.
     */
    FP16
  }

  /** How the feed-forward GELU is computed: see the class comment. */
  public enum Gelu {
    /** cuBLASLt's BIAS_GELU epilogue, the tanh approximation. */
    EPILOGUE,
    /** BERT's erf form, {@link EncoderKernels#gelu} after a BIAS epilogue. */
    EXACT_KERNEL;

    /**
     * {@return the GELU of {@code precision}: the exact form in fp32, the epilogue in fp16}
     *
     * @param precision the products' arithmetic
     */
    public static Gelu defaultFor(Precision precision) {
      return precision == Precision.FP32 ? EXACT_KERNEL : EPILOGUE;
    }
  }

  /** One layer's weights on the device: slices of the stacked buffers (see the class comment). */
  private record Layer(
      DeviceBuffer<?> qkv,
      DeviceBuffer<Float> qkvBias,
      DeviceBuffer<?> qkvBiasInput,
      DeviceBuffer<?> attentionOutput,
      DeviceBuffer<Float> attentionOutputBias,
      DeviceBuffer<Float> attentionGamma,
      DeviceBuffer<Float> attentionBeta,
      DeviceBuffer<?> intermediate,
      DeviceBuffer<?> intermediateBias,
      DeviceBuffer<?> output,
      DeviceBuffer<Float> outputBias,
      DeviceBuffer<Float> outputGamma,
      DeviceBuffer<Float> outputBeta) {}

  private final Stream stream;
  private final BertTokenizer tokenizer;
  private final Architecture architecture;
  private final int hidden;
  private final Pooling pooling;
  private final int maxBatch;
  private final int maxLength;

  /** The shapes graphs are captured for: a batch pads to its batch and length buckets. */
  private final Buckets batchBuckets, lengthBuckets;

  /** The shapes whose graphs the budget refused: they run eagerly (see {@link #launch}). */
  private final java.util.Set<Shape> overBudget =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final Precision precision;
  private final Gelu gelu;

  /** The most tokens of a shape on the query path: the sizing's, or 0 where it cannot run. */
  private final int queryTokens;

  /** The fewest tokens of an fp16 shape whose attention runs on the tensor cores. */
  private final int attentionTilesTokens;

  /** The widest rows of a query path's output product that takes its LayerNorm in the same node. */
  private final int queryNormsMaxK;

  /** The device's dynamic shared memory a block may opt in to. */
  private final int sharedMemoryOptIn;

  private final List<DeviceBuffer<?>> owned = new ArrayList<>();
  private final EncoderKernels.Tables tables;
  private final List<Layer> layers = new ArrayList<>();

  /**
   * A batch's token ids, types and mask side by side ({@code 3 * tokens} ints for a shape of {@code
   * tokens}), so that one copy brings them.
   */
  private final DeviceBuffer<Integer> inputs;

  /**
   * The pooling kernel's output: {@code maxBatch} norms, then {@code maxBatch} unit vectors of
   * {@code hidden} (a shape of {@code batch} sequences uses the first {@code batch} of each).
   */
  private final DeviceBuffer<Float> pooled;

  /**
   * A query shape's inputs and outputs in mapped host memory (null where there is no query path):
   * the host writes the ids, types and mask into {@code queryIn} and the graph's first node copies
   * them to {@link #inputs}; the pooling kernel writes the norms and unit vectors straight into
   * {@code queryOut} ({@link #queryBatch} norms, then as many rows), which the host reads once the
   * stream is done. A query then costs one launch and one wait, not two copies of their own.
   */
  private final @Nullable MappedHostBuffer<Integer> queryIn;

  private final @Nullable MappedHostBuffer<Float> queryOut;

  /** The most sequences of a query shape: {@code min(maxBatch, queryTokens)}. */
  private final int queryBatch;

  private final Blas blas;
  private final Workspace workspace;
  private final GraphCache<Shape> graphs;
  private volatile int nodesPerGraph, matmulNodesPerGraph;

  /** See {@link #streamWaitNanos()}: written by the one thread that runs a batch at a time. */
  private long streamWaitNanos;

  private final java.util.Map<Shape, List<DeviceBuffer<?>>> eagerBuffers =
      new java.util.HashMap<>();

  /**
   * Uploads {@code weights} to the device of {@code stream} and prepares graphs for batches of up
   * to {@code maxBatch} texts of up to {@code maxLength} tokens a run, pooling the mean
   * (all-MiniLM's pooling; the full constructor takes another).
   *
   * @param weights the model's weights and architecture
   * @param tokenizer the model's tokenizer
   * @param stream the stream of the device the encoder runs on
   * @param maxBatch the most texts one {@link #embed} takes, at least 1
   * @param maxLength the most tokens of a run, 1 to the model's positions ({@link
   *     #maxLength(Architecture, BertTokenizer)} is the most the tokenizer makes)
   */
  public GpuEncoder(
      EncoderWeights weights, BertTokenizer tokenizer, Stream stream, int maxBatch, int maxLength) {
    this(weights, tokenizer, stream, maxBatch, maxLength, Precision.FP32);
  }

  /**
   * As {@link #GpuEncoder(EncoderWeights, BertTokenizer, Stream, int, int)}, in {@code precision}
   * with its GELU ({@link Gelu#defaultFor}).
   *
   * @param weights the model's weights and architecture
   * @param tokenizer the model's tokenizer
   * @param stream the stream of the device the encoder runs on
   * @param maxBatch the most texts one {@link #embed} takes, at least 1
   * @param maxLength the most tokens of a run, 1 to the model's positions
   * @param precision the products' arithmetic
   */
  public GpuEncoder(
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Stream stream,
      int maxBatch,
      int maxLength,
      Precision precision) {
    this(weights, tokenizer, stream, maxBatch, maxLength, precision, Gelu.defaultFor(precision));
  }

  /**
   * As {@link #GpuEncoder(EncoderWeights, BertTokenizer, Stream, int, int)}, in {@code precision}
   * and GELU as asked.
   *
   * @param weights the model's weights and architecture
   * @param tokenizer the model's tokenizer
   * @param stream the stream of the device the encoder runs on
   * @param maxBatch the most texts one {@link #embed} takes, at least 1
   * @param maxLength the most tokens of a run, 1 to the model's positions
   * @param precision the products' arithmetic
   * @param gelu how the feed-forward GELU is computed
   */
  public GpuEncoder(
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Stream stream,
      int maxBatch,
      int maxLength,
      Precision precision,
      Gelu gelu) {
    this(weights, tokenizer, stream, maxBatch, maxLength, precision, gelu, Pooling.MEAN);
  }

  /**
   * As {@link #GpuEncoder(EncoderWeights, BertTokenizer, Stream, int, int)}, in {@code precision},
   * GELU and pooling as asked.
   *
   * @param weights the model's weights and architecture
   * @param tokenizer the model's tokenizer
   * @param stream the stream of the device the encoder runs on
   * @param maxBatch the most texts one {@link #embed} takes, at least 1
   * @param maxLength the most tokens of a run, 1 to the model's positions
   * @param precision the products' arithmetic
   * @param gelu how the feed-forward GELU is computed
   * @param pooling how a run's hidden states become one vector
   * @throws IllegalArgumentException for {@link Gelu#EXACT_KERNEL} in {@link Precision#FP16}, whose
   *     feed-forward activations are fp16 and the kernel's fp32; for an architecture the kernels do
   *     not take (heads wider than 32, rows wider than 1024)
   */
  public GpuEncoder(
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Stream stream,
      int maxBatch,
      int maxLength,
      Precision precision,
      Gelu gelu,
      Pooling pooling) {
    this(weights, tokenizer, stream, maxBatch, maxLength, precision, gelu, pooling, Sizing.DEFAULT);
  }

  /**
   * The shapes graphs are captured for and the graph memory they may hold: the buckets a batch is
   * padded to (null for the defaults, {@link #buckets}) and the graph cache's budget (0 for as much
   * as the largest shape needs), and the most tokens of a shape that takes the fp16 query path
   * ({@link #QUERY_TOKENS}; 0: none, every shape on the cuBLASLt path).
   *
   * @param batch the batch sizes, or null
   * @param length the token lengths, or null
   * @param graphMemoryBudget the budget in bytes, or 0
   * @param queryTokens the most tokens (batch times padded length) of a shape on the query path, 0
   *     to {@link #QUERY_MAX_TOKENS}
   * @param attentionTilesTokens the fewest tokens of an fp16 shape whose attention runs on the
   *     tensor cores ({@link EncoderKernels#attentionHalfTiles}) where its length and heads allow
   *     ({@link #ATTENTION_TILES_TOKENS}; {@link Integer#MAX_VALUE}: none)
   * @param queryNormsMaxK the widest rows (k) of a query path's output product that takes the
   *     LayerNorm after it in the same node ({@link EncoderKernels#queryLinearResidualNorm}) where
   *     the hidden width allows ({@link #QUERY_NORMS_MAX_K}; 0: none, two nodes each)
   */
  public record Sizing(
      @Nullable Buckets batch,
      @Nullable Buckets length,
      long graphMemoryBudget,
      int queryTokens,
      int attentionTilesTokens,
      int queryNormsMaxK) {
    /** The defaults. */
    public static final Sizing DEFAULT = new Sizing(null, null, 0);

    /**
     * Checks the query path's tokens.
     *
     * @throws IllegalArgumentException if {@code queryTokens} is outside 0 to {@link
     *     #QUERY_MAX_TOKENS}
     */
    public Sizing {
      if (queryTokens < 0 || queryTokens > QUERY_MAX_TOKENS) {
        throw new IllegalArgumentException(
            "GpuEncoder.Sizing: the query path takes shapes of up to "
                + QUERY_MAX_TOKENS
                + " tokens; got "
                + queryTokens
                + " (0 turns it off)");
      }
    }

    /**
     * The buckets and budget, with the query path up to {@link #QUERY_TOKENS} and the attention on
     * the tensor cores from {@link #ATTENTION_TILES_TOKENS}.
     *
     * @param batch the batch sizes, or null
     * @param length the token lengths, or null
     * @param graphMemoryBudget the budget in bytes, or 0
     */
    public Sizing(@Nullable Buckets batch, @Nullable Buckets length, long graphMemoryBudget) {
      this(
          batch,
          length,
          graphMemoryBudget,
          QUERY_TOKENS,
          ATTENTION_TILES_TOKENS,
          QUERY_NORMS_MAX_K);
    }

    /**
     * {@return these sizes with the query path for shapes of up to {@code tokens} tokens}
     *
     * @param tokens 0 (off) to {@link #QUERY_MAX_TOKENS}
     */
    public Sizing withQueryTokens(int tokens) {
      return new Sizing(
          batch, length, graphMemoryBudget, tokens, attentionTilesTokens, queryNormsMaxK);
    }

    /**
     * {@return these sizes with the fp16 attention on the tensor cores from {@code tokens} tokens}
     *
     * @param tokens the fewest tokens of such a shape; {@link Integer#MAX_VALUE} for none
     */
    public Sizing withAttentionTilesTokens(int tokens) {
      return new Sizing(batch, length, graphMemoryBudget, queryTokens, tokens, queryNormsMaxK);
    }

    /**
     * {@return these sizes with the query path's output products over rows of up to {@code k} wide
     * taking their LayerNorm in the same node}
     *
     * @param k the widest rows of such a product; 0 for none
     */
    public Sizing withQueryNormsMaxK(int k) {
      return new Sizing(batch, length, graphMemoryBudget, queryTokens, attentionTilesTokens, k);
    }
  }

  /**
   * The most tokens of a shape that runs, in fp16, on the query path by default: every node one of
   * the encoder's own kernels launched as a programmatic dependent launch, the products {@link
   * EncoderKernels#queryLinearBias} and its kind, which copy their weights into shared memory
   * before they wait for the kernel before them. A query's pass is 44 small dependent nodes whose
   * cost is their latency, not their work. On an H100 (2026-12-07) all-MiniLM's replay of 1 x 32
   * took 134.4 us against cuBLASLt's 154.9, 2 x 32 154.7 against 158.1, 4 x 32 190.3 against 166.3
   * (bge-small 268.5 / 352.5, 306.9 / 362.5, 379.0 / 377.6): larger shapes stay on cuBLASLt.
   */
  public static final int QUERY_TOKENS = 64;

  /**
   * The most tokens a sizing may put on the query path: its products take any number of rows (a
   * block for each 32), but past a few hundred tokens cuBLASLt's products are the faster.
   */
  public static final int QUERY_MAX_TOKENS = 1024;

  /**
   * The widest rows of a query path's output product that takes the LayerNorm after it in the same
   * node by default ({@link EncoderKernels#queryLinearResidualNorm}).
   */
  public static final int QUERY_NORMS_MAX_K = 0;

  /**
   * The fewest tokens (batch times padded length) of an fp16 shape whose attention runs on the
   * tensor cores ({@link EncoderKernels#attentionHalfTiles}, sequences of up to {@value
   * EncoderKernels#ATTENTION_TILES_MAX_LENGTH} tokens). On an H100 (2026-12-07) all-MiniLM's replay
   * of 256 x 48 took 1,274.8 us against 1,976.3 with one query a warp, 32 x 48 295.6 against 366.3,
   * 16 x 32 209.1 against 226.2; but 8 x 32 190.7 against 185.2, and a 1 x 32 query 154.9 against
   * 134.0: a block per head of a sequence leaves a small shape's GPU mostly idle.
   */
  public static final int ATTENTION_TILES_TOKENS = 512;

  /**
   * The longest padded length whose fp16 attention runs one query a warp ({@link
   * EncoderKernels#attentionHalfShort}): under Nsight Compute on an H100, 6.2 us against 11.2 us a
   * layer for one 32-token query; longer sequences keep four queries a warp, which stage each tile
   * of keys once for more queries.
   */
  static final int SHORT_ATTENTION_LENGTH = 64;

  /**
   * The most tokens (batch times padded length) of a shape whose fp16 attention runs one query a
   * warp: each warp reads its sequence's keys and values from L2 on its own, which wins while they
   * are few (on an H100 the replay of 8 x 32 tokens 174 us against 194) and loses as batches grow:
   * at 256 x 48 it took 248 us a layer under Nsight Compute, 59% of the replay.
   */
  static final int SHORT_ATTENTION_TOKENS = 256;

  /** {@return whether a shape's fp16 attention runs one query a warp} */
  static boolean shortAttention(int batch, int length) {
    return length <= SHORT_ATTENTION_LENGTH && batch * length <= SHORT_ATTENTION_TOKENS;
  }

  /**
   * As {@link #GpuEncoder(EncoderWeights, BertTokenizer, Stream, int, int, Precision, Gelu,
   * Pooling)}, with the buckets and budget of {@code sizing}.
   *
   * @throws IllegalArgumentException also if a bucket list ends below {@code maxBatch} or {@code
   *     maxLength}: a batch it cannot hold would fail only when it came
   */
  public GpuEncoder(
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Stream stream,
      int maxBatch,
      int maxLength,
      Precision precision,
      Gelu gelu,
      Pooling pooling,
      Sizing sizing) {
    Architecture a = weights.architecture;
    if (maxBatch < 1 || maxLength < 1 || maxLength > a.positions()) {
      throw new IllegalArgumentException(
          "GpuEncoder: batches of up to "
              + maxBatch
              + " texts of up to "
              + maxLength
              + " tokens; take at least 1 text and 1 to "
              + a.positions()
              + " tokens (the model's positions)");
    }
    if (a.headSize() > EncoderKernels.MAX_HEAD_SIZE || a.hidden() > EncoderKernels.MAX_HIDDEN) {
      throw new IllegalArgumentException(
          "GpuEncoder: the model has "
              + a.heads()
              + " heads of "
              + a.headSize()
              + " in rows of "
              + a.hidden()
              + "; the encoder's kernels take heads of up to "
              + EncoderKernels.MAX_HEAD_SIZE
              + " and rows of up to "
              + EncoderKernels.MAX_HIDDEN
              + " (small BERTs such as all-MiniLM-L6-v2 and bge-small-en-v1.5); embed this model on"
              + " the CPU (WhenNoGpu.FALL_BACK_TO_CPU) or with LangChain4j");
    }
    if (precision == Precision.FP16 && gelu == Gelu.EXACT_KERNEL) {
      throw new IllegalArgumentException(
          "GpuEncoder: the exact GELU kernel works on fp32 activations; in fp16 use Gelu.EPILOGUE"
              + " (cuBLASLt's tanh form) or Precision.FP32");
    }
    this.stream = stream;
    this.tokenizer = tokenizer;
    this.architecture = a;
    this.hidden = a.hidden();
    this.pooling = pooling;
    this.maxBatch = maxBatch;
    this.maxLength = maxLength;
    this.batchBuckets =
        covering(sizing.batch(), buckets(new int[] {1, 2, 4}, 8, maxBatch), maxBatch, "batch");
    this.lengthBuckets =
        covering(sizing.length(), defaultLengthBuckets(maxLength), maxLength, "length");
    this.precision = precision;
    this.gelu = gelu;
    int ffn = a.intermediate();
    this.sharedMemoryOptIn =
        stream.device().attribute(cuda.graph.Device.Attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    this.queryTokens =
        precision == Precision.FP16
                && hidden % EncoderKernels.QUERY_BIAS_COLUMNS == 0
                && ffn % EncoderKernels.QUERY_GELU_COLUMNS == 0
                && Math.max(
                        EncoderKernels.queryLinearBytes(EncoderKernels.QUERY_BIAS_COLUMNS, hidden),
                        EncoderKernels.queryLinearBytes(EncoderKernels.QUERY_RESIDUAL_COLUMNS, ffn))
                    <= sharedMemoryOptIn
            ? sizing.queryTokens()
            : 0;
    this.attentionTilesTokens = sizing.attentionTilesTokens();
    this.queryNormsMaxK = hidden == EncoderKernels.QUERY_NORM_WIDTH ? sizing.queryNormsMaxK() : 0;
    // What is made before a failure is closed here: nobody else holds it.
    List<AutoCloseable> closeOnFailure = new ArrayList<>();
    try {
      EncoderKernels.loadAll(stream.device()); // module loading must stay out of captures
      tables =
          new EncoderKernels.Tables(
              upload(weights.wordEmbeddings),
              upload(weights.positionEmbeddings),
              upload(weights.typeEmbeddings),
              upload(weights.embeddingNorm.gamma()),
              upload(weights.embeddingNorm.beta()),
              a.layerNormEpsilon());
      List<EncoderWeights.Layer> ls = weights.layers;
      Stacked<?> qkv = stackedWeight(ls, l -> sideBySide(l.query(), l.key(), l.value()));
      Stacked<Float> qkvBias =
          stacked(ls, l -> concatenated(l.query().bias(), l.key().bias(), l.value().bias()));
      // In the products' input type, for a Q | K | V product that writes it (fp16 in FP16 mode).
      Stacked<?> qkvBiasInput =
          stackedWeight(ls, l -> concatenated(l.query().bias(), l.key().bias(), l.value().bias()));
      Stacked<?> attentionOutput = stackedWeight(ls, l -> l.attentionOutput().weight());
      Stacked<Float> attentionOutputBias = stacked(ls, l -> l.attentionOutput().bias());
      Stacked<Float> attentionGamma = stacked(ls, l -> l.attentionNorm().gamma());
      Stacked<Float> attentionBeta = stacked(ls, l -> l.attentionNorm().beta());
      Stacked<?> intermediate = stackedWeight(ls, l -> l.intermediate().weight());
      // The up product's epilogue adds a bias of its output's type: fp16 in FP16 mode.
      Stacked<?> intermediateBias = stackedWeight(ls, l -> l.intermediate().bias());
      Stacked<?> output = stackedWeight(ls, l -> l.output().weight());
      Stacked<Float> outputBias = stacked(ls, l -> l.output().bias());
      Stacked<Float> outputGamma = stacked(ls, l -> l.outputNorm().gamma());
      Stacked<Float> outputBeta = stacked(ls, l -> l.outputNorm().beta());
      for (int n = 0; n < ls.size(); n++) {
        layers.add(
            new Layer(
                qkv.layer(n),
                qkvBias.layer(n),
                qkvBiasInput.layer(n),
                attentionOutput.layer(n),
                attentionOutputBias.layer(n),
                attentionGamma.layer(n),
                attentionBeta.layer(n),
                intermediate.layer(n),
                intermediateBias.layer(n),
                output.layer(n),
                outputBias.layer(n),
                outputGamma.layer(n),
                outputBeta.layer(n)));
      }
      int tokens = maxBatch * maxLength;
      inputs = zeros(ElementType.I32, 3L * tokens);
      pooled = zeros(ElementType.F32, maxBatch + (long) maxBatch * hidden);
      queryBatch = Math.min(maxBatch, queryTokens);
      if (queryTokens > 0) {
        queryIn = stream.device().allocateMapped(ElementType.I32, 3L * queryTokens);
        closeOnFailure.add(queryIn);
        queryOut =
            stream
                .device()
                .allocateMapped(ElementType.F32, queryBatch + (long) queryBatch * hidden);
        closeOnFailure.add(queryOut);
      } else {
        queryIn = null;
        queryOut = null;
      }
      Blas openedBlas = Blas.open(stream.device());
      closeOnFailure.add(openedBlas);
      blas = openedBlas;
      Workspace allocated = Workspace.allocate(blas.workspaceLimit()).syncOn(stream);
      closeOnFailure.add(allocated);
      workspace = allocated;
      graphs =
          GraphCache.create(
              stream,
              GraphCache.Settings.budget(
                  sizing.graphMemoryBudget() > 0
                      ? sizing.graphMemoryBudget()
                      : temporaryBytes(a, tokens, precision)),
              (Shape shape, Scope scope) ->
                  record(
                      shape,
                      new Recorder() {
                        @Override
                        public <T> DeviceBuffer<T> temporary(ElementType<T> type, long length) {
                          return scope.temporary(type, length);
                        }

                        @Override
                        public void record(GraphNode<?> node) {
                          scope.record(node);
                        }
                      }));
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

  /**
   * {@return the weights of {@code q}, {@code k} and {@code v} ({@code [in, out]} each) side by
   * side}
   */
  private static float[] sideBySide(EncoderWeights.Linear... linears) {
    int in = linears[0].in();
    int width = 0;
    for (EncoderWeights.Linear l : linears) {
      width += l.out();
    }
    float[] w = new float[in * width];
    for (int row = 0; row < in; row++) {
      int at = row * width;
      for (EncoderWeights.Linear l : linears) {
        System.arraycopy(l.weight(), row * l.out(), w, at, l.out());
        at += l.out();
      }
    }
    return w;
  }

  private static float[] concatenated(float[]... parts) {
    int length = 0;
    for (float[] p : parts) {
      length += p.length;
    }
    float[] all = new float[length];
    int at = 0;
    for (float[] p : parts) {
      System.arraycopy(p, 0, all, at, p.length);
      at += p.length;
    }
    return all;
  }

  /**
   * One kind of weight of every layer in one buffer, layer {@code l}'s {@code size} elements at
   * {@code l * stride}.
   */
  private record Stacked<T>(DeviceBuffer<T> buffer, int size, int stride) {
    DeviceBuffer<T> layer(int l) {
      return buffer.slice((long) l * stride, size);
    }
  }

  /**
   * A layer's slice starts at a multiple of this many elements, 16 bytes at least: cuBLASLt's bias
   * epilogues refuse a bias off 16-byte alignment.
   */
  private static final int STACK_ALIGNMENT = 8;

  /** {@return one part of every layer, stacked, uploaded as fp32} */
  private Stacked<Float> stacked(
      List<EncoderWeights.Layer> layers, Function<EncoderWeights.Layer, float[]> part) {
    List<float[]> parts = layers.stream().map(part).toList();
    int size = parts.getFirst().length, stride = alignedStride(size);
    return new Stacked<>(upload(stackedArray(parts, stride)), size, stride);
  }

  /** {@return one part of every layer, stacked, uploaded in the products' input type} */
  private Stacked<?> stackedWeight(
      List<EncoderWeights.Layer> layers, Function<EncoderWeights.Layer, float[]> part) {
    List<float[]> parts = layers.stream().map(part).toList();
    int size = parts.getFirst().length, stride = alignedStride(size);
    return new Stacked<>(uploadWeight(stackedArray(parts, stride)), size, stride);
  }

  private static int alignedStride(int size) {
    return (size + STACK_ALIGNMENT - 1) / STACK_ALIGNMENT * STACK_ALIGNMENT;
  }

  private static float[] stackedArray(List<float[]> parts, int stride) {
    float[] all = new float[Math.multiplyExact(parts.size(), stride)];
    for (int l = 0; l < parts.size(); l++) {
      System.arraycopy(parts.get(l), 0, all, l * stride, parts.get(l).length);
    }
    return all;
  }

  private DeviceBuffer<Float> upload(float[] data) {
    DeviceBuffer<Float> b = DeviceBuffer.fromArray(data).syncOn(stream);
    owned.add(b);
    return b;
  }

  /** {@return {@code data} on the device in the products' input type: fp32, or fp16 rounded} */
  private DeviceBuffer<?> uploadWeight(float[] data) {
    if (precision == Precision.FP32) {
      return upload(data);
    }
    short[] half = new short[data.length];
    for (int i = 0; i < data.length; i++) {
      half[i] = Float.floatToFloat16(data[i]);
    }
    DeviceBuffer<Short> b = DeviceBuffer.fromArray(ElementType.F16, half).syncOn(stream);
    owned.add(b);
    return b;
  }

  private <T> DeviceBuffer<T> zeros(ElementType<T> type, long n) {
    DeviceBuffer<T> b = DeviceBuffer.zeros(type, n).syncOn(stream);
    owned.add(b);
    return b;
  }

  /** {@return {@code chosen} if it holds {@code max}, {@code defaults} if none was chosen} */
  private static Buckets covering(
      @Nullable Buckets chosen, Buckets defaults, int max, String what) {
    if (chosen == null) {
      return defaults;
    }
    if (chosen.largest() < max) {
      throw new IllegalArgumentException(
          "Embedder.open: the "
              + what
              + " buckets end at "
              + chosen.largest()
              + ", below the largest "
              + what
              + " the embedder makes, "
              + max
              + "; add a bucket of "
              + max
              + (what.equals("batch") ? " or lower maxBatch" : ""));
    }
    return chosen;
  }

  /**
   * {@return the sizes of {@code first} up to {@code max}, then every multiple of {@code step} up
   * to it, and {@code max} itself}: 1, 2, 4, 8, 16, 24, ... for batches (vLLM's list), 16, 32, 64,
   * 128, 256, ... for lengths
   *
   * @param first the smallest sizes
   * @param step the spacing of the sizes after them
   * @param max the largest size
   */
  public static Buckets buckets(int[] first, int step, int max) {
    java.util.TreeSet<Integer> sizes = new java.util.TreeSet<>();
    for (int size : first) {
      if (size < max) {
        sizes.add(size);
      }
    }
    for (int size = step; size < max; size += step) {
      sizes.add(size);
    }
    sizes.add(max);
    return new Buckets(List.copyOf(sizes));
  }

  /**
   * {@return the default token lengths, up to {@code maxLength}}: 16, then every multiple of 8 to
   * 128, then of 64. Sorted batches of texts pad to within 8 tokens of their longest, which is most
   * of an ingestion's texts (measured on an H100: 16, 32, 64, 128, ... padded 1.44 tokens a real
   * one and the GPU spent that much longer); the extra graphs are captured only when used.
   *
   * @param maxLength the longest run the encoder takes
   */
  public static Buckets defaultLengthBuckets(int maxLength) {
    java.util.TreeSet<Integer> sizes = new java.util.TreeSet<>();
    for (int size = 16; size < maxLength; size += size < 128 ? 8 : 64) {
      sizes.add(size);
    }
    sizes.add(maxLength);
    return new Buckets(List.copyOf(sizes));
  }

  /**
   * {@return the shape a batch of {@code size} texts of up to {@code length} tokens runs in}
   *
   * @param size the texts' runs
   * @param length the longest run's tokens
   */
  public Shape shapeFor(int size, int length) {
    return new Shape(batchBuckets.cover(size).size(), lengthBuckets.cover(length).size());
  }

  /**
   * {@return the longest run of tokens {@code tokenizer} makes for a model of {@code
   * architecture}}: its truncation, at most the model's positions
   *
   * @param architecture the model's architecture
   * @param tokenizer the model's tokenizer
   */
  public static int maxLength(Architecture architecture, BertTokenizer tokenizer) {
    int truncation = tokenizer.maxLength();
    return truncation > 0
        ? Math.min(truncation, architecture.positions())
        : architecture.positions();
  }

  /**
   * {@return the bytes of a graph's temporaries for {@code tokens} tokens}: at most, since a shape
   * whose attention runs on the tensor cores holds its {@code Q | K | V} rows in fp16, not fp32
   *
   * @param architecture the model's architecture
   * @param tokens the tokens of the shape (batch times length)
   * @param precision the products' arithmetic
   */
  public static long temporaryBytes(Architecture architecture, long tokens, Precision precision) {
    long h = architecture.hidden(), ffn = architecture.intermediate();
    return switch (precision) {
      // x, qkv, context, the feed-forward activations
      case FP32 -> tokens * (h + 3 * h + h + ffn) * Float.BYTES;
      // x and qkv fp32; x's fp16 copy, context and the feed-forward activations fp16
      case FP16 -> tokens * ((h + 3 * h) * Float.BYTES + (h + h + ffn) * Short.BYTES);
    };
  }

  /**
   * Records the forward pass of {@code shape} into {@code scope}. In {@link Precision#FP16} the
   * LayerNorms also write their rows as fp16 ({@code xHalf}), attention writes fp16, and the up
   * projection writes its GELU'd activations as fp16: the inputs of the products; the products
   * write fp32 (QKV, and the two that add to the residual stream {@code x}).
   */
  private void record(Shape shape, Recorder into) {
    Counting scope = new Counting(into);
    recordShape(shape, scope);
    nodesPerGraph = scope.nodes;
    matmulNodesPerGraph = scope.matmuls;
  }

  /** A recorder that counts what it passes on and makes matmul nodes of products. */
  private final class Counting implements Recorder {
    private final Recorder into;
    public int nodes, matmuls;

    public Counting(Recorder into) {
      this.into = into;
    }

    @Override
    public <T> DeviceBuffer<T> temporary(ElementType<T> type, long length) {
      return into.temporary(type, length);
    }

    @Override
    public void record(GraphNode<?> node) {
      nodes++;
      into.record(node);
    }

    /** Records {@code matmul} as one node. */
    public void recordMatmul(Matmul matmul) {
      matmuls++;
      record(blas.matmul(matmul, workspace));
    }
  }

  private void recordShape(Shape shape, Counting scope) {
    int batch = shape.batch(), length = shape.length();
    int ffn = architecture.intermediate();
    int heads = architecture.heads(), headSize = architecture.headSize();
    float epsilon = architecture.layerNormEpsilon();
    int tokens = batch * length;
    boolean half = precision == Precision.FP16;
    ElementType<?> inputType = half ? ElementType.F16 : ElementType.F32;
    DeviceBuffer<Float> x = scope.temporary(ElementType.F32, (long) tokens * hidden);
    @Nullable DeviceBuffer<Short> xHalf =
        half ? scope.temporary(ElementType.F16, (long) tokens * hidden) : null;
    // Q | K | V in fp16 where the attention on the tensor cores reads it (it rounds its rows to
    // fp16 anyway); the query path's products write fp32.
    boolean halfQkv = half && !onQueryPath(shape) && attentionTiles(batch, length);
    ElementType<?> qkvType = halfQkv ? ElementType.F16 : ElementType.F32;
    DeviceBuffer<?> qkv = scope.temporary(qkvType, (long) tokens * 3 * hidden);
    DeviceBuffer<?> context = scope.temporary(inputType, (long) tokens * hidden);
    DeviceBuffer<?> inner = scope.temporary(inputType, (long) tokens * ffn);
    DeviceBuffer<Integer> maskPrefix = inputs.slice(2L * tokens, tokens);
    MatrixView xView = MatrixView.rowMajor(x, tokens, hidden);
    MatrixView xInput = half ? MatrixView.rowMajor(xHalf, tokens, hidden) : xView;
    MatrixView qkvView = MatrixView.rowMajor(qkv, tokens, 3 * hidden);
    @Nullable DeviceBuffer<Float> qkvFloats = halfQkv ? null : as(qkv, ElementType.F32);
    MatrixView contextView = MatrixView.rowMajor(context, tokens, hidden);
    MatrixView innerView = MatrixView.rowMajor(inner, tokens, ffn);

    DeviceBuffer<Integer> idsPrefix = inputs.slice(0, tokens);
    DeviceBuffer<Integer> typesPrefix = inputs.slice(tokens, tokens);
    if (xHalf != null && onQueryPath(shape)) {
      recordQuery(
          shape,
          scope,
          x,
          xHalf,
          as(qkv, ElementType.F32),
          as(context, ElementType.F16),
          as(inner, ElementType.F16));
      return;
    }
    scope.record(
        half
            ? EncoderKernels.embedLayerNormHalf(
                idsPrefix, typesPrefix, tables, x, xHalf, batch, length, false)
            : EncoderKernels.embedLayerNorm(idsPrefix, typesPrefix, tables, x, batch, length));
    for (Layer l : layers) {
      scope.recordMatmul(
          (Matmul.of(xInput, MatrixView.rowMajor(l.qkv(), hidden, 3 * hidden), qkvView)
              .withEpilogue(Epilogue.BIAS, halfQkv ? l.qkvBiasInput() : l.qkvBias())));
      if (halfQkv) {
        scope.record(
            EncoderKernels.attentionHalfTilesHalfQkv(
                as(qkv, ElementType.F16),
                maskPrefix,
                as(context, ElementType.F16),
                batch,
                length,
                heads,
                headSize,
                false));
      } else {
        DeviceBuffer<Float> rows = java.util.Objects.requireNonNull(qkvFloats);
        scope.record(
            half
                ? halfAttention(
                    rows, maskPrefix, as(context, ElementType.F16), batch, length, false)
                : EncoderKernels.attention(
                    rows,
                    maskPrefix,
                    as(context, ElementType.F32),
                    batch,
                    length,
                    heads,
                    headSize));
      }
      scope.recordMatmul(
          (Matmul.of(contextView, MatrixView.rowMajor(l.attentionOutput(), hidden, hidden), xView)
              .accumulating(1f)
              .withEpilogue(Epilogue.BIAS, l.attentionOutputBias())));
      scope.record(normalize(x, xHalf, l.attentionGamma(), l.attentionBeta(), tokens, epsilon));
      Matmul up = Matmul.of(xInput, MatrixView.rowMajor(l.intermediate(), hidden, ffn), innerView);
      if (gelu == Gelu.EXACT_KERNEL) {
        scope.recordMatmul(up.withEpilogue(Epilogue.BIAS, l.intermediateBias()));
        scope.record(EncoderKernels.gelu(as(inner, ElementType.F32), (long) tokens * ffn));
      } else {
        scope.recordMatmul(up.withEpilogue(Epilogue.BIAS_GELU, l.intermediateBias()));
      }
      scope.recordMatmul(
          (Matmul.of(innerView, MatrixView.rowMajor(l.output(), ffn, hidden), xView)
              .accumulating(1f)
              .withEpilogue(Epilogue.BIAS, l.outputBias())));
      scope.record(normalize(x, xHalf, l.outputGamma(), l.outputBeta(), tokens, epsilon));
    }
    scope.record(
        EncoderKernels.poolNormalize(
            x,
            maskPrefix,
            pooled.slice(maxBatch, (long) batch * hidden),
            pooled.slice(0, batch),
            batch,
            length,
            hidden,
            pooling,
            false));
  }

  /**
   * Records x = LayerNorm(x + a W + bias), and x rounded to fp16 into xHalf, on the query path: one
   * node where the hidden width allows ({@link EncoderKernels#queryLinearResidualNorm}), else the
   * product and the LayerNorm.
   */
  private void recordResidualNorm(
      Counting scope,
      DeviceBuffer<Short> a,
      DeviceBuffer<Short> w,
      DeviceBuffer<Float> bias,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      DeviceBuffer<Float> x,
      DeviceBuffer<Short> xHalf,
      int tokens,
      int k) {
    float epsilon = architecture.layerNormEpsilon();
    if (k <= queryNormsMaxK && EncoderKernels.queryNormBytes(k) <= sharedMemoryOptIn) {
      scope.record(
          EncoderKernels.queryLinearResidualNorm(
              a, w, bias, x, gamma, beta, x, xHalf, tokens, k, epsilon));
    } else {
      scope.record(EncoderKernels.queryLinearResidual(a, w, bias, x, x, tokens, hidden, k));
      scope.record(EncoderKernels.layerNormHalf(x, gamma, beta, x, xHalf, tokens, epsilon, true));
    }
  }

  /**
   * Records a small fp16 shape on the query path: the encoder's own kernels only, every one after
   * the first a programmatic dependent launch. The products copy their slice of the weights into
   * shared memory before they wait for the kernel before them, so the weights' reads overlap that
   * kernel and each node's own time is its activations' reads, its few tensor-core steps and its
   * writes. Its GELU is the exact form (the cuBLASLt path's fp16 epilogue is the tanh form).
   */
  private void recordQuery(
      Shape shape,
      Counting scope,
      DeviceBuffer<Float> x,
      DeviceBuffer<Short> xHalf,
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Short> context,
      DeviceBuffer<Short> inner) {
    int batch = shape.batch(), length = shape.length(), tokens = batch * length;
    int ffn = architecture.intermediate();
    DeviceBuffer<Integer> maskPrefix = inputs.slice(2L * tokens, tokens);
    MappedHostBuffer<Integer> in = java.util.Objects.requireNonNull(queryIn);
    MappedHostBuffer<Float> out = java.util.Objects.requireNonNull(queryOut);
    scope.record(inputs.slice(0, 3L * tokens).copyFrom(in.deviceView().slice(0, 3L * tokens)));
    // The embeddings kernel follows a copy, not a kernel: a plain launch.
    scope.record(
        EncoderKernels.embedLayerNormHalf(
            inputs.slice(0, tokens),
            inputs.slice(tokens, tokens),
            tables,
            x,
            xHalf,
            batch,
            length,
            false));
    for (Layer l : layers) {
      scope.record(
          EncoderKernels.queryLinearBias(
              xHalf, as(l.qkv(), ElementType.F16), l.qkvBias(), qkv, tokens, 3 * hidden, hidden));
      scope.record(halfAttention(qkv, maskPrefix, context, batch, length, true));
      recordResidualNorm(
          scope,
          context,
          as(l.attentionOutput(), ElementType.F16),
          l.attentionOutputBias(),
          l.attentionGamma(),
          l.attentionBeta(),
          x,
          xHalf,
          tokens,
          hidden);
      scope.record(
          EncoderKernels.queryLinearGeluHalf(
              xHalf,
              as(l.intermediate(), ElementType.F16),
              as(l.intermediateBias(), ElementType.F16),
              inner,
              tokens,
              ffn,
              hidden));
      recordResidualNorm(
          scope,
          inner,
          as(l.output(), ElementType.F16),
          l.outputBias(),
          l.outputGamma(),
          l.outputBeta(),
          x,
          xHalf,
          tokens,
          ffn);
    }
    scope.record(
        EncoderKernels.poolNormalize(
            x,
            maskPrefix,
            out.deviceView().slice(queryBatch, (long) batch * hidden),
            out.deviceView().slice(0, batch),
            batch,
            length,
            hidden,
            pooling,
            true));
  }

  /**
   * The fp16 attention of a shape over fp32 {@code Q | K | V} rows: on the tensor cores where
   * {@link #attentionTiles} says; otherwise one query a warp for short shapes ({@link
   * #shortAttention}), four for the rest.
   */
  private GraphNode<@Nullable Void> halfAttention(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> context,
      int batch,
      int length,
      boolean programmatic) {
    int heads = architecture.heads(), headSize = architecture.headSize();
    if (attentionTiles(batch, length)) {
      return EncoderKernels.attentionHalfTiles(
          qkv, mask, context, batch, length, heads, headSize, programmatic);
    }
    return shortAttention(batch, length)
        ? EncoderKernels.attentionHalfShort(
            qkv, mask, context, batch, length, heads, headSize, programmatic)
        : EncoderKernels.attentionHalf(
            qkv, mask, context, batch, length, heads, headSize, programmatic);
  }

  /**
   * Where {@link #record} puts a shape's work: a graph's {@link Scope}, or a list of nodes the
   * eager path runs on the stream one after another.
   */
  private interface Recorder {
    <T> DeviceBuffer<T> temporary(ElementType<T> type, long length);

    void record(GraphNode<?> node);
  }

  /**
   * {@return the nodes of a shape's work, the last time one was recorded}: kernels and matmul nodes
   * (a matmul node holds the kernels cuBLASLt chose for it), not counting the temporaries'
   * allocation and free nodes; 0 before the first
   */
  public int nodesPerGraph() {
    return nodesPerGraph;
  }

  /** {@return how many of {@link #nodesPerGraph} are matmul nodes} */
  public int matmulNodesPerGraph() {
    return matmulNodesPerGraph;
  }

  /**
   * {@return the work of {@code shape} as one op that launches its nodes on the stream one by one,
   * no graph}, recorded anew for each run (an op runs once); its activations are buffers of the
   * shape's own, allocated on first use and kept until close
   */
  private GraphNode<@Nullable Void> eagerWork(Shape shape) {
    List<DeviceBuffer<?>> buffers = eagerBuffers.computeIfAbsent(shape, s -> new ArrayList<>());
    List<GraphNode<?>> nodes = new ArrayList<>();
    int[] next = {0};
    record(
        shape,
        new Recorder() {
          @Override
          public @SuppressWarnings("unchecked") <T> DeviceBuffer<T> temporary(
              ElementType<T> type, long length) {
            if (next[0] == buffers.size()) {
              buffers.add(zeros(type, length));
            }
            return (DeviceBuffer<T>) buffers.get(next[0]++);
          }

          @Override
          public void record(GraphNode<?> node) {
            nodes.add(node);
          }
        });
    return GraphNode.sequence(nodes);
  }

  /** x = LayerNorm(x) in place, and its fp16 copy into {@code xHalf} where there is one. */
  private static GraphNode<@Nullable Void> normalize(
      DeviceBuffer<Float> x,
      @Nullable DeviceBuffer<Short> xHalf,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      int tokens,
      float epsilon) {
    return xHalf == null
        ? EncoderKernels.layerNorm(x, gamma, beta, x, tokens, epsilon)
        : EncoderKernels.layerNormHalf(x, gamma, beta, x, xHalf, tokens, epsilon, false);
  }

  /** {@return {@code buffer} as a buffer of {@code type}, which it holds} */
  @SuppressWarnings("unchecked")
  private static <T> DeviceBuffer<T> as(DeviceBuffer<?> buffer, ElementType<T> type) {
    if (buffer.elementType() != type) {
      throw new IllegalStateException(
          "GpuEncoder: a buffer of " + buffer.elementType() + " where " + type + " was meant");
    }
    return (DeviceBuffer<T>) buffer;
  }

  /**
   * {@return the L2-normalised embedding of each text, in order}: the texts are tokenized as
   * LangChain4j tokenizes them and padded to the smallest batch and length buckets that hold them
   * ({@link #shapeFor}; padding takes no part in attention or pooling), and the graph of that shape
   * is replayed (captured first if it is new)
   *
   * @param texts 1 to {@code maxBatch} texts, each made of runs of at most {@code maxLength} tokens
   * @throws NullPointerException if the list or a text is null (the message names its index)
   * @throws IllegalArgumentException if there are no texts or too many, or a text is one {@link
   *     BertTokenizer#parts} refuses (an unpaired surrogate, no word pieces) or has a run longer
   *     than {@code maxLength} tokens; the message names the first such text's index
   */
  public float[][] embed(List<@Nullable String> texts) {
    return run(prepare(tokenizeAll(texts, "GpuEncoder.embed")), true);
  }

  /**
   * {@return the runs of word pieces the tokenizer makes of {@code text}} (one, unless the
   * tokenizer keeps more tokens than a run holds), the way {@link #embed} tokenizes it; callers
   * tokenize on their own threads and pass the runs to {@link #embedParts}
   *
   * @param text the text
   * @param call the caller's call, which a refusal's message begins with
   * @param what the text in a refusal's message: "the text", or "text 3 of 9" in a list
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if {@link BertTokenizer#parts} refuses the text, or a run is
   *     longer than {@code maxLength} tokens
   */
  public List<BertTokenizer.Part> tokenize(@Nullable String text, String call, String what) {
    List<BertTokenizer.Part> parts = tokenizer.parts(text, call, what);
    for (BertTokenizer.Part part : parts) {
      if (part.ids().length > maxLength) {
        // Refused here, on the caller's thread, so that it fails no batch it would have joined.
        throw new IllegalArgumentException(
            call
                + ": "
                + what
                + (parts.size() == 1 ? " is " : " has a run of ")
                + part.ids().length
                + " tokens; this encoder takes up to "
                + maxLength
                + " (maxLength); make it with a larger maxLength, up to the model's "
                + architecture.positions()
                + " positions");
      }
    }
    return parts;
  }

  /** {@return the parts of 1 to maxBatch texts}, refusals naming {@code call} and the index */
  private List<List<BertTokenizer.Part>> tokenizeAll(List<@Nullable String> texts, String call) {
    if (texts == null) {
      throw new NullPointerException(
          call + ": the list of texts is null; pass 1 to " + maxBatch + " texts");
    }
    checkCount(texts.size());
    List<List<BertTokenizer.Part>> parts = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      parts.add(tokenize(texts.get(i), call, "text " + i + " of " + texts.size()));
    }
    return parts;
  }

  private void checkCount(int count) {
    if (count == 0 || count > maxBatch) {
      throw new IllegalArgumentException(
          "GpuEncoder.embed: "
              + count
              + " texts; this encoder embeds 1 to "
              + maxBatch
              + " at a time (maxBatch); split the list");
    }
  }

  /**
   * {@return the embedding of each text, in order}, as {@link #embed}, for texts {@link #tokenize}
   * has tokenized
   *
   * @param texts 1 to {@code maxBatch} texts, each its runs
   */
  public float[][] embedParts(List<List<BertTokenizer.Part>> texts) {
    return run(prepare(texts), true);
  }

  /**
   * {@return the embedding of each text, in order}, as {@link #embed}, without graphs: the same
   * nodes launched on the stream one after another, the way a program without graphs runs them (the
   * anchor of a graph's gain). Its activations are buffers of each shape's own, allocated on first
   * use and kept until close.
   *
   * @param texts 1 to {@code maxBatch} texts
   */
  public float[][] embedEagerly(List<@Nullable String> texts) {
    return run(prepare(tokenizeAll(texts, "GpuEncoder.embedEagerly")), false);
  }

  /**
   * The host side of a batch of texts made ready: the runs' token ids, types and mask padded to
   * their shapes, so that the thread that runs graphs only copies them in. Made by {@link
   * #prepare}, used by {@link #embedPrepared}; immutable once made.
   */
  public static final class Prepared {
    private final List<List<BertTokenizer.Part>> texts;
    private final int runs;
    private final List<Padded> batches;

    private Prepared(List<List<BertTokenizer.Part>> texts, int runs, List<Padded> batches) {
      this.texts = texts;
      this.runs = runs;
      this.batches = batches;
    }

    /** {@return how many texts} */
    public int texts() {
      return texts.size();
    }

    /** {@return the tokens of the graphs' padded shapes, padding included} */
    public long paddedTokens() {
      long sum = 0;
      for (Padded b : batches) {
        sum += (long) b.shape().batch() * b.shape().length();
      }
      return sum;
    }
  }

  /**
   * One graph's run: its shape, its sequences, their ids, types and mask side by side, and where
   * sequence {@code i}'s outputs go ({@code i} itself where {@code slots} is null).
   */
  private record Padded(Shape shape, int size, int[] in, @Nullable List<Integer> slots) {}

  /**
   * {@return {@code texts} made ready for {@link #embedPrepared}}: their runs padded to the shapes
   * their graphs run in. Pure host work that touches no device state, so it may run on any thread,
   * at once with a batch running on another.
   *
   * @param texts 1 to {@code maxBatch} texts, each its runs, as {@link #tokenize} makes them
   * @throws IllegalArgumentException if there are no texts or too many, a text has no runs, or a
   *     run is longer than {@code maxLength}
   */
  public Prepared prepare(List<List<BertTokenizer.Part>> texts) {
    checkCount(texts.size());
    List<BertTokenizer.Part> runs = new ArrayList<>();
    for (List<BertTokenizer.Part> text : texts) {
      if (text.isEmpty()) {
        throw new IllegalArgumentException(
            "GpuEncoder.embed: a text of no runs; tokenize texts with GpuEncoder.tokenize");
      }
      runs.addAll(text);
    }
    List<Padded> batches = new ArrayList<>();
    if (runs.size() <= maxBatch) {
      batches.add(padded(runs, null));
    } else {
      // Batches of runs of like lengths, so that few pad to a long run.
      List<Integer> order = new ArrayList<>();
      for (int r = 0; r < runs.size(); r++) {
        order.add(r);
      }
      order.sort(Comparator.comparingInt(r -> runs.get(r).ids().length));
      for (int from = 0; from < order.size(); from += maxBatch) {
        List<Integer> slots =
            List.copyOf(order.subList(from, Math.min(order.size(), from + maxBatch)));
        batches.add(padded(slots.stream().map(runs::get).toList(), slots));
      }
    }
    return new Prepared(List.copyOf(texts), runs.size(), List.copyOf(batches));
  }

  /** {@return 1 to maxBatch runs padded to their shape}, ids, then types, then mask */
  private Padded padded(List<BertTokenizer.Part> parts, @Nullable List<Integer> slots) {
    int length = 0;
    for (BertTokenizer.Part p : parts) {
      length = Math.max(length, p.ids().length);
    }
    if (length > maxLength) {
      throw new IllegalArgumentException(
          "GpuEncoder.embed: a run of "
              + length
              + " tokens; this encoder takes up to "
              + maxLength
              + " (maxLength); make it with a larger maxLength");
    }
    int size = parts.size();
    Shape shape = shapeFor(size, length);
    // Padding rows and positions are id 0, type 0 and mask 0.
    int padded = shape.length(), tokens = shape.batch() * padded;
    int[] in = new int[3 * tokens];
    for (int b = 0; b < size; b++) {
      BertTokenizer.Part p = parts.get(b);
      int n = p.ids().length;
      System.arraycopy(p.ids(), 0, in, b * padded, n);
      System.arraycopy(p.typeIds(), 0, in, tokens + b * padded, n);
      java.util.Arrays.fill(in, 2 * tokens + b * padded, 2 * tokens + b * padded + n, 1);
    }
    return new Padded(shape, size, in, slots);
  }

  /**
   * {@return the embedding of each text {@code prepared} holds, in order}, as {@link #embedParts}
   * (not thread-safe, as every run of a graph)
   *
   * @param prepared texts {@link #prepare} made ready, on any thread
   */
  public float[][] embedPrepared(Prepared prepared) {
    return run(prepared, true);
  }

  /**
   * {@return the nanoseconds this encoder's runs have waited on the stream so far}: the inputs'
   * copy, the graph and the outputs' copy back, from their enqueueing to the host seeing the result
   * (read by the thread that runs batches, between them)
   */
  public long streamWaitNanos() {
    return streamWaitNanos;
  }

  /** Each text's embedding: its one run's unit vector, or its runs combined (class comment). */
  private float[][] run(Prepared prepared, boolean graphed) {
    float[][] units = new float[prepared.runs][];
    float[] norms = new float[prepared.runs];
    for (Padded batch : prepared.batches) {
      runBatch(batch, graphed, units, norms);
    }
    List<List<BertTokenizer.Part>> texts = prepared.texts;
    float[][] embeddings = new float[texts.size()][];
    int at = 0;
    for (int t = 0; t < texts.size(); t++) {
      List<BertTokenizer.Part> text = texts.get(t);
      if (text.size() == 1) {
        embeddings[t] = units[at];
      } else {
        float[][] pooledRuns = new float[text.size()][];
        int[] weights = new int[text.size()];
        for (int r = 0; r < text.size(); r++) {
          pooledRuns[r] = new float[hidden];
          for (int h = 0; h < hidden; h++) {
            pooledRuns[r][h] = (float) ((double) units[at + r][h] * norms[at + r]);
          }
          weights[r] = text.get(r).weight();
        }
        embeddings[t] =
            ReferenceEncoder.normalized(ReferenceEncoder.weightedAverage(pooledRuns, weights));
      }
      at += text.size();
    }
    return embeddings;
  }

  /**
   * Runs one prepared batch of 1 to maxBatch sequences in its graph (or eagerly), putting sequence
   * {@code i}'s unit vector and norm at its slot of {@code units} and {@code norms}.
   */
  private void runBatch(Padded batch, boolean graphed, float[][] units, float[] norms) {
    Shape shape = batch.shape();
    int size = batch.size();
    DeviceOp<?> work = graphed && !overBudget.contains(shape) ? launch(shape) : eagerWork(shape);
    long started = System.nanoTime();
    float[] flat;
    int unitsAt;
    if (onQueryPath(shape)) {
      // In and out through mapped memory: the graph copies the inputs in and writes the rows out.
      writeQueryInputs(batch.in());
      work.syncOn(stream);
      flat = readQueryOutputs(size);
      unitsAt = queryBatch;
    } else {
      // The norms of the shape's sequences, then (from maxBatch) their unit vectors.
      flat =
          inputs
              .slice(0, batch.in().length)
              .write(batch.in())
              .andThen(work)
              .andThen(pooled.slice(0, maxBatch + (long) size * hidden).toFloatArray())
              .syncOn(stream);
      unitsAt = maxBatch;
    }
    streamWaitNanos += System.nanoTime() - started;
    List<Integer> slots = batch.slots();
    for (int b = 0; b < size; b++) {
      int slot = slots == null ? b : slots.get(b);
      units[slot] =
          java.util.Arrays.copyOfRange(flat, unitsAt + b * hidden, unitsAt + (b + 1) * hidden);
      norms[slot] = flat[b];
    }
  }

  /**
   * {@return whether an fp16 shape's attention runs on the tensor cores}: from the sizing's tokens,
   * where the kernel takes the length and head and the device the shared memory it asks
   */
  private boolean attentionTiles(int batch, int length) {
    int headSize = architecture.headSize();
    return (long) batch * length >= attentionTilesTokens
        && EncoderKernels.attentionTilesTake(length, headSize)
        && EncoderKernels.attentionTilesBytes(length, headSize) <= sharedMemoryOptIn;
  }

  /** {@return whether a shape runs on the query path} */
  private boolean onQueryPath(Shape shape) {
    return precision == Precision.FP16 && (long) shape.batch() * shape.length() <= queryTokens;
  }

  /** Writes a query shape's ids, types and mask where its graph's first node copies them from. */
  private void writeQueryInputs(int[] in) {
    MemorySegment.copy(
        in,
        0,
        java.util.Objects.requireNonNull(queryIn).segment(),
        ValueLayout.JAVA_INT,
        0,
        in.length);
  }

  /**
   * {@return the first {@code size} norms and, from {@link #queryBatch}, unit vectors a query
   * shape's graph wrote, once its stream is done}
   */
  private float[] readQueryOutputs(int size) {
    float[] flat = new float[queryBatch + size * hidden];
    MemorySegment.copy(
        java.util.Objects.requireNonNull(queryOut).segment(),
        ValueLayout.JAVA_FLOAT,
        0,
        flat,
        0,
        flat.length);
    return flat;
  }

  /**
   * For measurement tools (the tests' QueryBreakdown): runs the runs of {@code parts} (1 to
   * maxBatch, of up to maxLength tokens) as {@link #embedParts} does, in its graph, but waiting for
   * each step before the next, and returns each step's nanoseconds as the host sees it: the copy of
   * the token ids in, the graph's replay, the copy of the pooled rows out (each including one wait
   * for the stream; {@link #embedParts} waits once for the three; on the query path the copies are
   * the host's writes to and reads of mapped memory, no wait, and the replay holds the copy in),
   * then the replay as the GPU sees it, between events {@code start} and {@code end} recorded
   * around it.
   */
  long[] stepNanos(
      List<BertTokenizer.Part> parts, cuda.graph.CudaEvent start, cuda.graph.CudaEvent end) {
    Padded batch = padded(parts, null);
    Shape shape = batch.shape();
    int[] in = batch.in();
    boolean query = onQueryPath(shape);
    long began = System.nanoTime();
    if (query) {
      writeQueryInputs(in);
    } else {
      inputs.slice(0, in.length).write(in).syncOn(stream);
    }
    long copiedIn = System.nanoTime();
    start.record().andThen(launch(shape)).andThen(end.record()).syncOn(stream);
    long replayed = System.nanoTime();
    if (query) {
      readQueryOutputs(batch.size());
    } else {
      pooled.slice(0, maxBatch + (long) batch.size() * hidden).toFloatArray().syncOn(stream);
    }
    long copiedOut = System.nanoTime();
    return new long[] {
      copiedIn - began,
      replayed - copiedIn,
      copiedOut - replayed,
      Math.round(end.elapsedMillisSince(start) * 1e6)
    };
  }

  /**
   * For measurement tools (the tests' QueryBreakdown --trace): runs the graph of {@code parts}'
   * shape once, as {@link #stepNanos} does, between {@link EncoderKernels#TRACE_TO} launches naming
   * {@code buffer} (its count of records set to 0 first), and returns the buffer's words: the
   * kernel timeline's records where the PTX was built to trace, none otherwise.
   */
  long[] traceReplay(List<BertTokenizer.Part> parts, DeviceBuffer<Long> buffer) {
    Padded batch = padded(parts, null);
    Shape shape = batch.shape();
    int[] in = batch.in();
    if (onQueryPath(shape)) {
      writeQueryInputs(in);
    } else {
      inputs.slice(0, in.length).write(in).syncOn(stream);
    }
    LaunchConfig one = LaunchConfig.of(1, 1);
    return buffer
        .slice(0, 1)
        .write(new long[] {0})
        .andThen(EncoderKernels.TRACE_TO.launch(one, buffer, 1))
        .andThen(launch(shape))
        .andThen(EncoderKernels.TRACE_TO.launch(one, buffer, 0))
        .andThen(buffer.toLongArray())
        .syncOn(stream);
  }

  /**
   * {@return the launch of {@code shape}'s graph}, or, where the graph cache's budget cannot hold
   * it, the same nodes launched one by one (and so for that shape from then on): a budget smaller
   * than a shape's activations costs speed, not the embedding
   */
  private DeviceOp<?> launch(Shape shape) {
    try {
      return graphs.launch(shape);
    } catch (IllegalStateException e) {
      boolean refused =
          graphs.notGraphed().stream()
              .anyMatch(
                  n -> n.key().equals(shape) && n.reason() == GraphCache.Reason.REFUSED_BY_BUDGET);
      if (!refused) {
        throw e;
      }
      overBudget.add(shape);
      return eagerWork(shape);
    }
  }

  /** {@return the graphs, one per shape embedded so far} */
  public GraphCache<Shape> graphs() {
    return graphs;
  }

  @Override
  public void close() {
    graphs.close();
    workspace.close();
    blas.close();
    if (queryIn != null) {
      queryIn.close();
    }
    if (queryOut != null) {
      queryOut.close();
    }
    for (DeviceBuffer<?> b : owned) {
      b.close();
    }
  }
}
