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
 * vocabulary, a row wider than its shared memory, sizes or a grid {@code encode_small} does not
 * take) or zeros (a sequence whose mask keeps nothing), so does the reference.
 *
 * <p>{@code encode_small} is the whole fp16 forward pass of a small batch in one kernel, for
 * queries, whose graphs of a node per step are bound by the steps' launches rather than their work;
 * its reference rounds to fp16 where it does, so on a GPU the two may also differ by an fp16 unit
 * where a value falls near a rounding boundary.
 */
public final class EncoderKernels {

  /**
   * Threads per block of every launch but {@code encode_small}'s: 4 warps, a row of 384 in 3
   * passes.
   */
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
          .withReference("gelu", waiting(EncoderKernels::gelu))
          .withReference("pool_normalize", waiting(EncoderKernels::poolNormalize))
          .withReference("encode_small", waiting(EncoderKernels::encodeSmall));

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

  /** {@code gelu(x, n)}. */
  public static final Kernel GELU = IMAGE.kernel("gelu", FLOAT, I64);

  /** {@code pool_normalize(x, mask, out, norms, batch, length, hidden, cls)}. */
  public static final Kernel POOL_NORMALIZE =
      IMAGE.kernel("pool_normalize", FLOAT, INT, FLOAT, FLOAT, I32, I32, I32, I32);

  /**
   * {@code encode_small(ids, types, mask, word, position, type_table, emb_gamma, emb_beta, wqkv,
   * bqkv, wo, bo, g1, b1, wu, bu, wd, bd, g2, b2, h, x, ctx, u, out, norms, sync, batch, length,
   * layers, hidden, heads, ffn, vocabulary, positions, type_count, cls, eps, scale)}: the fp16
   * forward pass of a batch of at most {@value #ENCODE_SMALL_MAX_TOKENS} tokens, embeddings to
   * pooled unit vectors, in one kernel (see {@link #encodeSmall}).
   */
  public static final Kernel ENCODE_SMALL =
      IMAGE.kernel(
          "encode_small",
          INT,
          INT,
          INT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          HALF,
          FLOAT,
          HALF,
          FLOAT,
          FLOAT,
          FLOAT,
          HALF,
          FLOAT,
          HALF,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          FLOAT,
          HALF,
          HALF,
          FLOAT,
          FLOAT,
          INT,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          I32,
          F32,
          F32);

  /** Threads of an {@code encode_small} block. */
  public static final int ENCODE_SMALL_BLOCK = 256;

  /** The most tokens (batch times padded length) {@code encode_small} takes. */
  public static final int ENCODE_SMALL_MAX_TOKENS = 32;

  /** The widest row {@code encode_small} takes. */
  public static final int ENCODE_SMALL_MAX_HIDDEN = 384;

  /** The most layers {@code encode_small} takes (its phase counters are in {@code sync}). */
  public static final int ENCODE_SMALL_MAX_LAYERS = 64;

  /** The widest feed-forward activations {@code encode_small} takes. */
  private static final int ENCODE_SMALL_MAX_FFN = 1 << 16;

  /** The rows of {@code encode_small}'s tiles: its sizes and heads are multiples of it. */
  private static final int ENCODE_SMALL_TILE = 16;

  /** The widest head {@code encode_small} takes. */
  private static final int ENCODE_SMALL_MAX_HEAD_SIZE = 32;

  private EncoderKernels() {}

  /**
   * {@return the blocks of an {@code encode_small} launch}: {@code 2 + layers * (heads + 2 * hidden
   * / 16 + ffn / 16)}, the grid the kernel is written for (any other, it writes NaN and returns)
   *
   * @param layers the layers
   * @param hidden a row's width
   * @param heads the attention heads
   * @param ffn the width of the feed-forward activations
   */
  public static int encodeSmallBlocks(int layers, int hidden, int heads, int ffn) {
    return Math.toIntExact(blocks(layers, hidden, heads, ffn));
  }

  /** {@link #encodeSmallBlocks} in a long, so that the reference compares any sizes with it. */
  private static long blocks(int layers, int hidden, int heads, int ffn) {
    return 2 + (long) layers * (heads + 2L * hidden / ENCODE_SMALL_TILE + ffn / ENCODE_SMALL_TILE);
  }

  /**
   * {@return the ints of {@code encode_small}'s {@code sync} buffer for {@code layers} layers}
   *
   * @param layers the layers
   */
  public static int encodeSmallSyncInts(int layers) {
    return 4 + 4 * layers;
  }

  /**
   * {@return the rows of {@code encode_small}'s scratch for {@code tokens} tokens}: rounded up to
   * its tiles of 16
   *
   * @param tokens batch times padded length
   */
  public static int encodeSmallRows(int tokens) {
    return (tokens + ENCODE_SMALL_TILE - 1) / ENCODE_SMALL_TILE * ENCODE_SMALL_TILE;
  }

  /**
   * {@return whether {@code encode_small} takes these sizes}: 1 to {@value
   * #ENCODE_SMALL_MAX_TOKENS} tokens, rows of at most {@value #ENCODE_SMALL_MAX_HIDDEN} that are a
   * multiple of 16, split into heads of 16 or 32, and feed-forward activations a multiple of 16
   * wide, at most 65,536; for others (and more than {@value #ENCODE_SMALL_MAX_LAYERS} layers) it
   * writes NaN over its outputs
   *
   * @param tokens batch times padded length
   * @param hidden a row's width
   * @param heads the attention heads
   * @param ffn the width of the feed-forward activations
   */
  public static boolean encodeSmallTakes(int tokens, int hidden, int heads, int ffn) {
    if (tokens < 1 || tokens > ENCODE_SMALL_MAX_TOKENS || heads < 1 || ffn < 1) {
      return false;
    }
    if (hidden < 1 || hidden > ENCODE_SMALL_MAX_HIDDEN || hidden % ENCODE_SMALL_TILE != 0) {
      return false;
    }
    int headSize = hidden / heads;
    return heads * headSize == hidden
        && headSize % ENCODE_SMALL_TILE == 0
        && headSize <= ENCODE_SMALL_MAX_HEAD_SIZE
        && ffn % ENCODE_SMALL_TILE == 0
        && ffn <= ENCODE_SMALL_MAX_FFN;
  }

  /**
   * {@return {@code reference} preceded by what each CUDA kernel does first}: wait for the kernel
   * before it and let the next one launch (encoder_kernels.cu's {@code wait_for_previous_kernel}
   * and {@code let_next_kernel_launch}), so that the simulator, which starts a programmatic
   * dependent launch early, runs them in the order a GPU does
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
    for (Kernel k :
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
            ENCODE_SMALL)) {
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
   */
  public static GraphNode<@Nullable Void> embedLayerNormHalf(
      DeviceBuffer<Integer> ids,
      DeviceBuffer<Integer> types,
      Tables tables,
      DeviceBuffer<Float> x,
      DeviceBuffer<Short> xHalf,
      int batch,
      int length) {
    Object[] arguments = embedArguments(ids, types, tables, x, batch, length);
    Object[] withHalf = java.util.Arrays.copyOf(arguments, arguments.length + 1);
    withHalf[arguments.length] = xHalf;
    return EMBED_LAYER_NORM_HALF.launch(LaunchConfig.of(batch * length, BLOCK), withHalf);
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
   */
  public static GraphNode<@Nullable Void> layerNormHalf(
      DeviceBuffer<Float> in,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      DeviceBuffer<Float> out,
      DeviceBuffer<Short> outHalf,
      int rows,
      float epsilon) {
    return layerNormHalf(in, gamma, beta, out, outHalf, rows, epsilon, false);
  }

  /**
   * {@return {@link #layerNormHalf}, as a programmatic dependent launch where {@code programmatic}}
   *
   * @param in the rows
   * @param gamma LayerNorm's scale, a row's width
   * @param beta LayerNorm's shift
   * @param out the normalised rows, which may be {@code in}
   * @param outHalf the normalised rows rounded to fp16
   * @param rows the rows
   * @param epsilon added to the variance
   * @param programmatic whether to launch it as a programmatic dependent launch
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
    return layerNorm(in, gamma, beta, out, rows, epsilon, false);
  }

  /**
   * {@return {@link #layerNorm}, as a programmatic dependent launch where {@code programmatic}}
   *
   * @param in the rows
   * @param gamma LayerNorm's scale, a row's width
   * @param beta LayerNorm's shift
   * @param out the normalised rows, which may be {@code in}
   * @param rows the rows
   * @param epsilon added to the variance
   * @param programmatic whether to launch it as a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> layerNorm(
      DeviceBuffer<Float> in,
      DeviceBuffer<Float> gamma,
      DeviceBuffer<Float> beta,
      DeviceBuffer<Float> out,
      int rows,
      float epsilon,
      boolean programmatic) {
    return LAYER_NORM.launch(
        dependent(LaunchConfig.of(rows, BLOCK), programmatic),
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
    return attention(qkv, mask, out, batch, length, heads, headSize, false);
  }

  /**
   * {@return {@link #attention}, as a programmatic dependent launch where {@code programmatic}}
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head, at most {@value #MAX_HEAD_SIZE}
   * @param programmatic whether to launch it as a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> attention(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Float> out,
      int batch,
      int length,
      int heads,
      int headSize,
      boolean programmatic) {
    return ATTENTION.launch(
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
   * {@return the masked attention of a padded batch, as {@link #attention}, into fp16}
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head, at most {@value #MAX_HEAD_SIZE}
   */
  public static GraphNode<@Nullable Void> attentionHalf(
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Short> out,
      int batch,
      int length,
      int heads,
      int headSize) {
    return attentionHalf(qkv, mask, out, batch, length, heads, headSize, false);
  }

  /**
   * {@return {@link #attentionHalf}, as a programmatic dependent launch where {@code programmatic}}
   *
   * @param qkv the fused projection's rows, {@code Q | K | V}
   * @param mask 1 for a token, 0 for padding
   * @param out the context rows
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the heads
   * @param headSize the width of a head, at most {@value #MAX_HEAD_SIZE}
   * @param programmatic whether to launch it as a programmatic dependent launch
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
   * @param programmatic whether to launch it as a programmatic dependent launch
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
    return gelu(x, n, false);
  }

  /**
   * {@return {@link #gelu(DeviceBuffer, long)}, as a programmatic dependent launch where {@code
   * programmatic}}
   *
   * @param x the activations, in place
   * @param n how many
   * @param programmatic whether to launch it as a programmatic dependent launch
   */
  public static GraphNode<@Nullable Void> gelu(
      DeviceBuffer<Float> x, long n, boolean programmatic) {
    int blocks = (int) Math.min(GELU_MAX_BLOCKS, (n + BLOCK - 1) / BLOCK);
    return GELU.launch(dependent(LaunchConfig.of(blocks, BLOCK), programmatic), x, n);
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
   */
  public static GraphNode<@Nullable Void> poolNormalize(
      DeviceBuffer<Float> x,
      DeviceBuffer<Integer> mask,
      DeviceBuffer<Float> out,
      DeviceBuffer<Float> norms,
      int batch,
      int length,
      int hidden,
      Pooling pooling) {
    return poolNormalize(x, mask, out, norms, batch, length, hidden, pooling, false);
  }

  /**
   * {@return {@link #poolNormalize}, as a programmatic dependent launch where {@code programmatic}}
   *
   * @param x the last hidden states, {@code batch * length * hidden}
   * @param mask 1 for a token, 0 for padding
   * @param out the unit vectors, {@code batch * hidden}
   * @param norms the norms, {@code batch}
   * @param batch the sequences
   * @param length the length they are padded to
   * @param hidden a row's width
   * @param pooling the mean over the mask or the first row
   * @param programmatic whether to launch it as a programmatic dependent launch
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
   * {@return {@code config} as a programmatic dependent launch where {@code programmatic}}: every
   * kernel of encoder_kernels.cu waits for the one before it before it touches activations, so any
   * may be one
   */
  private static LaunchConfig dependent(LaunchConfig config, boolean programmatic) {
    return programmatic ? config.withProgrammaticDependentLaunch() : config;
  }

  /**
   * {@return the whole forward pass of a small batch in one kernel, {@code encode_small}}: the
   * embeddings and their LayerNorm, every layer of {@code stack}, the last LayerNorm, and each
   * sequence pooled as {@code pooling} says and L2-normalised into {@code out} and {@code norms},
   * as {@link #poolNormalize} writes them. The products take fp16 operands (the LayerNorms' rows,
   * the context and the activations after GELU, rounded to fp16) and sum in fp32; the residual
   * stream, LayerNorm, softmax and pooling are fp32; GELU is the exact erf form. The scale of the
   * attention scores is {@code 1 / sqrt(head size)}, as {@link #attention}'s.
   *
   * @param ids the token ids, {@code batch * length}
   * @param types the token types, as many
   * @param mask 1 for a token, 0 for padding, as many
   * @param tables the embedding tables, their LayerNorm, and the epsilon of every LayerNorm
   * @param stack every layer's weights
   * @param h scratch: {@link #encodeSmallRows}{@code (batch * length) * hidden} fp32
   * @param x scratch: as many fp32
   * @param context scratch: as many fp16
   * @param inner scratch: {@code encodeSmallRows(batch * length) * ffn} fp16
   * @param out the unit vectors, {@code batch * hidden}
   * @param norms the norms, {@code batch}
   * @param sync {@link #encodeSmallSyncInts}{@code (layers)} ints, 0 before the first launch; the
   *     kernel leaves them 0, so one buffer serves launch after launch on one stream
   * @param batch the sequences
   * @param length the length they are padded to
   * @param heads the attention heads
   * @param pooling the mean over the mask or the first row
   * @param programmatic whether to launch it as a programmatic dependent launch
   * @throws IllegalArgumentException for sizes {@code encode_small} does not take ({@link
   *     #encodeSmallTakes})
   */
  public static GraphNode<@Nullable Void> encodeSmall(
      DeviceBuffer<Integer> ids,
      DeviceBuffer<Integer> types,
      DeviceBuffer<Integer> mask,
      Tables tables,
      Stack stack,
      DeviceBuffer<Float> h,
      DeviceBuffer<Float> x,
      DeviceBuffer<Short> context,
      DeviceBuffer<Short> inner,
      DeviceBuffer<Float> out,
      DeviceBuffer<Float> norms,
      DeviceBuffer<Integer> sync,
      int batch,
      int length,
      int heads,
      Pooling pooling,
      boolean programmatic) {
    int hidden = tables.hidden(), ffn = stack.ffn(), layers = stack.layers();
    long tokens = (long) batch * length;
    if (batch < 1
        || length < 1
        || tokens > ENCODE_SMALL_MAX_TOKENS
        || layers > ENCODE_SMALL_MAX_LAYERS
        || stack.hidden() != hidden
        || !encodeSmallTakes((int) tokens, hidden, heads, ffn)) {
      throw new IllegalArgumentException(
          "EncoderKernels.encodeSmall: "
              + batch
              + " sequences of "
              + length
              + " tokens, rows of "
              + hidden
              + " (the layers' "
              + stack.hidden()
              + ") in "
              + heads
              + " heads, feed-forward activations of "
              + ffn
              + ", "
              + layers
              + " layers; encode_small takes 1 to "
              + ENCODE_SMALL_MAX_TOKENS
              + " tokens, rows of up to "
              + ENCODE_SMALL_MAX_HIDDEN
              + " that are a multiple of 16, heads of 16 or 32, activations a multiple of 16 and up"
              + " to "
              + ENCODE_SMALL_MAX_LAYERS
              + " layers (use the cuBLASLt path for other shapes)");
    }
    return ENCODE_SMALL.launch(
        dependent(
            LaunchConfig.of(encodeSmallBlocks(layers, hidden, heads, ffn), ENCODE_SMALL_BLOCK),
            programmatic),
        ids,
        types,
        mask,
        tables.word(),
        tables.position(),
        tables.type(),
        tables.gamma(),
        tables.beta(),
        stack.qkv(),
        stack.qkvBias(),
        stack.attentionOutput(),
        stack.attentionOutputBias(),
        stack.attentionGamma(),
        stack.attentionBeta(),
        stack.intermediate(),
        stack.intermediateBias(),
        stack.output(),
        stack.outputBias(),
        stack.outputGamma(),
        stack.outputBeta(),
        h,
        x,
        context,
        inner,
        out,
        norms,
        sync,
        batch,
        length,
        layers,
        hidden,
        heads,
        ffn,
        tables.vocabulary(),
        tables.positions(),
        tables.types(),
        pooling == Pooling.CLS ? 1 : 0,
        tables.epsilon(),
        (float) (1 / Math.sqrt(hidden / heads)));
  }

  /**
   * Every layer's weights for {@link #encodeSmall}, each kind in one buffer of all the layers,
   * layer {@code l}'s at {@code l} times a layer's size; each weight matrix {@code [in, out]}
   * row-major (the right operand of {@code x W}) in fp16, the rest fp32.
   *
   * @param qkv the query, key and value weights side by side, {@code [layers][hidden][3 * hidden]}
   * @param qkvBias their biases side by side, {@code [layers][3 * hidden]}
   * @param attentionOutput the attention's output projection, {@code [layers][hidden][hidden]}
   * @param attentionOutputBias its bias, {@code [layers][hidden]}
   * @param attentionGamma the attention LayerNorm's scale, {@code [layers][hidden]}
   * @param attentionBeta its shift, {@code [layers][hidden]}
   * @param intermediate the up projection, {@code [layers][hidden][ffn]}
   * @param intermediateBias its bias, {@code [layers][ffn]}
   * @param output the down projection, {@code [layers][ffn][hidden]}
   * @param outputBias its bias, {@code [layers][hidden]}
   * @param outputGamma the output LayerNorm's scale, {@code [layers][hidden]}
   * @param outputBeta its shift, {@code [layers][hidden]}
   * @param layers the layers, at least 1
   */
  public record Stack(
      DeviceBuffer<Short> qkv,
      DeviceBuffer<Float> qkvBias,
      DeviceBuffer<Short> attentionOutput,
      DeviceBuffer<Float> attentionOutputBias,
      DeviceBuffer<Float> attentionGamma,
      DeviceBuffer<Float> attentionBeta,
      DeviceBuffer<Short> intermediate,
      DeviceBuffer<Float> intermediateBias,
      DeviceBuffer<Short> output,
      DeviceBuffer<Float> outputBias,
      DeviceBuffer<Float> outputGamma,
      DeviceBuffer<Float> outputBeta,
      int layers) {

    /**
     * Checks that every buffer holds {@code layers} layers of the sizes the biases give: a launch
     * would otherwise read past a buffer or a layer's weights at another's offset.
     *
     * @throws IllegalArgumentException if one does not
     */
    public Stack {
      if (layers < 1) {
        throw new IllegalArgumentException("EncoderKernels.Stack: " + layers + " layers");
      }
      long hidden = outputBias.length() / layers, ffn = intermediateBias.length() / layers;
      check("qkv", qkv, layers * hidden * 3 * hidden);
      check("qkvBias", qkvBias, layers * 3 * hidden);
      check("attentionOutput", attentionOutput, layers * hidden * hidden);
      check("attentionOutputBias", attentionOutputBias, layers * hidden);
      check("attentionGamma", attentionGamma, layers * hidden);
      check("attentionBeta", attentionBeta, layers * hidden);
      check("intermediate", intermediate, layers * hidden * ffn);
      check("intermediateBias", intermediateBias, layers * ffn);
      check("output", output, layers * ffn * hidden);
      check("outputBias", outputBias, layers * hidden);
      check("outputGamma", outputGamma, layers * hidden);
      check("outputBeta", outputBeta, layers * hidden);
    }

    private static void check(String name, DeviceBuffer<?> buffer, long length) {
      if (buffer.length() != length) {
        throw new IllegalArgumentException(
            "EncoderKernels.Stack: "
                + name
                + " holds "
                + buffer.length()
                + " elements, not the "
                + length
                + " its layers take (hidden and ffn from the biases)");
      }
    }

    int hidden() {
      return Math.toIntExact(outputBias.length() / layers);
    }

    int ffn() {
      return Math.toIntExact(intermediateBias.length() / layers);
    }
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
   * {@code encode_small}: the forward pass of ReferenceEncoder with fp16 rounding where the kernel
   * rounds (each LayerNorm's rows as a product's input, the context, the activations after GELU),
   * every other value a float, sums in double. It writes {@code out} and {@code norms} only: the
   * scratch and {@code sync} are the kernel's own (sync back at 0 when it ends), so their bounds
   * are checked and their contents left as they are.
   */
  private static void encodeSmall(KernelCall call) {
    int batch = call.i32(27), length = call.i32(28), layers = call.i32(29), hidden = call.i32(30);
    int heads = call.i32(31), ffn = call.i32(32);
    int vocabulary = call.i32(33), positions = call.i32(34), typeCount = call.i32(35);
    boolean cls = call.i32(36) != 0;
    float epsilon = call.f32(37);
    double scale = call.f32(38);
    long tokenCount = (long) batch * length;
    if (batch < 1
        || length < 1
        || tokenCount > ENCODE_SMALL_MAX_TOKENS
        || layers < 1
        || layers > ENCODE_SMALL_MAX_LAYERS
        || !encodeSmallTakes((int) tokenCount, hidden, heads, ffn)
        || call.grid().x() != blocks(layers, hidden, heads, ffn)
        || call.block().x() != ENCODE_SMALL_BLOCK) {
      // What the kernel does before any wait: NaN over what the caller reads, and nothing else.
      if (batch > 0 && hidden > 0) {
        fillNan(floats(call, 24, (long) batch * hidden), 0, (long) batch * hidden);
        fillNan(floats(call, 25, batch), 0, batch);
      }
      return;
    }
    int tokens = (int) tokenCount, headSize = hidden / heads, rows = encodeSmallRows(tokens);
    floats(call, 20, (long) rows * hidden);
    floats(call, 21, (long) rows * hidden);
    call.memory(22, (long) rows * hidden * Short.BYTES);
    call.memory(23, (long) rows * ffn * Short.BYTES);
    ints(call, 26, encodeSmallSyncInts(layers));
    MemorySegment out = floats(call, 24, (long) batch * hidden);
    MemorySegment norms = floats(call, 25, batch);
    MemorySegment ids = ints(call, 0, tokens);
    MemorySegment types = ints(call, 1, tokens);
    MemorySegment maskMemory = ints(call, 2, tokens);
    int[] mask = new int[tokens];
    for (int r = 0; r < tokens; r++) {
      mask[r] = maskMemory.getAtIndex(I, r);
    }

    // The embeddings, before their LayerNorm (the first layer's).
    float[][] h = new float[tokens][];
    for (int r = 0; r < tokens; r++) {
      int id = ids.getAtIndex(I, r), type = types.getAtIndex(I, r), pos = r % length;
      if (id < 0 || id >= vocabulary || pos >= positions || type < 0 || type >= typeCount) {
        h[r] = new float[hidden];
        java.util.Arrays.fill(h[r], Float.NaN);
        continue;
      }
      // The rows the kernel reads, and no more.
      float[] w = row(floats(call, 3, (id + 1L) * hidden), (long) id * hidden, hidden);
      float[] p = row(floats(call, 4, (pos + 1L) * hidden), (long) pos * hidden, hidden);
      float[] t = row(floats(call, 5, (type + 1L) * hidden), (long) type * hidden, hidden);
      h[r] = new float[hidden];
      for (int i = 0; i < hidden; i++) {
        h[r][i] = (float) ((double) w[i] + t[i] + p[i]);
      }
    }

    int qkvWidth = 3 * hidden;
    float[] gamma = row(floats(call, 6, hidden), 0, hidden);
    float[] beta = row(floats(call, 7, hidden), 0, hidden);
    for (int l = 0; l < layers; l++) {
      float[][] xin = new float[tokens][];
      for (int r = 0; r < tokens; r++) {
        xin[r] = ReferenceEncoder.layerNorm(h[r], gamma, beta, epsilon);
      }
      float[][] qkv =
          product(
              halves(xin),
              halfLayer(call, 8, l, (long) hidden * qkvWidth),
              floatLayer(call, 9, l, qkvWidth),
              null,
              qkvWidth);

      float[][] context = new float[tokens][hidden];
      double[] scores = new double[length];
      for (int b = 0; b < batch; b++) {
        int first = b * length;
        for (int head = 0; head < heads; head++) {
          int q = head * headSize, k = hidden + q, v = 2 * hidden + q;
          for (int i = 0; i < length; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < length; j++) {
              if (mask[first + j] == 0) {
                continue;
              }
              double dot = 0;
              for (int d = 0; d < headSize; d++) {
                dot += (double) qkv[first + i][q + d] * qkv[first + j][k + d];
              }
              scores[j] = dot * scale;
              max = Math.max(max, scores[j]);
            }
            if (max == Double.NEGATIVE_INFINITY) { // no key kept: zeros, as context holds
              continue;
            }
            double total = 0;
            for (int j = 0; j < length; j++) {
              scores[j] = mask[first + j] != 0 ? Math.exp(scores[j] - max) : 0;
              total += scores[j];
            }
            for (int d = 0; d < headSize; d++) {
              // Every key's value times its weight, 0 where masked, as the kernel sums them: a
              // NaN row (an id outside its table) reaches its sequence's output even where masked.
              double sum = 0;
              for (int j = 0; j < length; j++) {
                sum += scores[j] * qkv[first + j][v + d];
              }
              context[first + i][q + d] = half((float) (sum / total));
            }
          }
        }
      }

      float[][] attended =
          product(
              context,
              halfLayer(call, 10, l, (long) hidden * hidden),
              floatLayer(call, 11, l, hidden),
              xin,
              hidden);
      float[] attentionGamma = floatLayer(call, 12, l, hidden);
      float[] attentionBeta = floatLayer(call, 13, l, hidden);
      float[][] x1 = new float[tokens][];
      for (int r = 0; r < tokens; r++) {
        x1[r] = ReferenceEncoder.layerNorm(attended[r], attentionGamma, attentionBeta, epsilon);
      }
      float[][] inner =
          geluHalves(
              sums(halves(x1), halfLayer(call, 14, l, (long) hidden * ffn), ffn),
              floatLayer(call, 15, l, ffn));
      h =
          product(
              inner,
              halfLayer(call, 16, l, (long) ffn * hidden),
              floatLayer(call, 17, l, hidden),
              x1,
              hidden);
      gamma = floatLayer(call, 18, l, hidden);
      beta = floatLayer(call, 19, l, hidden);
    }

    // The last LayerNorm, then pooling as pool_normalize pools.
    float[][] last = new float[tokens][];
    for (int r = 0; r < tokens; r++) {
      last[r] = ReferenceEncoder.layerNorm(h[r], gamma, beta, epsilon);
    }
    for (int b = 0; b < batch; b++) {
      int first = b * length;
      int[] keep = java.util.Arrays.copyOfRange(mask, first, first + length);
      float[] pooled = new float[hidden];
      if (cls && keep[0] != 0) {
        pooled = last[first];
      } else if (!cls && java.util.Arrays.stream(keep).anyMatch(m -> m != 0)) {
        pooled =
            ReferenceEncoder.meanPooled(
                java.util.Arrays.copyOfRange(last, first, first + length), keep);
      }
      float norm = (float) ReferenceEncoder.norm(pooled);
      setRow(out, (long) b * hidden, norm > 0 ? ReferenceEncoder.normalized(pooled) : pooled);
      norms.setAtIndex(F, b, norm);
    }
  }

  /** {@return layer {@code layer}'s {@code size} fp16 values of stacked argument {@code index}} */
  private static float[] halfLayer(KernelCall call, int index, int layer, long size) {
    MemorySegment m = call.memory(index, (layer + 1) * size * Short.BYTES);
    float[] values = new float[Math.toIntExact(size)];
    for (int i = 0; i < values.length; i++) {
      values[i] = Float.float16ToFloat(m.getAtIndex(H, layer * size + i));
    }
    return values;
  }

  /** {@return layer {@code layer}'s {@code size} floats of stacked argument {@code index}} */
  private static float[] floatLayer(KernelCall call, int index, int layer, int size) {
    return row(floats(call, index, (layer + 1L) * size), (long) layer * size, size);
  }

  /** {@return {@code value} rounded to fp16, as a float} */
  private static float half(float value) {
    return Float.float16ToFloat(Float.floatToFloat16(value));
  }

  /** {@return {@code rows} rounded to fp16, as floats} */
  private static float[][] halves(float[][] rows) {
    float[][] rounded = new float[rows.length][];
    for (int r = 0; r < rows.length; r++) {
      rounded[r] = new float[rows[r].length];
      for (int i = 0; i < rows[r].length; i++) {
        rounded[r][i] = half(rows[r][i]);
      }
    }
    return rounded;
  }

  /** {@return {@code a w} for each row of {@code a}, {@code w} being {@code [k, n]}, in double} */
  private static double[][] sums(float[][] a, float[] w, int n) {
    double[][] sums = new double[a.length][n];
    for (int r = 0; r < a.length; r++) {
      double[] s = sums[r];
      for (int i = 0; i < a[r].length; i++) {
        double left = a[r][i];
        int at = i * n;
        for (int c = 0; c < n; c++) {
          s[c] += left * w[at + c];
        }
      }
    }
    return sums;
  }

  /** {@return {@code a w + bias (+ residual)} for each row of {@code a}, each a float} */
  private static float[][] product(
      float[][] a, float[] w, float[] bias, float @Nullable [][] residual, int n) {
    double[][] sums = sums(a, w, n);
    float[][] out = new float[a.length][n];
    for (int r = 0; r < a.length; r++) {
      for (int c = 0; c < n; c++) {
        double v = sums[r][c] + bias[c];
        if (residual != null) {
          v += residual[r][c];
        }
        out[r][c] = (float) v;
      }
    }
    return out;
  }

  /** {@return fp16(GELU(sums + bias)) for each row, GELU's value a float before its rounding} */
  private static float[][] geluHalves(double[][] sums, float[] bias) {
    float[][] out = new float[sums.length][bias.length];
    for (int r = 0; r < sums.length; r++) {
      for (int c = 0; c < bias.length; c++) {
        out[r][c] = half((float) ReferenceEncoder.gelu(sums[r][c] + bias[c]));
      }
    }
    return out;
  }
}
