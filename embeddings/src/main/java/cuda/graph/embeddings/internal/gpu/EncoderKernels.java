// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.DeviceBuffer;
import cuda.graph.Dim3;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.JavaKernel;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.internal.model.ReferenceEncoder;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The encoder's own kernels (src/main/cuda/encoder_kernels.cu, compiled to PTX by regenerate.sh)
 * with their Java references, which the simulator runs, and the launches the encoder makes of them.
 *
 * <p>Each reference computes what its CUDA kernel computes for the blocks the launch's grid has,
 * reading exactly the memory the kernel reads, with {@link ReferenceEncoder}'s arithmetic (sums in
 * double, every stored value a float, LayerNorm, GELU and pooling shared with it; the LayerNorm's
 * epsilon is the launch's argument); the CUDA kernels sum in fp32, so on a GPU the results differ
 * from the references in the last bits. Where the CUDA kernel writes NaN (an id outside the
 * vocabulary, a row wider than its shared memory) or zeros (a sequence whose mask keeps nothing),
 * so does the reference.
 */
public final class EncoderKernels {

  /** Threads per block of every launch: 4 warps, a row of 384 in 3 passes. */
  public static final int BLOCK = 128;

  /** The widest row the row kernels hold in shared memory ({@code MAX_HIDDEN} of the .cu). */
  public static final int MAX_HIDDEN = 1024;

  /** The widest head the attention kernel takes: one lane per dimension of a warp. */
  public static final int MAX_HEAD_SIZE = 32;

  /** The most warps of an attention block ({@code ATT_MAX_WARPS} of the .cu). */
  public static final int MAX_ATTENTION_WARPS = 8;

  /** The queries of one attention block: {@code QUERIES_PER_WARP} (4) for each of its warps. */
  public static final int QUERIES_PER_BLOCK = BLOCK / 32 * 4;

  private static final int GELU_MAX_BLOCKS = 4096;

  private static final KernelParam FLOAT = KernelParam.pointer(ElementType.F32);
  private static final KernelParam HALF = KernelParam.pointer(ElementType.F16);
  private static final KernelParam INT = KernelParam.pointer(ElementType.I32);
  private static final KernelParam I32 = KernelParam.I32;
  private static final KernelParam I64 = KernelParam.I64;
  private static final KernelParam F32 = KernelParam.F32;
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfShort H = ValueLayout.JAVA_SHORT_UNALIGNED;

  /** The PTX of encoder_kernels.cu, each kernel with its Java reference. */
  public static final KernelImage IMAGE =
      KernelImage.ptxResource(MethodHandles.lookup(), "encoder_kernels.ptx")
          .withReference("embed_layer_norm", waiting(EncoderKernels::embedLayerNorm))
          .withReference("embed_layer_norm_half", waiting(EncoderKernels::embedLayerNormHalf))
          .withReference("layer_norm", waiting(EncoderKernels::layerNorm))
          .withReference("layer_norm_half", waiting(EncoderKernels::layerNormHalf))
          .withReference("attention", waiting(call -> attention(call, false, 4)))
          .withReference("attention_half", waiting(call -> attention(call, true, 4)))
          .withReference("attention_half_short", waiting(call -> attention(call, true, 1)))
          .withReference("attention_half_tiles", waiting(call -> attentionTiles(call, false)))
          .withReference(
              "attention_half_tiles_half_qkv", waiting(call -> attentionTiles(call, true)))
          .withReference("gelu", waiting(EncoderKernels::gelu))
          .withReference("pool_normalize", waiting(EncoderKernels::poolNormalize))
          .withReference(
              "query_linear_bias", waiting(call -> queryLinear(call, 32, QueryEpilogue.BIAS)))
          .withReference(
              "query_linear_residual",
              waiting(call -> queryLinear(call, 16, QueryEpilogue.RESIDUAL)))
          .withReference(
              "query_linear_gelu_half", waiting(call -> queryLinear(call, 32, QueryEpilogue.GELU)))
          .withReference(
              "query_linear_residual_norm_16", waiting(call -> queryLinearResidualNorm(call, 16)))
          .withReference(
              "query_linear_residual_norm_32", waiting(call -> queryLinearResidualNorm(call, 32)))
          .withReference("trace_to", call -> {}); // the simulator has no timer to record

  /**
   * {@code embed_layer_norm(ids, types, word, position, type_table, gamma, beta, x, tokens, length,
   * hidden, vocabulary, positions, type_count, eps)}.
   */
  public static final Kernel EMBED_LAYER_NORM =
      IMAGE.kernel(
          "embed_layer_norm",
          INT,
          INT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          F32);

  /** As {@link #EMBED_LAYER_NORM}, then {@code x_half}, the rows rounded to fp16. */
  public static final Kernel EMBED_LAYER_NORM_HALF =
      IMAGE.kernel(
          "embed_layer_norm_half",
          INT,
          INT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          F32,
          HALF);

  /** {@code layer_norm(in, gamma, beta, out, rows, hidden, eps)}. */
  public static final Kernel LAYER_NORM =
      IMAGE.kernel("layer_norm", FLOAT, FLOAT, FLOAT, FLOAT, I32, I32, F32);

  /** As {@link #LAYER_NORM}, then {@code out_half}, the rows rounded to fp16. */
  public static final Kernel LAYER_NORM_HALF =
      IMAGE.kernel("layer_norm_half", FLOAT, FLOAT, FLOAT, FLOAT, I32, I32, F32, HALF);

  /** {@code attention(qkv, mask, out, batch, length, heads, head_size, scale)}. */
  public static final Kernel ATTENTION =
      IMAGE.kernel("attention", FLOAT, INT, FLOAT, I32, I32, I32, I32, F32);

  /** As {@link #ATTENTION}, {@code out} fp16. */
  public static final Kernel ATTENTION_HALF =
      IMAGE.kernel("attention_half", FLOAT, INT, HALF, I32, I32, I32, I32, F32);

  /** As {@link #ATTENTION_HALF}, one query a warp (a block of 4 warps takes 4 queries). */
  public static final Kernel ATTENTION_HALF_SHORT =
      IMAGE.kernel("attention_half_short", FLOAT, INT, HALF, I32, I32, I32, I32, F32);

  /**
   * As {@link #ATTENTION_HALF} on the tensor cores: a block per head of a sequence, a warp per 16
   * queries, Q, K, V and the softmax's weights rounded to fp16 ({@link #attentionHalfTiles}).
   */
  public static final Kernel ATTENTION_HALF_TILES =
      IMAGE.kernel("attention_half_tiles", FLOAT, INT, HALF, I32, I32, I32, I32, F32);

  /** As {@link #ATTENTION_HALF_TILES} over fp16 {@code Q | K | V} rows. */
  public static final Kernel ATTENTION_HALF_TILES_HALF_QKV =
      IMAGE.kernel("attention_half_tiles_half_qkv", HALF, INT, HALF, I32, I32, I32, I32, F32);

  /** The longest sequence {@link #ATTENTION_HALF_TILES} takes ({@code ATT_TILES_MAX_LENGTH}). */
  public static final int ATTENTION_TILES_MAX_LENGTH = 128;

  /** The widest head {@link #ATTENTION_HALF_TILES} takes ({@code ATT_TILES_MAX_HEAD}). */
  public static final int ATTENTION_TILES_MAX_HEAD = 64;

  /**
   * {@code trace_to(out, on)}: names the buffer of the kernel timeline (testkit's {@code
   * KernelTimeline}) for the launches after it (on != 0), or stops recording (on == 0). Only the
   * PTX that {@code regenerate.sh --trace} builds records anything; the committed one's kernels
   * never read the pointer. One thread; the reference does nothing.
   */
  public static final Kernel TRACE_TO =
      IMAGE.kernel("trace_to", KernelParam.pointer(ElementType.I64), I32);

  /** {@code gelu(x, n)}. */
  public static final Kernel GELU = IMAGE.kernel("gelu", FLOAT, I64);

  /** {@code pool_normalize(x, mask, out, norms, batch, length, hidden, cls)}. */
  public static final Kernel POOL_NORMALIZE =
      IMAGE.kernel("pool_normalize", FLOAT, INT, FLOAT, FLOAT, I32, I32, I32, I32);

  /**
   * {@code query_linear_bias(a, w, bias, out, rows, n, k)}: {@code out = a W + bias}, a and W fp16,
   * bias and out fp32, {@value #QUERY_BIAS_COLUMNS} columns a block.
   */
  public static final Kernel QUERY_LINEAR_BIAS =
      IMAGE.kernel("query_linear_bias", HALF, HALF, FLOAT, FLOAT, I32, I32, I32);

  /**
   * {@code query_linear_residual(a, w, bias, residual, out, rows, n, k)}: {@code out = residual + a
   * W + bias}, {@value #QUERY_RESIDUAL_COLUMNS} columns a block.
   */
  public static final Kernel QUERY_LINEAR_RESIDUAL =
      IMAGE.kernel("query_linear_residual", HALF, HALF, FLOAT, FLOAT, FLOAT, I32, I32, I32);

  /**
   * {@code query_linear_gelu_half(a, w, bias, out, rows, n, k)}: {@code out = GELU(a W + bias)},
   * bias and out fp16, {@value #QUERY_GELU_COLUMNS} columns a block.
   */
  public static final Kernel QUERY_LINEAR_GELU_HALF =
      IMAGE.kernel("query_linear_gelu_half", HALF, HALF, HALF, HALF, I32, I32, I32);

  /**
   * {@code query_linear_residual_norm_16(a, w, bias, residual, gamma, beta, out, out_half, rows, n,
   * k, eps)}: {@code out = LayerNorm(residual + a W + bias)} and {@code out_half} the same rounded
   * to fp16, a cluster of {@value #QUERY_NORM_CLUSTER} blocks of {@value #QUERY_NORM_COLUMNS}
   * columns for each 16 rows.
   */
  public static final Kernel QUERY_LINEAR_RESIDUAL_NORM_16 = residualNorm(16);

  /** As {@link #QUERY_LINEAR_RESIDUAL_NORM_16} with a cluster for each 32 rows. */
  public static final Kernel QUERY_LINEAR_RESIDUAL_NORM_32 = residualNorm(32);

  /**
   * Every kernel of the image but {@link #TRACE_TO}, by its number in the kernel timeline's
   * records: the order of the .cu, whose {@code KERNEL_TRACE_SCOPE(n)} opens each
   * (EncoderKernelsTests checks the two agree).
   */
  public static final List<Kernel> TRACED =
      List.of(
          EMBED_LAYER_NORM,
          EMBED_LAYER_NORM_HALF,
          LAYER_NORM,
          LAYER_NORM_HALF,
          ATTENTION,
          ATTENTION_HALF,
          ATTENTION_HALF_SHORT,
          GELU,
          POOL_NORMALIZE,
          QUERY_LINEAR_BIAS,
          QUERY_LINEAR_RESIDUAL,
          QUERY_LINEAR_GELU_HALF,
          QUERY_LINEAR_RESIDUAL_NORM_16,
          QUERY_LINEAR_RESIDUAL_NORM_32,
          ATTENTION_HALF_TILES,
          ATTENTION_HALF_TILES_HALF_QKV);

  private static Kernel residualNorm(int rows) {
    return IMAGE.kernel(
        "query_linear_residual_norm_" + rows,
        HALF,
        HALF,
        FLOAT,
        FLOAT,
        FLOAT,
        FLOAT,
        FLOAT,
        HALF,
        I32,
        I32,
        I32,
        F32);
  }

  /** The blocks of a {@link #queryLinearResidualNorm} cluster, which share its rows. */
  public static final int QUERY_NORM_CLUSTER = 8;

  /** Columns of a {@link #queryLinearResidualNorm} block. */
  public static final int QUERY_NORM_COLUMNS = 48;

  /** The width of the rows {@link #queryLinearResidualNorm} takes: a cluster's columns. */
  public static final int QUERY_NORM_WIDTH = QUERY_NORM_CLUSTER * QUERY_NORM_COLUMNS;

  /** The widest rows {@code a} of a product with its LayerNorm in bands of 32 rows. */
  public static final int QUERY_NORM_WIDE_BAND_MAX_K = 512;

  /** Threads of a {@link #queryLinearResidualNorm} block (12 warps). */
  public static final int QUERY_NORM_BLOCK = 12 * 32;

  /** The rows (tokens) of a query product's block ({@code QUERY_ROWS} of the .cu). */
  public static final int QUERY_ROWS = 32;

  /** Threads of a query product's block ({@code QUERY_WARPS} warps). */
  public static final int QUERY_BLOCK = 8 * 32;

  /** Columns of a {@link #QUERY_LINEAR_BIAS} block. */
  public static final int QUERY_BIAS_COLUMNS = 32;

  /** Columns of a {@link #QUERY_LINEAR_RESIDUAL} block. */
  public static final int QUERY_RESIDUAL_COLUMNS = 16;

  /** Columns of a {@link #QUERY_LINEAR_GELU_HALF} block. */
  public static final int QUERY_GELU_COLUMNS = 32;

  /** A query product's epilogue. */
  enum QueryEpilogue {
    BIAS,
    RESIDUAL,
    GELU
  }

  private EncoderKernels() {}

  /**
   * {@return the dynamic shared memory of a query product's block of {@code columns} columns over
   * rows of width {@code k}}: its slice of W and the rows, each row padded by 8 fp16, the warps'
   * partial tiles and its columns' bias ({@code query_linear_bytes} of the .cu, which writes NaN
   * with less)
   *
   * @param columns the block's columns, 16 or 32
   * @param k the width of the rows
   */
  public static int queryLinearBytes(int columns, int k) {
    int tiles = QUERY_ROWS / 16 * (columns / 16);
    int splits = QUERY_BLOCK / 32 / tiles;
    return k * (columns + 8) * 2
        + QUERY_ROWS * (k + 8) * 2
        + splits * QUERY_ROWS * columns * 4
        + columns * 4;
  }

  /**
   * {@return the rows of a band of a product with its LayerNorm over rows {@code a} of width {@code
   * k}}: 32 up to {@value #QUERY_NORM_WIDE_BAND_MAX_K}, whose slice of W and rows fit a block's
   * shared memory, else 16
   *
   * @param k the width of the rows
   */
  public static int queryNormRows(int k) {
    return k <= QUERY_NORM_WIDE_BAND_MAX_K ? 32 : 16;
  }

  /**
   * {@return the dynamic shared memory of a block of a product with its LayerNorm over rows of
   * width {@code k}}: its slice of W and its rows ({@link #queryNormRows}), each row padded by 8
   * fp16 (the warps' partial tiles go over W's slice), its columns' bias, gamma and beta, and its
   * rows' sums and squares ({@code query_norm_bytes} of the .cu, which writes NaN with less)
   *
   * @param k the width of the rows
   */
  public static int queryNormBytes(int k) {
    int rows = queryNormRows(k);
    return k * (QUERY_NORM_COLUMNS + 8) * 2
        + rows * (k + 8) * 2
        + 3 * QUERY_NORM_COLUMNS * 4
        + 2 * rows * 4;
  }

  /**
   * {@return {@code reference} preceded by what each CUDA kernel does first}: wait for the kernel
   * before it and let the next one launch (encoder_kernels.cu's {@code wait_for_previous_kernel}
   * and {@code let_next_kernel_launch}), so that the simulator, which starts a programmatic
   * dependent launch early, runs them in the order a GPU does. The encoder's query path launches
   * them programmatically; elsewhere they are plain launches, where the wait returns at once.
   */
  private static JavaKernel waiting(JavaKernel reference) {
    return call -> {
      call.gridDependencySynchronize();
      call.triggerDependentLaunch();
      reference.run(call);
    };
  }

  /**
   * Loads every kernel on {@code device}, so that no capture loads a module.
   *
   * @param device the device the kernels run on
   */
  public static void loadAll(cuda.graph.Device device) {
    for (Kernel k : TRACED) { // every kernel but trace_to, which no graph holds
      k.load(device);
    }
  }

  // The launches, one block per row (per 16 queries of a head for attention, per sequence for
  // pooling).

  /**
   * {@return x = LayerNorm(word[id] + position + type) for each of {@code batch * length} rows}
   *
   * @param ids the token ids, {@code batch * length}
   * @param types the token types, as many
   * @param tables the embedding tables, their LayerNorm and its epsilon
   * @param x the rows, {@code batch * length * hidden}
   * @param batch the sequences
   * @param length the length they are padded to
   */
  public static GraphNode<@Nullable Void> embedLayerNorm(
      DeviceBuffer<Integer> ids,
      DeviceBuffer<Integer> types,
      Tables tables,
      DeviceBuffer<Float> x,
      int batch,
      int length) {
    return EMBED_LAYER_NORM.launch(
        LaunchConfig.of(batch * length, BLOCK),
        embedArguments(ids, types, tables, x, batch, length));
  }

  /**
   * {@return x = LayerNorm(word[id] + position + type) for each of {@code batch * length} rows, as
   * {@link #embedLayerNorm}, and the rows rounded to fp16 into {@code xHalf}}
   *
   * @param ids the token ids, {@code batch * length}
   * @param types the token types, as many
   * @param tables the embedding tables, their LayerNorm and its epsilon
   * @param x the rows, {@code batch * length * hidden}
   * @param xHalf the rows rounded to fp16
   * @param batch the sequences
   * @param length the length they are padded to
   * @param programmatic whether it is a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> embedLayerNormHalf(
      DeviceBuffer<Integer> ids,
      DeviceBuffer<Integer> types,
      Tables tables,
      DeviceBuffer<Float> x,
      DeviceBuffer<Short> xHalf,
      int batch,
      int length,
      boolean programmatic) {
    Object[] arguments = embedArguments(ids, types, tables, x, batch, length);
    Object[] withHalf = java.util.Arrays.copyOf(arguments, arguments.length + 1);
    withHalf[arguments.length] = xHalf;
    return EMBED_LAYER_NORM_HALF.launch(
        dependent(LaunchConfig.of(batch * length, BLOCK), programmatic), withHalf);
  }

  /** {@return the arguments {@code embed_layer_norm} and {@code embed_layer_norm_half} share} */
  private static Object[] embedArguments(
      DeviceBuffer<Integer> ids,
      DeviceBuffer<Integer> types,
      Tables tables,
      DeviceBuffer<Float> x,
      int batch,
      int length) {
    return new Object[] {
      ids,
      types,
      tables.word(),
      tables.position(),
      tables.type(),
      tables.gamma(),
      tables.beta(),
      x,
      batch * length,
      length,
      tables.hidden(),
      tables.vocabulary(),
      tables.positions(),
      tables.types(),
      tables.epsilon()
    };
  }

  /**
   * {@return out = LayerNorm(in) for each of {@code rows} rows, as {@link #layerNorm}, and the rows
   * rounded to fp16 into {@code outHalf}}
   *
   * @param in the rows
   * @param gamma LayerNorm's scale, a row's width
   * @param beta LayerNorm's shift
   * @param out the normalised rows, which may be {@code in}
   * @param outHalf the normalised rows rounded to fp16
   * @param rows the rows
   * @param epsilon added to the variance
   * @param programmatic whether it is a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> layerNormHalf(
      DeviceBuffer<Float> in,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      DeviceBuffer<Float> out,
      DeviceBuffer<Short> outHalf,
      int rows,
      float epsilon,
      boolean programmatic) {
    return LAYER_NORM_HALF.launch(
        dependent(LaunchConfig.of(rows, BLOCK), programmatic),
        in,
        gamma,
        beta,
        out,
        rows,
        Math.toIntExact(gamma.length()),
        epsilon,
        outHalf);
  }

  /**
   * {@return out = LayerNorm(in) for each of {@code rows} rows of {@code gamma.length()}, {@code
   * epsilon} added to the variance}
   *
   * @param in the rows
   * @param gamma LayerNorm's scale, a row's width
   * @param beta LayerNorm's shift
   * @param out the normalised rows, which may be {@code in}
   * @param rows the rows
   * @param epsilon added to the variance
   */
  public static GraphNode<@Nullable Void> layerNorm(
      DeviceBuffer<Float> in,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      DeviceBuffer<Float> out,
      int rows,
      float epsilon) {
    return LAYER_NORM.launch(
        LaunchConfig.of(rows, BLOCK),
        in,
        gamma,
        beta,
        out,
        rows,
        Math.toIntExact(gamma.length()),
        epsilon);
  }

  /**
   * {@return the masked attention of every query, head and sequence of a padded batch}
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head, at most {@value #MAX_HEAD_SIZE}
   */
  public static GraphNode<@Nullable Void> attention(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Float> out,
      int batch,
      int length,
      int heads,
      int headSize) {
    return ATTENTION.launch(
        attentionLaunch(batch, length, heads),
        qkv,
        mask,
        out,
        batch,
        length,
        heads,
        headSize,
        (float) (1 / Math.sqrt(headSize)));
  }

  /**
   * {@return the masked attention of a padded batch, as {@link #attention}, into fp16}
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head, at most {@value #MAX_HEAD_SIZE}
   * @param programmatic whether it is a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> attentionHalf(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> out,
      int batch,
      int length,
      int heads,
      int headSize,
      boolean programmatic) {
    return ATTENTION_HALF.launch(
        dependent(attentionLaunch(batch, length, heads), programmatic),
        qkv,
        mask,
        out,
        batch,
        length,
        heads,
        headSize,
        (float) (1 / Math.sqrt(headSize)));
  }

  /**
   * {@return the masked attention of a padded batch, as {@link #attentionHalf}, one query a warp}:
   * for short sequences, where it puts four times the blocks of {@link #attentionHalf} to work
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head, at most {@value #MAX_HEAD_SIZE}
   * @param programmatic whether it is a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> attentionHalfShort(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> out,
      int batch,
      int length,
      int heads,
      int headSize,
      boolean programmatic) {
    return ATTENTION_HALF_SHORT.launch(
        dependent(shortAttentionLaunch(batch, length, heads), programmatic),
        qkv,
        mask,
        out,
        batch,
        length,
        heads,
        headSize,
        (float) (1 / Math.sqrt(headSize)));
  }

  /**
   * {@return the launch of {@link #attentionHalfShort}}: a block per {@code BLOCK / 32} queries of
   * one head of one sequence
   *
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   */
  public static LaunchConfig shortAttentionLaunch(int batch, int length, int heads) {
    int perBlock = BLOCK / 32;
    return LaunchConfig.of(
        Dim3.of((length + perBlock - 1) / perBlock, heads, batch), Dim3.of(BLOCK));
  }

  /**
   * {@return whether {@link #attentionHalfTiles} takes sequences of {@code length} tokens and heads
   * of {@code headSize}}: 1 to {@value #ATTENTION_TILES_MAX_LENGTH} tokens, a head a multiple of 16
   * up to {@value #ATTENTION_TILES_MAX_HEAD}
   *
   * @param length the padded length
   * @param headSize the width of a head
   */
  public static boolean attentionTilesTake(int length, int headSize) {
    return length >= 1
        && length <= ATTENTION_TILES_MAX_LENGTH
        && headSize >= 16
        && headSize % 16 == 0
        && headSize <= ATTENTION_TILES_MAX_HEAD;
  }

  /**
   * {@return the dynamic shared memory of an {@link #ATTENTION_HALF_TILES} block}, as {@code
   * attention_tiles_bytes} of the .cu computes it
   *
   * @param length the padded length
   * @param headSize the width of a head
   */
  public static int attentionTilesBytes(int length, int headSize) {
    int padded = (length + 15) / 16 * 16;
    return 3 * padded * (headSize + 8) * 2
        + padded * 4
        + padded / 16 * (16 * (Math.max(padded, headSize) + 4) * 4 + 16 * (padded + 8) * 2);
  }

  /**
   * {@return the launch of {@link #ATTENTION_HALF_TILES}}: a block per head of each sequence, a
   * warp per 16 of its queries
   *
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head
   */
  public static LaunchConfig attentionTilesLaunch(int batch, int length, int heads, int headSize) {
    return new LaunchConfig(Dim3.of(heads, batch), Dim3.of((length + 15) / 16 * 32), 0)
        .withSharedMemory(attentionTilesBytes(length, headSize));
  }

  /**
   * {@return the masked attention of a padded batch, as {@link #attentionHalf}, on the tensor
   * cores}: Q, K and V rounded to fp16, scores summed in fp32, the softmax in fp32, its weights
   * rounded to fp16 for the product with V
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}, 16-byte aligned
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows, fp16
   * @param batch the sequences
   * @param length the length they are padded to, at most {@value #ATTENTION_TILES_MAX_LENGTH}
   * @param heads the heads
   * @param headSize the width of a head, a multiple of 16 up to {@value #ATTENTION_TILES_MAX_HEAD}
   * @param programmatic whether it is a programmatic dependent launch
   * @throws IllegalArgumentException for a length or head it does not take
   */
  public static GraphNode<@Nullable Void> attentionHalfTiles(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> out,
      int batch,
      int length,
      int heads,
      int headSize,
      boolean programmatic) {
    return launchTiles(
        ATTENTION_HALF_TILES, qkv, mask, out, batch, length, heads, headSize, programmatic);
  }

  /**
   * {@return the masked attention of a padded batch, as {@link #attentionHalfTiles}, over {@code Q
   * | K | V} rows in fp16}: the same values, since that kernel rounds its rows to fp16, from half
   * the bytes
   *
   * @param qkv the fused projection's rows in fp16, {@code Q | K | V}, 16-byte aligned
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows, fp16
   * @param batch the sequences
   * @param length the length they are padded to, at most {@value #ATTENTION_TILES_MAX_LENGTH}
   * @param heads the heads
   * @param headSize the width of a head, a multiple of 16 up to {@value #ATTENTION_TILES_MAX_HEAD}
   * @param programmatic whether it is a programmatic dependent launch
   * @throws IllegalArgumentException for a length or head it does not take
   */
  public static GraphNode<@Nullable Void> attentionHalfTilesHalfQkv(
      DeviceBuffer<Short> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> out,
      int batch,
      int length,
      int heads,
      int headSize,
      boolean programmatic) {
    return launchTiles(
        ATTENTION_HALF_TILES_HALF_QKV,
        qkv,
        mask,
        out,
        batch,
        length,
        heads,
        headSize,
        programmatic);
  }

  private static GraphNode<@Nullable Void> launchTiles(
      Kernel kernel,
      DeviceBuffer<?> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> out,
      int batch,
      int length,
      int heads,
      int headSize,
      boolean programmatic) {
    if (!attentionTilesTake(length, headSize)) {
      throw new IllegalArgumentException(
          "EncoderKernels."
              + kernel.name()
              + ": sequences of 1 to "
              + ATTENTION_TILES_MAX_LENGTH
              + " tokens and heads of a multiple of 16 up to "
              + ATTENTION_TILES_MAX_HEAD
              + "; got length "
              + length
              + ", head "
              + headSize
              + " (attentionHalf takes any)");
    }
    return kernel.launch(
        dependent(attentionTilesLaunch(batch, length, heads, headSize), programmatic),
        qkv,
        mask,
        out,
        batch,
        length,
        heads,
        headSize,
        (float) (1 / Math.sqrt(headSize)));
  }

  /**
   * {@return the launch of the attention kernel for a padded batch}: a block per {@value
   * #QUERIES_PER_BLOCK} queries of one head of one sequence
   *
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   */
  public static LaunchConfig attentionLaunch(int batch, int length, int heads) {
    return LaunchConfig.of(
        Dim3.of((length + QUERIES_PER_BLOCK - 1) / QUERIES_PER_BLOCK, heads, batch),
        Dim3.of(BLOCK));
  }

  /**
   * {@return x = GELU(x), the exact erf form, for the first {@code n} elements}
   *
   * @param x the activations, in place
   * @param n how many
   */
  public static GraphNode<@Nullable Void> gelu(DeviceBuffer<Float> x, long n) {
    int blocks = (int) Math.min(GELU_MAX_BLOCKS, (n + BLOCK - 1) / BLOCK);
    return GELU.launch(LaunchConfig.of(blocks, BLOCK), x, n);
  }

  /**
   * {@return each sequence pooled as {@code pooling} says (the mean over its mask, or its first
   * row), L2-normalised, into {@code out}, and the norm it was divided by into {@code norms}}
   *
   * @param x the last hidden states, {@code batch * length * hidden}
   * @param mask 1 for a token, 0 for padding
   * @param out the unit vectors, {@code batch * hidden}
   * @param norms the norms, {@code batch}
   * @param batch the sequences
   * @param length the length they are padded to
   * @param hidden a row's width
   * @param pooling the mean over the mask or the first row
   * @param programmatic whether it is a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> poolNormalize(
      DeviceBuffer<Float> x,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Float> out,
      DeviceBuffer<Float> norms,
      int batch,
      int length,
      int hidden,
      Pooling pooling,
      boolean programmatic) {
    // A thread per element of the row (up to 1024): each sums its element over the sequence's
    // rows, whose loads are in flight at once, rather than three elements one after another.
    int threads = Math.min(1024, Math.max(BLOCK, (hidden + 31) / 32 * 32));
    return POOL_NORMALIZE.launch(
        dependent(LaunchConfig.of(batch, threads), programmatic),
        x,
        mask,
        out,
        norms,
        batch,
        length,
        hidden,
        pooling == Pooling.CLS ? 1 : 0);
  }

  /**
   * {@return {@code out = a W + bias} for {@code rows} rows of a query, as a programmatic dependent
   * launch}: the attention's {@code Q | K | V}, fp32
   *
   * @param a the rows, {@code rows x k} fp16
   * @param w the weight, {@code [k, n]} row-major fp16, 16-byte aligned
   * @param bias {@code n} floats
   * @param out {@code rows x n} floats
   * @param rows the rows, at least 1 ({@value #QUERY_ROWS} a block)
   * @param n the columns, a multiple of {@value #QUERY_BIAS_COLUMNS}
   * @param k the width of a row, a multiple of 16
   * @throws IllegalArgumentException for sizes outside these or buffers too short for them
   */
  public static GraphNode<@Nullable Void> queryLinearBias(
      DeviceBuffer<Short> a,
      DeviceBuffer<Short> w,
      DeviceBuffer<Float> bias,
      DeviceBuffer<Float> out,
      int rows,
      int n,
      int k) {
    return queryLinear(QUERY_LINEAR_BIAS, QUERY_BIAS_COLUMNS, a, w, bias, out, rows, n, k);
  }

  /**
   * {@return {@code out = residual + a W + bias} for {@code rows} rows of a query, as a
   * programmatic dependent launch}: an output product onto the residual stream, fp32
   *
   * @param a the rows, {@code rows x k} fp16
   * @param w the weight, {@code [k, n]} row-major fp16, 16-byte aligned
   * @param bias {@code n} floats
   * @param residual {@code rows x n} floats, which may be {@code out}
   * @param out {@code rows x n} floats
   * @param rows the rows, at least 1 ({@value #QUERY_ROWS} a block)
   * @param n the columns, a multiple of {@value #QUERY_RESIDUAL_COLUMNS}
   * @param k the width of a row, a multiple of 16
   * @throws IllegalArgumentException for sizes outside these or buffers too short for them
   */
  public static GraphNode<@Nullable Void> queryLinearResidual(
      DeviceBuffer<Short> a,
      DeviceBuffer<Short> w,
      DeviceBuffer<Float> bias,
      DeviceBuffer<Float> residual,
      DeviceBuffer<Float> out,
      int rows,
      int n,
      int k) {
    checkQueryLinear(QUERY_LINEAR_RESIDUAL, QUERY_RESIDUAL_COLUMNS, rows, n, k);
    checkLengths(
        QUERY_LINEAR_RESIDUAL,
        rows,
        n,
        k,
        new String[] {"a", "w", "bias", "residual", "out"},
        new long[] {a.length(), w.length(), bias.length(), residual.length(), out.length()},
        new long[] {(long) rows * k, (long) k * n, n, (long) rows * n, (long) rows * n});
    return QUERY_LINEAR_RESIDUAL.launch(
        queryLaunch(QUERY_RESIDUAL_COLUMNS, rows, n, k), a, w, bias, residual, out, rows, n, k);
  }

  /**
   * {@return {@code out = GELU(a W + bias)}, the exact erf form, for {@code rows} rows of a query,
   * as a programmatic dependent launch}: the feed-forward's inner rows, fp16
   *
   * @param a the rows, {@code rows x k} fp16
   * @param w the weight, {@code [k, n]} row-major fp16, 16-byte aligned
   * @param bias {@code n} fp16
   * @param out {@code rows x n} fp16
   * @param rows the rows, at least 1 ({@value #QUERY_ROWS} a block)
   * @param n the columns, a multiple of {@value #QUERY_GELU_COLUMNS}
   * @param k the width of a row, a multiple of 16
   * @throws IllegalArgumentException for sizes outside these or buffers too short for them
   */
  public static GraphNode<@Nullable Void> queryLinearGeluHalf(
      DeviceBuffer<Short> a,
      DeviceBuffer<Short> w,
      DeviceBuffer<Short> bias,
      DeviceBuffer<Short> out,
      int rows,
      int n,
      int k) {
    return queryLinear(QUERY_LINEAR_GELU_HALF, QUERY_GELU_COLUMNS, a, w, bias, out, rows, n, k);
  }

  /**
   * {@return {@code out = LayerNorm(residual + a W + bias)} for {@code rows} rows of a query, and
   * the same rounded to fp16 into {@code outHalf}, as a programmatic dependent launch}: an output
   * product onto the residual stream and the LayerNorm after it in one node, a cluster of {@value
   * #QUERY_NORM_CLUSTER} blocks sharing each band of {@link #queryNormRows} rows
   *
   * @param a the rows, {@code rows x k} fp16
   * @param w the weight, {@code [k, n]} row-major fp16, 16-byte aligned
   * @param bias {@code n} floats
   * @param residual {@code rows x n} floats, which may be {@code out}
   * @param gamma LayerNorm's scale, {@code n} floats: {@code n} must be {@value #QUERY_NORM_WIDTH}
   * @param beta LayerNorm's shift, {@code n} floats
   * @param out {@code rows x n} floats
   * @param outHalf {@code rows x n} fp16
   * @param rows the rows, at least 1
   * @param k the width of a row of {@code a}, a multiple of 16 from 112
   * @param epsilon added to the variance
   * @throws IllegalArgumentException for sizes outside these or buffers too short for them
   */
  public static GraphNode<@Nullable Void> queryLinearResidualNorm(
      DeviceBuffer<Short> a,
      DeviceBuffer<Short> w,
      DeviceBuffer<Float> bias,
      DeviceBuffer<Float> residual,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      DeviceBuffer<Float> out,
      DeviceBuffer<Short> outHalf,
      int rows,
      int k,
      float epsilon) {
    int n = Math.toIntExact(gamma.length());
    if (rows < 1 || n != QUERY_NORM_WIDTH || k < 112 || k % 16 != 0) {
      throw new IllegalArgumentException(
          "EncoderKernels.query_linear_residual_norm: "
              + rows
              + " rows of "
              + k
              + " into "
              + n
              + " columns; it takes at least 1 row, a width that is a multiple of 16 from 112 and"
              + " exactly "
              + QUERY_NORM_WIDTH
              + " columns (a cluster of "
              + QUERY_NORM_CLUSTER
              + " blocks of "
              + QUERY_NORM_COLUMNS
              + "); use queryLinearResidual and layerNormHalf for other widths");
    }
    Kernel kernel = queryNormKernel(k);
    checkLengths(
        kernel,
        rows,
        n,
        k,
        new String[] {"a", "w", "bias", "residual", "beta", "out", "outHalf"},
        new long[] {
          a.length(),
          w.length(),
          bias.length(),
          residual.length(),
          beta.length(),
          out.length(),
          outHalf.length()
        },
        new long[] {
          (long) rows * k, (long) k * n, n, (long) rows * n, n, (long) rows * n, (long) rows * n
        });
    return kernel.launch(
        queryNormLaunch(rows, k),
        a,
        w,
        bias,
        residual,
        gamma,
        beta,
        out,
        outHalf,
        rows,
        n,
        k,
        epsilon);
  }

  /**
   * {@return the kernel of a product with its LayerNorm over rows of width {@code k}}: bands of
   * {@link #queryNormRows} rows
   *
   * @param k the width of the rows
   */
  public static Kernel queryNormKernel(int k) {
    return queryNormRows(k) == 32 ? QUERY_LINEAR_RESIDUAL_NORM_32 : QUERY_LINEAR_RESIDUAL_NORM_16;
  }

  /**
   * {@return the launch of a product with its LayerNorm the encoder makes}: a cluster across the
   * columns for each band of {@link #queryNormRows} rows, a programmatic dependent launch
   *
   * @param rows the rows
   * @param k the width of a row of {@code a}
   */
  public static LaunchConfig queryNormLaunch(int rows, int k) {
    return new LaunchConfig(
            Dim3.of(QUERY_NORM_CLUSTER, (rows + queryNormRows(k) - 1) / queryNormRows(k)),
            Dim3.of(QUERY_NORM_BLOCK),
            0)
        .withSharedMemory(queryNormBytes(k))
        .withProgrammaticDependentLaunch();
  }

  private static GraphNode<@Nullable Void> queryLinear(
      Kernel kernel,
      int columns,
      DeviceBuffer<Short> a,
      DeviceBuffer<Short> w,
      DeviceBuffer<?> bias,
      DeviceBuffer<?> out,
      int rows,
      int n,
      int k) {
    checkQueryLinear(kernel, columns, rows, n, k);
    checkLengths(
        kernel,
        rows,
        n,
        k,
        new String[] {"a", "w", "bias", "out"},
        new long[] {a.length(), w.length(), bias.length(), out.length()},
        new long[] {(long) rows * k, (long) k * n, n, (long) rows * n});
    return kernel.launch(queryLaunch(columns, rows, n, k), a, w, bias, out, rows, n, k);
  }

  private static LaunchConfig queryLaunch(int columns, int rows, int n, int k) {
    return new LaunchConfig(
            Dim3.of(n / columns, (rows + QUERY_ROWS - 1) / QUERY_ROWS), Dim3.of(QUERY_BLOCK), 0)
        .withSharedMemory(queryLinearBytes(columns, k))
        .withProgrammaticDependentLaunch();
  }

  private static void checkQueryLinear(Kernel kernel, int columns, int rows, int n, int k) {
    if (rows < 1 || n < columns || n % columns != 0 || k < 16 || k % 16 != 0) {
      throw new IllegalArgumentException(
          "EncoderKernels."
              + kernel.name()
              + ": "
              + rows
              + " rows of "
              + k
              + " into "
              + n
              + " columns; it takes at least 1 row, a width that is a multiple of 16 and columns a"
              + " multiple of "
              + columns);
    }
  }

  private static void checkLengths(
      Kernel kernel, int rows, int n, int k, String[] names, long[] lengths, long[] needed) {
    for (int i = 0; i < names.length; i++) {
      if (lengths[i] < needed[i]) {
        throw new IllegalArgumentException(
            "EncoderKernels."
                + kernel.name()
                + ": "
                + names[i]
                + " holds "
                + lengths[i]
                + " elements, "
                + needed[i]
                + " needed for "
                + rows
                + " rows of "
                + k
                + " into "
                + n
                + " columns");
      }
    }
  }

  /** {@return {@code config} as a programmatic dependent launch where {@code programmatic}} */
  private static LaunchConfig dependent(LaunchConfig config, boolean programmatic) {
    return programmatic ? config.withProgrammaticDependentLaunch() : config;
  }

  /**
   * The embedding tables and their LayerNorm on the device, with their sizes, and the LayerNorm's
   * epsilon.
   *
   * @param word the word table, {@code [vocabulary, hidden]}
   * @param position the position table, {@code [positions, hidden]}
   * @param type the token type table, {@code [types, hidden]}
   * @param gamma LayerNorm's scale
   * @param beta LayerNorm's shift
   * @param epsilon LayerNorm's epsilon
   */
  public record Tables(
      DeviceBuffer<Float> word,
      DeviceBuffer<Float> position,
      DeviceBuffer<Float> type,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      float epsilon) {

    int hidden() {
      return Math.toIntExact(gamma.length());
    }

    int vocabulary() {
      return Math.toIntExact(word.length() / hidden());
    }

    int positions() {
      return Math.toIntExact(position.length() / hidden());
    }

    int types() {
      return Math.toIntExact(type.length() / hidden());
    }
  }

  // The references.

  private static MemorySegment floats(KernelCall call, int index, long count) {
    return call.memory(index, count * Float.BYTES);
  }

  private static MemorySegment ints(KernelCall call, int index, long count) {
    return call.memory(index, count * Integer.BYTES);
  }

  private static float[] row(MemorySegment m, long from, int count) {
    float[] row = new float[count];
    MemorySegment.copy(m, F, from * Float.BYTES, row, 0, count);
    return row;
  }

  private static void setRow(MemorySegment m, long from, float[] row) {
    MemorySegment.copy(row, 0, m, F, from * Float.BYTES, row.length);
  }

  private static void fillNan(MemorySegment m, long from, long count) {
    for (long i = 0; i < count; i++) {
      m.setAtIndex(F, from + i, Float.NaN);
    }
  }

  private static void embedLayerNorm(KernelCall call) {
    int tokens = call.i32(8), length = call.i32(9), hidden = call.i32(10);
    int vocabulary = call.i32(11), positions = call.i32(12), typeCount = call.i32(13);
    if (length < 1) {
      return;
    }
    int rows = Math.min(call.grid().x(), tokens);
    if (rows < 1) {
      return;
    }
    MemorySegment ids = ints(call, 0, rows);
    MemorySegment types = ints(call, 1, rows);
    float[] gamma = row(floats(call, 5, hidden), 0, hidden);
    float[] beta = row(floats(call, 6, hidden), 0, hidden);
    MemorySegment x = floats(call, 7, (long) rows * hidden);
    for (int r = 0; r < rows; r++) {
      int id = ids.getAtIndex(I, r), type = types.getAtIndex(I, r), pos = r % length;
      long out = (long) r * hidden;
      if (hidden > MAX_HIDDEN
          || id < 0
          || id >= vocabulary
          || pos >= positions
          || type < 0
          || type >= typeCount) {
        fillNan(x, out, hidden);
        continue;
      }
      // The rows the kernel reads, and no more.
      float[] w = row(floats(call, 2, (id + 1L) * hidden), (long) id * hidden, hidden);
      float[] p = row(floats(call, 3, (pos + 1L) * hidden), (long) pos * hidden, hidden);
      float[] t = row(floats(call, 4, (type + 1L) * hidden), (long) type * hidden, hidden);
      float[] sum = new float[hidden];
      for (int i = 0; i < hidden; i++) {
        sum[i] = (float) ((double) w[i] + t[i] + p[i]);
      }
      setRow(x, out, ReferenceEncoder.layerNorm(sum, gamma, beta, call.f32(14)));
    }
  }

  /** Rounds {@code rows} rows of {@code hidden} floats at {@code from} to fp16 at {@code to}. */
  private static void copyHalf(KernelCall call, int from, int to, int rows, int hidden) {
    if (rows < 1) {
      return;
    }
    long n = (long) rows * hidden;
    MemorySegment in = floats(call, from, n);
    MemorySegment out = call.memory(to, n * Short.BYTES);
    for (long i = 0; i < n; i++) {
      out.setAtIndex(H, i, Float.floatToFloat16(in.getAtIndex(F, i)));
    }
  }

  private static void embedLayerNormHalf(KernelCall call) {
    embedLayerNorm(call);
    if (call.i32(9) >= 1) {
      copyHalf(call, 7, 15, Math.min(call.grid().x(), call.i32(8)), call.i32(10));
    }
  }

  private static void layerNormHalf(KernelCall call) {
    layerNorm(call);
    copyHalf(call, 3, 7, Math.min(call.grid().x(), call.i32(4)), call.i32(5));
  }

  private static void layerNorm(KernelCall call) {
    int rows = Math.min(call.grid().x(), call.i32(4)), hidden = call.i32(5);
    if (rows < 1) {
      return;
    }
    MemorySegment out = floats(call, 3, (long) rows * hidden);
    if (hidden > MAX_HIDDEN) {
      fillNan(out, 0, rows * hidden);
      return;
    }
    MemorySegment in = floats(call, 0, (long) rows * hidden);
    float[] gamma = row(floats(call, 1, hidden), 0, hidden);
    float[] beta = row(floats(call, 2, hidden), 0, hidden);
    for (int r = 0; r < rows; r++) {
      long at = (long) r * hidden;
      setRow(out, at, ReferenceEncoder.layerNorm(row(in, at, hidden), gamma, beta, call.f32(6)));
    }
  }

  /** Where a reference stores element {@code index} of its output. */
  private interface Store {
    public void set(long index, float value);
  }

  /**
   * attention_half_tiles' reference (attention_half_tiles_half_qkv's over fp16 rows): for the heads
   * and sequences of the blocks the grid has, each query's scores the sums in double of Q and K
   * rounded to fp16, the softmax (in double) over the keys the mask keeps of the scores times the
   * f32 scale, its weights rounded to fp16, and the sums in double of weight times V rounded to
   * fp16, rounded to fp16. Where the kernel's checks fail (it cannot see its shared memory or
   * alignment; the launch sets both), NaN over the block's rows of its head.
   */
  private static void attentionTiles(KernelCall call, boolean halfQkv) {
    int batch = call.i32(3), length = call.i32(4), heads = call.i32(5), headSize = call.i32(6);
    double scale = call.f32(7);
    int blockHeads = Math.min(call.grid().x(), heads);
    int sequences = Math.min(call.grid().y(), batch);
    if (blockHeads < 1 || sequences < 1 || length < 1) {
      return;
    }
    int hidden = heads * headSize;
    long stride = 3L * hidden;
    MemorySegment out =
        call.memory(
            2,
            (((long) sequences * length - 1) * hidden + (long) blockHeads * headSize)
                * Short.BYTES);
    boolean fits =
        attentionTilesTake(length, headSize)
            && call.block().x() == (length + 15) / 16 * 32
            && call.block().y() == 1
            && call.block().z() == 1;
    if (!fits) {
      for (int b = 0; b < sequences; b++) {
        for (int i = 0; i < length; i++) {
          for (int h = 0; h < blockHeads; h++) {
            long o = ((long) b * length + i) * hidden + (long) h * headSize;
            for (int d = 0; d < headSize; d++) {
              out.setAtIndex(H, o + d, Float.floatToFloat16(Float.NaN));
            }
          }
        }
      }
      return;
    }
    long qkvElements = (long) sequences * length * stride;
    MemorySegment qkv =
        halfQkv ? call.memory(0, qkvElements * Short.BYTES) : floats(call, 0, qkvElements);
    MemorySegment mask = ints(call, 1, (long) sequences * length);
    double[] weights = new double[length];
    for (int b = 0; b < sequences; b++) {
      long rows = (long) b * length * stride;
      for (int h = 0; h < blockHeads; h++) {
        long q = rows + (long) h * headSize;
        float[][] k = new float[length][], v = new float[length][];
        for (int j = 0; j < length; j++) {
          k[j] = rounded(qkv, halfQkv, q + hidden + j * stride, headSize);
          v[j] = rounded(qkv, halfQkv, q + 2L * hidden + j * stride, headSize);
        }
        for (int i = 0; i < length; i++) {
          float[] query = rounded(qkv, halfQkv, q + i * stride, headSize);
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < length; j++) {
            if (mask.getAtIndex(I, (long) b * length + j) != 0) {
              double dot = 0;
              for (int d = 0; d < headSize; d++) {
                dot += (double) query[d] * k[j][d];
              }
              weights[j] = dot * scale;
              max = Math.max(max, weights[j]);
            }
          }
          double total = 0;
          for (int j = 0; j < length; j++) {
            boolean kept = mask.getAtIndex(I, (long) b * length + j) != 0;
            weights[j] = kept ? Math.exp(weights[j] - max) : 0;
            total += weights[j];
          }
          for (int j = 0; j < length; j++) { // no key kept: every weight 0, the output zeros
            weights[j] =
                total > 0
                    ? Float.float16ToFloat(Float.floatToFloat16((float) (weights[j] / total)))
                    : 0;
          }
          long o = ((long) b * length + i) * hidden + (long) h * headSize;
          for (int d = 0; d < headSize; d++) {
            double sum = 0;
            for (int j = 0; j < length; j++) {
              sum += weights[j] * v[j][d];
            }
            out.setAtIndex(H, o + d, Float.floatToFloat16((float) sum));
          }
        }
      }
    }
  }

  /**
   * {@return {@code n} elements of {@code memory} from element {@code at}: fp16 ones as they are,
   * fp32 ones rounded to fp16}
   */
  private static float[] rounded(MemorySegment memory, boolean half, long at, int n) {
    float[] r = new float[n];
    for (int i = 0; i < n; i++) {
      r[i] =
          Float.float16ToFloat(
              half
                  ? memory.getAtIndex(H, at + i)
                  : Float.floatToFloat16(memory.getAtIndex(F, at + i)));
    }
    return r;
  }

  private static void attention(KernelCall call, boolean half, int queriesPerWarp) {
    int batch = call.i32(3), length = call.i32(4), heads = call.i32(5), headSize = call.i32(6);
    double scale = call.f32(7);
    int queries =
        (int) Math.min((long) call.grid().x() * (call.block().x() / 32) * queriesPerWarp, length);
    int blockHeads = Math.min(call.grid().y(), heads);
    int sequences = Math.min(call.grid().z(), batch);
    if (queries < 1 || blockHeads < 1 || sequences < 1) {
      return;
    }
    int hidden = heads * headSize;
    long stride = 3L * hidden;
    long outElements = ((long) (sequences - 1) * length + queries) * hidden;
    MemorySegment outMemory = call.memory(2, outElements * (half ? Short.BYTES : Float.BYTES));
    Store out =
        half
            ? (i, v) -> outMemory.setAtIndex(H, i, Float.floatToFloat16(v))
            : (i, v) -> outMemory.setAtIndex(F, i, v);
    if (headSize > MAX_HEAD_SIZE || call.block().x() / 32 > MAX_ATTENTION_WARPS) {
      for (int b = 0; b < sequences; b++) {
        for (int i = 0; i < queries; i++) {
          for (int h = 0; h < blockHeads; h++) {
            long o = ((long) b * length + i) * hidden + (long) h * headSize;
            for (int d = 0; d < headSize; d++) {
              out.set(o + d, Float.NaN);
            }
          }
        }
      }
      return;
    }
    MemorySegment qkv = floats(call, 0, (long) sequences * length * stride);
    MemorySegment mask = ints(call, 1, (long) sequences * length);
    double[] scores = new double[length];
    for (int b = 0; b < sequences; b++) {
      long rows = (long) b * length * stride;
      for (int h = 0; h < blockHeads; h++) {
        long q = rows + (long) h * headSize;
        long k = q + hidden;
        long v = q + 2L * hidden;
        for (int i = 0; i < queries; i++) {
          long o = ((long) b * length + i) * hidden + (long) h * headSize;
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < length; j++) {
            if (mask.getAtIndex(I, (long) b * length + j) == 0) {
              continue;
            }
            double dot = 0;
            for (int d = 0; d < headSize; d++) {
              dot +=
                  (double) qkv.getAtIndex(F, q + i * stride + d)
                      * qkv.getAtIndex(F, k + j * stride + d);
            }
            scores[j] = dot * scale;
            max = Math.max(max, scores[j]);
          }
          if (max == Double.NEGATIVE_INFINITY) { // no key kept
            for (int d = 0; d < headSize; d++) {
              out.set(o + d, 0f);
            }
            continue;
          }
          double total = 0;
          for (int j = 0; j < length; j++) {
            if (mask.getAtIndex(I, (long) b * length + j) != 0) {
              scores[j] = Math.exp(scores[j] - max);
              total += scores[j];
            } else {
              scores[j] = 0;
            }
          }
          for (int d = 0; d < headSize; d++) {
            double sum = 0;
            for (int j = 0; j < length; j++) {
              sum += scores[j] * qkv.getAtIndex(F, v + j * stride + d);
            }
            out.set(o + d, (float) (sum / total));
          }
        }
      }
    }
  }

  private static void gelu(KernelCall call) {
    long n = call.i64(1);
    if (n < 1) {
      return;
    }
    MemorySegment x = floats(call, 0, n);
    for (long i = 0; i < n; i++) {
      x.setAtIndex(F, i, (float) ReferenceEncoder.gelu(x.getAtIndex(F, i)));
    }
  }

  private static void poolNormalize(KernelCall call) {
    int sequences = Math.min(call.grid().x(), call.i32(4));
    int length = call.i32(5), hidden = call.i32(6);
    boolean cls = call.i32(7) != 0;
    if (sequences < 1) {
      return;
    }
    MemorySegment out = floats(call, 2, (long) sequences * hidden);
    MemorySegment norms = floats(call, 3, sequences);
    if (hidden > MAX_HIDDEN) {
      fillNan(out, 0, sequences * hidden);
      fillNan(norms, 0, sequences);
      return;
    }
    MemorySegment mask = ints(call, 1, (long) sequences * length);
    // The rows the kernel reads: every row of each sequence for the mean, the first for CLS.
    long rows = cls ? (long) (sequences - 1) * length + 1 : (long) sequences * length;
    MemorySegment x = length < 1 ? MemorySegment.NULL : floats(call, 0, rows * hidden);
    for (int b = 0; b < sequences; b++) {
      int[] keep = new int[length];
      int count = 0;
      for (int t = 0; t < length; t++) {
        keep[t] = mask.getAtIndex(I, (long) b * length + t);
        count += keep[t] != 0 ? 1 : 0;
      }
      float[] pooled = new float[hidden];
      if (cls && length > 0 && keep[0] != 0) {
        pooled = row(x, (long) b * length * hidden, hidden);
      } else if (!cls && count > 0) {
        float[][] sequence = new float[length][];
        for (int t = 0; t < length; t++) {
          sequence[t] = row(x, ((long) b * length + t) * hidden, hidden);
        }
        pooled = ReferenceEncoder.meanPooled(sequence, keep);
      }
      float norm = (float) ReferenceEncoder.norm(pooled);
      setRow(out, (long) b * hidden, norm > 0 ? ReferenceEncoder.normalized(pooled) : pooled);
      norms.setAtIndex(F, b, norm);
    }
  }

  /**
   * query_linear's reference: the columns of the blocks the grid has (a block past n returns), each
   * element the product's sum in double over k of the fp16 values, then the epilogue, for the rows
   * of the blocks the grid has (32 a block row). Where the kernel's checks fail (it cannot see its
   * shared memory or alignment; the launch sets both), NaN over those rows' columns.
   */
  private static void queryLinear(KernelCall call, int columns, QueryEpilogue epilogue) {
    // Arguments: (a, w, bias, [residual], out, rows, n, k).
    boolean residual = epilogue == QueryEpilogue.RESIDUAL;
    int wIndex = 1, biasIndex = 2;
    int outIndex = residual ? 4 : 3;
    int rows = call.i32(outIndex + 1), n = call.i32(outIndex + 2), k = call.i32(outIndex + 3);
    int covered = (int) Math.min((long) call.grid().x() * columns, n);
    int written = (int) Math.min((long) call.grid().y() * QUERY_ROWS, Math.max(rows, 0));
    if (covered < 1 || written < 1) {
      return;
    }
    rows = written; // the rows of the blocks the grid has
    boolean half = epilogue == QueryEpilogue.GELU;
    long outElements = (long) (written - 1) * n + covered;
    MemorySegment outMemory =
        call.memory(outIndex, outElements * (half ? Short.BYTES : Float.BYTES));
    boolean fits =
        k >= 16
            && k % 16 == 0
            && n % columns == 0
            && call.block().x() == QUERY_BLOCK
            && call.block().y() == 1
            && call.block().z() == 1;
    if (!fits) {
      for (int r = 0; r < written; r++) {
        for (int c = 0; c < covered; c++) {
          long at = (long) r * n + c;
          if (half) {
            outMemory.setAtIndex(H, at, Float.floatToFloat16(Float.NaN));
          } else {
            outMemory.setAtIndex(F, at, Float.NaN);
          }
        }
      }
      return;
    }
    float[][] a = new float[rows][];
    MemorySegment halves = call.memory(0, (long) rows * k * Short.BYTES);
    for (int r = 0; r < rows; r++) {
      a[r] = new float[k];
      for (int i = 0; i < k; i++) {
        a[r][i] = Float.float16ToFloat(halves.getAtIndex(H, (long) r * k + i));
      }
    }
    MemorySegment w = call.memory(wIndex, ((long) (k - 1) * n + covered) * Short.BYTES);
    MemorySegment bias =
        call.memory(biasIndex, (long) covered * (half ? Short.BYTES : Float.BYTES));
    MemorySegment residualRows =
        residual ? floats(call, 3, (long) (rows - 1) * n + covered) : MemorySegment.NULL;
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < covered; c++) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
          sum += (double) a[r][i] * Float.float16ToFloat(w.getAtIndex(H, (long) i * n + c));
        }
        long at = (long) r * n + c;
        switch (epilogue) {
          case BIAS -> outMemory.setAtIndex(F, at, (float) (sum + bias.getAtIndex(F, c)));
          case RESIDUAL ->
              outMemory.setAtIndex(
                  F, at, (float) (residualRows.getAtIndex(F, at) + sum + bias.getAtIndex(F, c)));
          case GELU -> {
            float v = (float) (sum + Float.float16ToFloat(bias.getAtIndex(H, c)));
            outMemory.setAtIndex(H, at, Float.floatToFloat16((float) ReferenceEncoder.gelu(v)));
          }
        }
      }
    }
  }

  /**
   * query_linear_residual_norm's reference: query_linear_residual's sums for the rows of the block
   * rows the grid has ({@code band} a block row), then each row's LayerNorm as {@link #layerNorm},
   * into out and, rounded to fp16, out_half. Where the kernel's checks fail (the grid's x, n, k or
   * the block; it cannot see its shared memory or alignment, which the launch sets), NaN over those
   * rows' columns of the blocks the grid has, in both outputs.
   */
  private static void queryLinearResidualNorm(KernelCall call, int band) {
    // Arguments: (a, w, bias, residual, gamma, beta, out, out_half, rows, n, k, eps).
    int rows = call.i32(8), n = call.i32(9), k = call.i32(10);
    int covered = (int) Math.min((long) call.grid().x() * QUERY_NORM_COLUMNS, n);
    int written = (int) Math.min((long) call.grid().y() * band, Math.max(rows, 0));
    if (covered < 1 || written < 1) {
      return;
    }
    long outElements = (long) (written - 1) * n + covered;
    MemorySegment out = floats(call, 6, outElements);
    MemorySegment outHalf = call.memory(7, outElements * Short.BYTES);
    boolean fits =
        n == QUERY_NORM_WIDTH
            && call.grid().x() == QUERY_NORM_CLUSTER
            && k >= 112
            && k % 16 == 0
            && call.block().x() == QUERY_NORM_BLOCK
            && call.block().y() == 1
            && call.block().z() == 1;
    if (!fits) {
      for (int r = 0; r < written; r++) {
        for (int c = 0; c < covered; c++) {
          out.setAtIndex(F, (long) r * n + c, Float.NaN);
          outHalf.setAtIndex(H, (long) r * n + c, Float.floatToFloat16(Float.NaN));
        }
      }
      return;
    }
    MemorySegment a = call.memory(0, (long) written * k * Short.BYTES);
    MemorySegment w = call.memory(1, (long) k * n * Short.BYTES);
    MemorySegment bias = floats(call, 2, n);
    MemorySegment residual = floats(call, 3, (long) written * n);
    float[] gamma = row(floats(call, 4, n), 0, n);
    float[] beta = row(floats(call, 5, n), 0, n);
    float[] weights = new float[k * n];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = Float.float16ToFloat(w.getAtIndex(H, i));
    }
    float[] sum = new float[n];
    for (int r = 0; r < written; r++) {
      for (int c = 0; c < n; c++) {
        double product = 0;
        for (int i = 0; i < k; i++) {
          product +=
              (double) Float.float16ToFloat(a.getAtIndex(H, (long) r * k + i)) * weights[i * n + c];
        }
        sum[c] =
            (float) (residual.getAtIndex(F, (long) r * n + c) + product + bias.getAtIndex(F, c));
      }
      float[] normalised = ReferenceEncoder.layerNorm(sum, gamma, beta, call.f32(11));
      setRow(out, (long) r * n, normalised);
      for (int c = 0; c < n; c++) {
        outHalf.setAtIndex(H, (long) r * n + c, Float.floatToFloat16(normalised[c]));
      }
    }
  }
}
