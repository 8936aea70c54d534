// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.Device;
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
import cuda.graph.llm.internal.checkpoint.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The engine's kernels (src/main/cuda/llm_kernels.cu, compiled to PTX by regenerate.sh) with their
 * Java references, which the simulator runs, and the launches a step makes of them.
 *
 * <p>Each reference computes what its CUDA kernel computes for the blocks of the launch's grid,
 * reading only the memory the kernel reads: values of the weights' type widened exactly, fp32 for
 * what the kernel keeps in fp32, each stored value rounded to its buffer's type (to nearest even).
 * Sums the kernels make in fp32 in a tree (a row's squares, a softmax's total) the references make
 * in double, so on a GPU the results differ from the references in the last bits; the sampling
 * reference follows the kernel's order (chunks of the vocabulary a thread each, their sums in
 * thread order) so that a seed picks the same token on every provider but where a rounding lands a
 * draw on a boundary between two tokens.
 */
public final class LlmKernels {

  /** Threads a block of embed and silu_mul. */
  public static final int BLOCK = 128;

  /**
   * Threads a block of the norms: a row of up to {@code NORM_VECTORS} (8) 16-byte pieces a thread,
   * 8,192 floats, is read once, every load in flight at once.
   */
  public static final int NORM_BLOCK = 256;

  /** Threads a block of RoPE with the cache writes: a token of Llama-3.2-1B in three turns. */
  public static final int ROPE_BLOCK = 512;

  /** Threads a block of attention: {@code ATT_WARPS} (4) warps a (token, head). */
  public static final int ATTENTION_BLOCK = 128;

  /**
   * Threads a block of grouped attention: {@code GROUPED_WARPS} (4) warps a (token, kv head,
   * split), each taking tiles of 32 positions; exactly this many, or the kernel writes NaN rows.
   */
  public static final int GROUPED_ATTENTION_BLOCK = 128;

  /** Block numbers of a split grouped attention keeps in shared memory: {@code GROUPED_TABLE}. */
  static final int GROUPED_TABLE = 128;

  /** The most dynamic shared memory a block of an H100 may take: 227 KiB. */
  static final int MAX_DYNAMIC_SHARED_BYTES = 227 * 1024;

  /** The most splits of a token's positions grouped attention takes: {@code MAX_SPLITS}. */
  public static final int MAX_SPLITS = 32;

  /**
   * The most blocks grouped attention's splits make: a step of few tokens splits each token's
   * positions so that batch 1 does not run on 8 SMs, but into no more blocks than one wave of an
   * H100 or H200 holds (132 SMs, three blocks an SM by their 68 KB of shared memory at
   * Llama-3.2-1B's heads): at batch 32, 2 splits (512 blocks, two waves) took 31.0 us where one
   * took 19.2 (H100, 2026-12-07, benchmarks/runs/2026-12-07-issue40-gpu-14).
   */
  static final int SPLIT_TARGET_BLOCKS = 396;

  /** The most query heads a kv head serves in grouped attention: {@code MAX_GROUP} of the .cu. */
  public static final int MAX_GROUP = 8;

  /** The most token rows {@link #gemv} takes: {@code GEMV_MAX_TOKENS} of the .cu. */
  public static final int GEMV_MAX_TOKENS = 8;

  /** Threads a block of gemv: 8 warps, a row of the weights each. */
  public static final int GEMV_BLOCK = 256;

  /** The most bytes of weights a tile of gemv_stream holds: {@code GEMV_TILE_BYTES}. */
  public static final int GEMV_TILE_BYTES = 16384;

  /** The most tiles gemv_stream keeps in flight a block: {@code GEMV_MAX_STAGES}. */
  public static final int GEMV_MAX_STAGES = 8;

  /** The most rows a tile of gemv_stream holds: {@code GEMV_MAX_TILE_ROWS}. */
  static final int GEMV_MAX_TILE_ROWS = 128;

  /**
   * Tiles in flight a block of gemv_stream: 2 (64 KiB an SM with {@link #GEMV_BLOCKS_PER_SM}); on
   * an H100 at the Llama-3.2-1B shape 4 gave 629 tok/s at batch 1 and 3,141 at batch 8 against 654
   * and 3,257, and 8 left room for one block an SM ({@code -Dcuda.graph.llm.gemvStages} measures
   * another).
   */
  static final int GEMV_STAGES =
      Math.clamp(Integer.getInteger("cuda.graph.llm.gemvStages", 2), 1, GEMV_MAX_STAGES);

  /**
   * Blocks an SM of gemv_stream's grid: its 88-100 registers a thread leave room for two ({@code
   * -Dcuda.graph.llm.gemvBlocksPerSm} measures another).
   */
  static final int GEMV_BLOCKS_PER_SM =
      Math.max(1, Integer.getInteger("cuda.graph.llm.gemvBlocksPerSm", 2));

  /**
   * Blocks an SM of gemv_stream1's grid, which a step of one token takes instead of gemv_stream's;
   * 0: gemv_stream takes it too ({@code -Dcuda.graph.llm.gemvOneBlocksPerSm=N} measures N). 4: on
   * an H100 (2026-12-07, two alternating rounds, batch 1, tok/s) 685.4 and 674.2 against 671.6 and
   * 637.9 with gemv_stream, 610.1 and 568.4 at 6, 595.6 and 612.6 at 8.
   */
  static final int GEMV_ONE_BLOCKS_PER_SM =
      Math.max(0, Integer.getInteger("cuda.graph.llm.gemvOneBlocksPerSm", 4));

  /**
   * Whether a step of one token normalises inside its products (gemv_norm1 for QKV and lm_head,
   * gemv_norm_silu1 for gate/up with SwiGLU: seven kernels a layer instead of ten). {@code
   * -Dcuda.graph.llm.normInProductOne=false} measures the kernels apart.
   */
  static final boolean NORM_IN_PRODUCT_ONE =
      Boolean.parseBoolean(System.getProperty("cuda.graph.llm.normInProductOne", "true"));

  /**
   * Whether a step of one token that normalises inside its products also does RoPE with its cache
   * writes inside the QKV product (gemv_norm_rope1: six kernels a layer). {@code
   * -Dcuda.graph.llm.ropeInProductOne=false} measures rope_cache apart.
   */
  static final boolean ROPE_IN_PRODUCT_ONE =
      Boolean.parseBoolean(System.getProperty("cuda.graph.llm.ropeInProductOne", "true"));

  /** Threads a block of sample, one block a sequence ({@code SAMPLE_THREADS} of the .cu). */
  public static final int SAMPLE_BLOCK = 256;

  /** The widest head attention takes: {@code MAX_HEAD_DIM} of the .cu. */
  public static final int MAX_HEAD_DIM = 256;

  /** Tokens of a KV cache block: {@code BLOCK_SIZE} of the .cu. */
  public static final int BLOCK_SIZE = KvCache.BLOCK_SIZE;

  /** Words a sequence's sampling parameters take: temperature, top-p, seed (2), counter. */
  public static final int SAMPLING_WORDS = 5;

  private static final int SILU_MAX_BLOCKS = 4096;

  private static final KernelParam FLOAT = KernelParam.pointer(ElementType.F32);
  private static final KernelParam INT = KernelParam.pointer(ElementType.I32);
  private static final KernelParam I32 = KernelParam.I32;
  private static final KernelParam F32 = KernelParam.F32;
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private static final KernelImage IMAGE = image();

  private static KernelImage image() {
    KernelImage image = KernelImage.ptxResource(MethodHandles.lookup(), "llm_kernels.ptx");
    for (DType t : DType.values()) {
      String s = suffix(t);
      image =
          image
              .withReference("embed_" + s, stepStart(call -> embed(call, t)))
              .withReference("rms_norm_" + s, stepStart(call -> rmsNorm(call, t, false)))
              .withReference("gather_rms_norm_" + s, stepStart(call -> rmsNorm(call, t, true)))
              .withReference("rope_cache_" + s, stepStart(call -> ropeCache(call, t)))
              .withReference("attention_" + s, stepStart(call -> attention(call, t, false, false)))
              .withReference(
                  "attention_grouped_" + s, stepStart(call -> attention(call, t, true, false)))
              .withReference(
                  "attention_grouped8_" + s, stepStart(call -> attention(call, t, true, true)))
              .withReference("attention_combine_" + s, stepStart(call -> attentionCombine(call, t)))
              .withReference("gemv_" + s, stepStart(call -> gemv(call, t)))
              .withReference("gemv_stream_" + s, stepStart(call -> gemv(call, t)))
              .withReference("gemv_stream1_" + s, stepStart(call -> gemvOne(call, t)))
              .withReference("gemv_norm1_" + s, stepStart(call -> gemvNormOne(call, t)))
              .withReference("gemv_norm_silu1_" + s, stepStart(call -> gemvNormSiluOne(call, t)))
              .withReference("gemv_norm_rope1_" + s, stepStart(call -> gemvNormRopeOne(call, t)))
              .withReference("silu_mul_" + s, stepStart(call -> siluMul(call, t)));
    }
    return image
        .withReference("argmax_parts", stepStart(LlmKernels::argmaxParts))
        .withReference("sample", stepStart(LlmKernels::sample))
        .withReference("trace_to", call -> {}); // the simulator has no timer to record
  }

  /**
   * The kernels' {@code STEP_START}: let the next kernel launch, then wait for the one before, so
   * that under programmatic dependent launch the references read what the CUDA kernels read (the
   * simulator starts a programmatic launch early and holds it at this wait).
   */
  private static JavaKernel stepStart(JavaKernel body) {
    return call -> {
      call.triggerDependentLaunch();
      call.gridDependencySynchronize();
      body.run(call);
    };
  }

  /**
   * {@return a launch of {@code grid} blocks of {@code block} threads that may begin while the
   * kernel before it finishes}: every kernel of the image waits for the kernel before it before it
   * reads (STEP_START), so a step's kernels after the first launch programmatically
   */
  private static LaunchConfig programmatic(int grid, int block) {
    return LaunchConfig.of(grid, block).withProgrammaticDependentLaunch();
  }

  /**
   * The kernels of one weights' type {@code T}.
   *
   * @param embed {@code embed(ids, table, x, hidden, vocab)}: a block per token
   * @param rmsNorm {@code rms_norm(x, weight, out, hidden, eps)}: a block per row
   * @param gatherRmsNorm {@code gather_rms_norm(x, rows, weight, out, hidden, eps)}: row r of out
   *     is the norm of row rows[r] of x
   * @param ropeCache {@code rope_cache(qkv, inv_freq, positions, seq_of_token, block_tables,
   *     k_cache, v_cache, heads, kv_heads, head_dim, max_blocks)}: a block per token
   * @param attention {@code attention(qkv, k_cache, v_cache, positions, seq_of_token, block_tables,
   *     out, heads, kv_heads, head_dim, max_blocks, scale)}: a block per (token, head)
   * @param groupedAttention {@code attention_grouped}, attention's parameters then {@code
   *     partials}: a block per (token, kv head, split), for the shapes {@link Heads#grouped()}
   *     takes with groups of at most 4, {@link #groupedAttentionBytes} of dynamic shared memory
   *     (given less it writes NaN rows); with one split it writes the context rows, with more the
   *     splits' records that {@code attentionCombine} folds
   * @param groupedAttention8 {@code attention_grouped8}: the same for groups of 5 to 8 (a kernel of
   *     its own, for their registers)
   * @param attentionCombine {@code attention_combine(partials, positions, out, heads, kv_heads,
   *     head_dim, splits)}: a block per (token, head)
   * @param gemv {@code gemv(x, w, y, tokens, rows, k, accumulate)}: y = x w^T (or y += it) for at
   *     most {@link #GEMV_MAX_TOKENS} rows of x, a warp a row of w
   * @param gemvStream {@code gemv_stream}, gemv's parameters: the same product with w streamed
   *     through shared memory by bulk copies, a grid sized to the GPU
   * @param gemvStream1 {@code gemv_stream1}, gemv's parameters: gemv_stream for one token row
   *     (tokens is taken as 1), in fewer registers
   * @param gemvNorm1 {@code gemv_norm1(x, norm, w, y, rows, k, eps)}: y = rms_norm(x) w^T for one
   *     fp32 row x, each block normalising x into its shared memory (bit for bit rms_norm's row)
   * @param gemvNormSilu1 {@code gemv_norm_silu1(x, norm, w, h, inter, k, eps)}: h = silu(g) * u
   *     where [g, u] = rms_norm(x) w^T for one row and a stacked gate/up weight {@code 2 inter x
   *     k}, each tile holding rows of both halves (gemv_norm1 and silu_mul in one kernel)
   * @param gemvNormRope1 {@code gemv_norm_rope1(x, norm, w, qkv, inv_freq, positions, seq_of_token,
   *     block_tables, k_cache, v_cache, heads, kv_heads, head_dim, max_blocks, k, eps)}: gemv_norm1
   *     of the QKV weight then rope_cache's work for token 0, each tile holding rows i and i +
   *     head_dim / 2 of a head, the pairs RoPE rotates
   * @param siluMul {@code silu_mul(gu, h, tokens, inter)}: grid-stride
   */
  public record Typed(
      Kernel embed,
      Kernel rmsNorm,
      Kernel gatherRmsNorm,
      Kernel ropeCache,
      Kernel attention,
      Kernel groupedAttention,
      Kernel groupedAttention8,
      Kernel attentionCombine,
      Kernel gemv,
      Kernel gemvStream,
      Kernel gemvStream1,
      Kernel gemvNorm1,
      Kernel gemvNormSilu1,
      Kernel gemvNormRope1,
      Kernel siluMul) {

    /** {@return the grouped attention kernel of query groups of {@code group} heads} */
    public Kernel groupedAttention(int group) {
      return group <= 4 ? groupedAttention : groupedAttention8;
    }

    /** {@return the fifteen kernels} */
    public List<Kernel> all() {
      return List.of(
          embed,
          rmsNorm,
          gatherRmsNorm,
          ropeCache,
          attention,
          groupedAttention,
          groupedAttention8,
          attentionCombine,
          gemv,
          gemvStream,
          gemvStream1,
          gemvNorm1,
          gemvNormSilu1,
          gemvNormRope1,
          siluMul);
    }
  }

  private static final Map<DType, Typed> TYPED = new EnumMap<>(DType.class);

  static {
    for (DType t : DType.values()) {
      String s = suffix(t);
      KernelParam w = KernelParam.pointer(Numerics.elementType(t));
      TYPED.put(
          t,
          new Typed(
              IMAGE.kernel("embed_" + s, INT, w, FLOAT, I32, I32),
              IMAGE.kernel("rms_norm_" + s, FLOAT, w, w, I32, F32),
              IMAGE.kernel("gather_rms_norm_" + s, FLOAT, INT, w, w, I32, F32),
              IMAGE.kernel(
                  "rope_cache_" + s, FLOAT, FLOAT, INT, INT, INT, w, w, I32, I32, I32, I32),
              IMAGE.kernel(
                  "attention_" + s, FLOAT, w, w, INT, INT, INT, w, I32, I32, I32, I32, F32),
              grouped("attention_grouped_" + s, w),
              grouped("attention_grouped8_" + s, w),
              IMAGE.kernel("attention_combine_" + s, FLOAT, INT, w, I32, I32, I32, I32),
              IMAGE.kernel("gemv_" + s, w, w, FLOAT, I32, I32, I32, I32),
              IMAGE.kernel("gemv_stream_" + s, w, w, FLOAT, I32, I32, I32, I32),
              IMAGE.kernel("gemv_stream1_" + s, w, w, FLOAT, I32, I32, I32, I32),
              IMAGE.kernel("gemv_norm1_" + s, FLOAT, w, w, FLOAT, I32, I32, F32),
              IMAGE.kernel("gemv_norm_silu1_" + s, FLOAT, w, w, w, I32, I32, F32),
              IMAGE.kernel(
                  "gemv_norm_rope1_" + s,
                  FLOAT,
                  w,
                  w,
                  FLOAT,
                  FLOAT,
                  INT,
                  INT,
                  INT,
                  w,
                  w,
                  I32,
                  I32,
                  I32,
                  I32,
                  I32,
                  F32),
              IMAGE.kernel("silu_mul_" + s, FLOAT, w, I32, I32)));
    }
  }

  private static Kernel grouped(String name, KernelParam w) {
    return IMAGE.kernel(name, FLOAT, w, w, INT, INT, INT, w, I32, I32, I32, I32, F32, FLOAT);
  }

  /**
   * {@code argmax_parts(logits, keys, vocab)}: a block of {@link #SAMPLE_BLOCK} a (sequence, part)
   * of a grid (sequences, parts), the largest key of the part as two ints.
   */
  public static final Kernel ARGMAX_PARTS = IMAGE.kernel("argmax_parts", FLOAT, INT, I32);

  /**
   * {@code sample(logits, params, out, vocab, keys, parts)}: a block of {@link #SAMPLE_BLOCK} a
   * sequence, its argmax from argmax_parts' keys.
   */
  public static final Kernel SAMPLE = IMAGE.kernel("sample", FLOAT, INT, INT, I32, INT, I32);

  /**
   * {@code trace_to(out, on)}: names the buffer of the kernel timeline (testkit's {@code
   * KernelTimeline}) for the launches after it (on != 0), or stops recording (on == 0). Only the
   * PTX that {@code regenerate.sh --trace} builds records anything; the committed one's kernels
   * never read the pointer. One thread; the reference does nothing.
   */
  public static final Kernel TRACE_TO =
      IMAGE.kernel("trace_to", KernelParam.pointer(ElementType.I64), I32);

  /**
   * The kernels' names, without their weights' type, by their number in the kernel timeline's
   * records: the order of the .cu, whose {@code KERNEL_TRACE_SCOPE(n)} opens each (LlmKernelsTests
   * checks the two agree).
   */
  public static final List<String> TRACED =
      List.of(
          "embed",
          "rms_norm",
          "gather_rms_norm",
          "rope_cache",
          "attention",
          "attention_grouped",
          "attention_grouped8",
          "attention_combine",
          "gemv",
          "gemv_stream",
          "gemv_stream1",
          "gemv_norm1",
          "gemv_norm_silu1",
          "gemv_norm_rope1",
          "silu_mul",
          "argmax_parts",
          "sample");

  /**
   * The blocks a step's argmax aims for: at batch 1 a 128,256-wide row in 64 parts, not one SM's
   * scan (61 us a step on an H100, 2026-12-07).
   */
  static final int ARGMAX_TARGET_BLOCKS = 64;

  private LlmKernels() {}

  private static String suffix(DType t) {
    return switch (t) {
      case F32 -> "f32";
      case F16 -> "f16";
      case BF16 -> "bf16";
    };
  }

  /** {@return the kernels of weights' type {@code type}} */
  public static Typed of(DType type) {
    return TYPED.get(type);
  }

  /** {@return every kernel of the image} */
  public static List<Kernel> all() {
    List<Kernel> all = new ArrayList<>();
    for (DType t : DType.values()) {
      all.addAll(of(t).all());
    }
    all.add(ARGMAX_PARTS);
    all.add(SAMPLE);
    all.add(TRACE_TO);
    return List.copyOf(all);
  }

  /**
   * Loads every kernel on {@code device}, so that no capture loads a module.
   *
   * @param device the device the kernels run on
   */
  public static void loadAll(Device device) {
    for (Kernel k : all()) {
      k.load(device);
    }
  }

  // The launches.

  /**
   * {@return x[t] = table[ids[t]] in fp32 for each of {@code tokens} tokens}
   *
   * @param type the table's type
   * @param ids the token ids
   * @param table the embedding table, {@code vocab x hidden}
   * @param x the rows written
   * @param tokens the tokens
   * @param hidden a row's width
   * @param vocab the table's rows
   */
  public static GraphNode<@Nullable Void> embed(
      DType type,
      DeviceBuffer<Integer> ids,
      DeviceBuffer<?> table,
      DeviceBuffer<Float> x,
      int tokens,
      int hidden,
      int vocab) {
    return of(type).embed().launch(LaunchConfig.of(tokens, BLOCK), ids, table, x, hidden, vocab);
  }

  /**
   * {@return out[r] = RMSNorm(x[r]) * weight for each of {@code rows} rows}
   *
   * @param type the weight's and out's type
   * @param x the rows, fp32
   * @param weight the norm's weight, a row's width
   * @param out the normalised rows
   * @param rows the rows
   * @param hidden a row's width
   * @param epsilon added to the mean square
   */
  public static GraphNode<@Nullable Void> rmsNorm(
      DType type,
      DeviceBuffer<Float> x,
      DeviceBuffer<?> weight,
      DeviceBuffer<?> out,
      int rows,
      int hidden,
      float epsilon) {
    return of(type)
        .rmsNorm()
        .launch(programmatic(rows, NORM_BLOCK), x, weight, out, hidden, epsilon);
  }

  /**
   * {@return out[r] = RMSNorm(x[rows[r]]) * weight for each of {@code count} rows}
   *
   * @param type the weight's and out's type
   * @param x the rows, fp32
   * @param rows the row of x each output row normalises
   * @param weight the norm's weight
   * @param out the normalised rows
   * @param count the rows of out
   * @param hidden a row's width
   * @param epsilon added to the mean square
   */
  public static GraphNode<@Nullable Void> gatherRmsNorm(
      DType type,
      DeviceBuffer<Float> x,
      DeviceBuffer<Integer> rows,
      DeviceBuffer<?> weight,
      DeviceBuffer<?> out,
      int count,
      int hidden,
      float epsilon) {
    return of(type)
        .gatherRmsNorm()
        .launch(programmatic(count, NORM_BLOCK), x, rows, weight, out, hidden, epsilon);
  }

  /**
   * The shapes of attention: heads, kv heads, a head's width and the columns of a block table.
   *
   * @param heads query heads
   * @param kvHeads key/value heads, dividing {@code heads}
   * @param headDim a head's width, even, at most {@link #MAX_HEAD_DIM}
   * @param maxBlocks the blocks of a block table's row
   */
  public record Heads(int heads, int kvHeads, int headDim, int maxBlocks) {
    /** {@return the width of a token's QKV row} */
    public int qkvWidth() {
      return (heads + 2 * kvHeads) * headDim;
    }

    /** {@return the width of a token's k (or v) row in the cache} */
    public int kvWidth() {
      return kvHeads * headDim;
    }

    /**
     * {@return whether grouped attention takes these heads: heads of 32, 64 or 128 and at most
     * {@link #MAX_GROUP} query heads a kv head (Llama 3.x, SmolLM2 and TinyLlama among them)}
     */
    public boolean grouped() {
      return (headDim == 32 || headDim == 64 || headDim == 128) && heads / kvHeads <= MAX_GROUP;
    }
  }

  /**
   * {@return q and k of each token's QKV row rotated for its position, k and v written into the
   * cache at the token's slot}
   *
   * @param type the cache's type
   * @param qkv the QKV rows, fp32, rotated in place
   * @param inverseFrequencies {@code headDim / 2} fp32 inverse frequencies ({@link Rope})
   * @param positions each token's position (negative: padding)
   * @param seqOfToken each token's sequence, a row of {@code blockTables}
   * @param blockTables {@code sequences x maxBlocks} block numbers
   * @param kCache the layer's k cache, {@code blocks * BLOCK_SIZE * kvWidth}
   * @param vCache the layer's v cache
   * @param tokens the tokens
   * @param heads the shapes
   */
  public static GraphNode<@Nullable Void> ropeCache(
      DType type,
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Float> inverseFrequencies,
      DeviceBuffer<Integer> positions,
      DeviceBuffer<Integer> seqOfToken,
      DeviceBuffer<Integer> blockTables,
      DeviceBuffer<?> kCache,
      DeviceBuffer<?> vCache,
      int tokens,
      Heads heads) {
    return of(type)
        .ropeCache()
        .launch(
            programmatic(tokens, ROPE_BLOCK),
            qkv,
            inverseFrequencies,
            positions,
            seqOfToken,
            blockTables,
            kCache,
            vCache,
            heads.heads(),
            heads.kvHeads(),
            heads.headDim(),
            heads.maxBlocks());
  }

  /**
   * {@return how many splits grouped attention cuts each of {@code tokens} tokens' positions into}:
   * the largest power of two up to {@link #MAX_SPLITS} that keeps the blocks within {@link
   * #SPLIT_TARGET_BLOCKS}, at least 1; 1 for the plain kernel
   *
   * @param tokens the step's tokens
   * @param heads the shapes
   */
  public static int attentionSplits(int tokens, Heads heads) {
    if (!heads.grouped()) {
      return 1;
    }
    long blocks = (long) tokens * heads.kvHeads();
    int splits = 1;
    while (splits < MAX_SPLITS && blocks * splits * 2 <= SPLIT_TARGET_BLOCKS) {
      splits *= 2;
    }
    return splits;
  }

  /**
   * {@return the floats of the splits' records attention needs for {@code tokens} tokens}: a record
   * of {@code headDim + 2} floats a (token, head, split), none with one split
   *
   * @param tokens the step's tokens
   * @param heads the shapes
   */
  public static long attentionPartialFloats(int tokens, Heads heads) {
    return attentionPartialFloats(tokens, heads, attentionSplits(tokens, heads));
  }

  /**
   * {@return the floats of {@code splits} splits' records for {@code tokens} tokens}: as {@link
   * #attentionPartialFloats(int, Heads)} for splits other than the rule's
   *
   * @param tokens the step's tokens
   * @param heads the shapes
   * @param splits the splits
   */
  public static long attentionPartialFloats(int tokens, Heads heads, int splits) {
    return splits == 1 ? 0 : (long) tokens * heads.heads() * splits * (heads.headDim() + 2);
  }

  /**
   * {@return the dynamic shared memory of a grouped attention block}: {@code GroupedLayout} of the
   * .cu, with two stages a warp where they fit in {@link #MAX_DYNAMIC_SHARED_BYTES} (every shape
   * but fp32 heads of 128), one otherwise
   *
   * @param type the cache's type
   * @param heads the shapes ({@link Heads#grouped()})
   */
  public static int groupedAttentionBytes(DType type, Heads heads) {
    int group = heads.heads() / heads.kvHeads();
    int g = group <= 2 ? 2 : group <= 4 ? 4 : 8;
    int tile = 32 * heads.headDim() * type.bytes();
    for (int stages = 2; ; stages--) {
      int bytes =
          4 * stages * 2 * tile // each warp's stages of a key and a value tile
              + 4
                  * (g * heads.headDim() // the queries
                      + 4 * 32 * g // each warp's tile weights
                      + 2 * 4 * g // the warps' m and l
                      + GROUPED_TABLE); // the split's block numbers
      if (bytes <= MAX_DYNAMIC_SHARED_BYTES || stages == 1) {
        return bytes;
      }
    }
  }

  /**
   * {@return each token's causal attention over its sequence's cache, per head, into {@code out}}:
   * grouped attention where {@link Heads#grouped()} takes the heads (each kv head's keys and values
   * read once for its whole group), over {@code splits} splits of the positions folded by
   * attention_combine; attention otherwise
   *
   * @param type the cache's and out's type
   * @param qkv the rotated QKV rows, fp32 (q is read)
   * @param kCache the layer's k cache
   * @param vCache the layer's v cache
   * @param positions each token's position (negative: padding, whose row is zeros)
   * @param seqOfToken each token's sequence
   * @param blockTables {@code sequences x maxBlocks} block numbers
   * @param out the context rows, {@code tokens x heads * headDim}
   * @param partials the splits' records, at least {@link #attentionPartialFloats} floats (and at
   *     least one)
   * @param tokens the tokens
   * @param heads the shapes
   * @param splits grouped attention's splits, 1 to {@link #MAX_SPLITS} ({@link #attentionSplits}
   *     for the engine's; LlmBench compares others at batch 1); {@code partials} must hold their
   *     records
   */
  public static GraphNode<@Nullable Void> attention(
      DType type,
      DeviceBuffer<Float> qkv,
      DeviceBuffer<?> kCache,
      DeviceBuffer<?> vCache,
      DeviceBuffer<Integer> positions,
      DeviceBuffer<Integer> seqOfToken,
      DeviceBuffer<Integer> blockTables,
      DeviceBuffer<?> out,
      DeviceBuffer<Float> partials,
      int tokens,
      Heads heads,
      int splits) {
    // Both kernels take these; grouped attention takes the splits' records after them.
    Object[] arguments = {
      qkv,
      kCache,
      vCache,
      positions,
      seqOfToken,
      blockTables,
      out,
      heads.heads(),
      heads.kvHeads(),
      heads.headDim(),
      heads.maxBlocks(),
      (float) (1 / Math.sqrt(heads.headDim())),
      partials
    };
    if (!heads.grouped()) {
      return of(type)
          .attention()
          .launch(
              new LaunchConfig(Dim3.of(tokens, heads.heads()), Dim3.of(ATTENTION_BLOCK), 0)
                  .withProgrammaticDependentLaunch(),
              Arrays.copyOf(arguments, arguments.length - 1));
    }
    GraphNode<@Nullable Void> grouped =
        of(type)
            .groupedAttention(heads.heads() / heads.kvHeads())
            .launch(
                new LaunchConfig(
                        Dim3.of(tokens, heads.kvHeads(), splits),
                        Dim3.of(GROUPED_ATTENTION_BLOCK),
                        groupedAttentionBytes(type, heads))
                    .withProgrammaticDependentLaunch(),
                arguments);
    if (splits == 1) {
      return grouped;
    }
    return grouped.andThen(
        of(type)
            .attentionCombine()
            .launch(
                new LaunchConfig(Dim3.of(tokens, heads.heads()), Dim3.of(heads.headDim()), 0)
                    .withProgrammaticDependentLaunch(),
                partials,
                positions,
                out,
                heads.heads(),
                heads.kvHeads(),
                heads.headDim(),
                splits));
  }

  /**
   * {@return whether {@link #gemv} takes a product of {@code tokens} rows of {@code x} by the
   * {@code k}-wide rows of {@code w} into {@code y}}: at most {@link #GEMV_MAX_TOKENS} rows, rows
   * of whole 16-byte pieces, x and w aligned to 16 bytes
   *
   * @param type x's and w's type
   * @param x the left rows
   * @param w the weight
   * @param y the output
   * @param tokens the rows of x
   * @param k a row's width
   */
  public static boolean gemvTakes(
      DType type, DeviceBuffer<?> x, DeviceBuffer<?> w, DeviceBuffer<Float> y, int tokens, int k) {
    return tokens >= 1
        && tokens <= GEMV_MAX_TOKENS
        && (long) k * type.bytes() % 16 == 0
        && x.alignment() >= 16
        && w.alignment() >= 16
        && y.alignment() >= Float.BYTES;
  }

  /**
   * {@return y = x w^T in fp32, or y += x w^T where {@code accumulate}}: the product of a decode
   * step's few rows by a linear layer's {@code [rows, k]} weight, as a stream of the weight
   *
   * @param type x's and w's type
   * @param x {@code tokens x k}
   * @param w {@code rows x k}, row-major (a linear layer's {@code [out, in]})
   * @param y {@code tokens x rows}, fp32
   * @param tokens 1 to {@link #GEMV_MAX_TOKENS}, where {@link #gemvTakes} says so
   * @param rows w's rows
   * @param k a row's width
   * @param accumulate whether to add to y
   */
  public static GraphNode<@Nullable Void> gemv(
      DType type,
      DeviceBuffer<?> x,
      DeviceBuffer<?> w,
      DeviceBuffer<Float> y,
      int tokens,
      int rows,
      int k,
      boolean accumulate) {
    int warps = GEMV_BLOCK / 32;
    return of(type)
        .gemv()
        .launch(
            programmatic((rows + warps - 1) / warps, GEMV_BLOCK),
            x,
            w,
            y,
            tokens,
            rows,
            k,
            accumulate ? 1 : 0);
  }

  /**
   * {@return whether {@link #gemvStream} takes what {@link #gemvTakes} takes, with rows of {@code
   * k} elements}: a row fits a tile of {@link #GEMV_TILE_BYTES} and splits into whole 16-byte
   * pieces between the warps that share it (the .cu's gemv_tiling)
   *
   * @param type x's and w's type
   * @param x the left rows
   * @param w the weight
   * @param y the output
   * @param tokens the rows of x
   * @param k a row's width
   */
  public static boolean gemvStreamTakes(
      DType type, DeviceBuffer<?> x, DeviceBuffer<?> w, DeviceBuffer<Float> y, int tokens, int k) {
    return gemvTakes(type, x, w, y, tokens, k) && gemvStreamFits(type, k);
  }

  /**
   * {@return whether gemv_stream's tiles take rows of {@code k} elements of {@code type}}: whole
   * 16-byte pieces, at most {@link #GEMV_TILE_BYTES}, split evenly between the warps sharing a row
   *
   * @param type the weight's type
   * @param k a row's width
   */
  public static boolean gemvStreamFits(DType type, int k) {
    long rowBytes = (long) k * type.bytes();
    return k >= 1
        && rowBytes % 16 == 0
        && rowBytes <= GEMV_TILE_BYTES
        && (k / warpsPerRow((int) rowBytes)) * type.bytes() % 16 == 0;
  }

  /** {@return the warps that share a row of {@code rowBytes} bytes in gemv_stream's tiles} */
  static int warpsPerRow(int rowBytes) {
    int warps = GEMV_BLOCK / 32;
    if (warps * rowBytes <= GEMV_TILE_BYTES) {
      return 1;
    }
    int rows = warps;
    while (rows > 1 && rows * rowBytes > GEMV_TILE_BYTES) {
      rows /= 2;
    }
    return warps / rows;
  }

  /**
   * {@return {@link #gemv}'s product with the weight streamed through shared memory}: a grid of at
   * most {@code blocks} blocks (a few an SM) each copying an even share of w's rows in tiles, the
   * first requested before the kernel waits for the one before it
   *
   * @param type x's and w's type
   * @param x {@code tokens x k}
   * @param w {@code rows x k}, row-major
   * @param y {@code tokens x rows}, fp32
   * @param tokens 1 to {@link #GEMV_MAX_TOKENS}, where {@link #gemvStreamTakes} says so
   * @param rows w's rows
   * @param k a row's width
   * @param accumulate whether to add to y
   * @param blocks the grid's blocks at most: {@link #gemvStreamBlocks} of the device
   */
  public static GraphNode<@Nullable Void> gemvStream(
      DType type,
      DeviceBuffer<?> x,
      DeviceBuffer<?> w,
      DeviceBuffer<Float> y,
      int tokens,
      int rows,
      int k,
      boolean accumulate,
      int blocks) {
    return of(type)
        .gemvStream()
        .launch(gemvStreamConfig(rows, blocks), x, w, y, tokens, rows, k, accumulate ? 1 : 0);
  }

  /**
   * {@return gemv_stream's launch: a grid of {@code rows} blocks at most {@code blocks}, {@link
   * #GEMV_STAGES} tiles of dynamic shared memory, programmatic}
   *
   * @param rows w's rows
   * @param blocks the most blocks
   */
  static LaunchConfig gemvStreamConfig(int rows, int blocks) {
    return new LaunchConfig(
            Dim3.of(Math.max(1, Math.min(rows, blocks))),
            Dim3.of(GEMV_BLOCK),
            GEMV_STAGES * GEMV_TILE_BYTES)
        .withProgrammaticDependentLaunch();
  }

  /**
   * {@return gemv_stream1's product: {@link #gemvStream}'s for one token row}, on a grid of at most
   * {@code blocks} blocks
   *
   * @param type x's and w's type
   * @param x {@code 1 x k}
   * @param w {@code rows x k}, row-major
   * @param y {@code 1 x rows}, fp32
   * @param rows w's rows
   * @param k a row's width, where {@link #gemvStreamTakes} takes it
   * @param accumulate whether to add to y
   * @param blocks the grid's blocks at most: {@link #GEMV_ONE_BLOCKS_PER_SM} an SM, as BatchStep
   *     chooses
   */
  public static GraphNode<@Nullable Void> gemvStreamOne(
      DType type,
      DeviceBuffer<?> x,
      DeviceBuffer<?> w,
      DeviceBuffer<Float> y,
      int rows,
      int k,
      boolean accumulate,
      int blocks) {
    return of(type)
        .gemvStream1()
        .launch(gemvStreamConfig(rows, blocks), x, w, y, 1, rows, k, accumulate ? 1 : 0);
  }

  /**
   * {@return whether {@link #gemvNormOne} takes a row of {@code k} elements of {@code type}}: where
   * gemv_stream's tiles take it and its buffers are aligned as {@link #gemvStreamTakes} asks
   *
   * @param type the weights' type
   * @param x the fp32 row normalised
   * @param w the weight
   * @param k the row's width
   */
  public static boolean gemvNormTakes(DType type, DeviceBuffer<Float> x, DeviceBuffer<?> w, int k) {
    return gemvStreamFits(type, k) && x.alignment() >= 16 && w.alignment() >= 16;
  }

  /**
   * {@return whether {@link #gemvNormSiluOne} takes a row of {@code k} elements of {@code type}}:
   * where {@link #gemvNormTakes} does and a tile holds a pair of rows
   *
   * @param type the weights' type
   * @param x the fp32 row normalised
   * @param w the stacked gate/up weight
   * @param k the row's width
   */
  public static boolean gemvNormSiluTakes(
      DType type, DeviceBuffer<Float> x, DeviceBuffer<?> w, int k) {
    return gemvNormTakes(type, x, w, k) && tileRows(k * type.bytes()) >= 2;
  }

  /** {@return the rows a tile of gemv_stream holds, rows of {@code rowBytes} (gemv_tiling)} */
  static int tileRows(int rowBytes) {
    int warps = GEMV_BLOCK / 32;
    return warps * rowBytes <= GEMV_TILE_BYTES
        ? Math.min(GEMV_MAX_TILE_ROWS, GEMV_TILE_BYTES / rowBytes)
        : warps / warpsPerRow(rowBytes);
  }

  /**
   * {@return the bytes of shared memory a normalised row of {@code k} elements of {@code type}
   * takes before gemv_norm1's tiles}: rounded up to 128 ({@code normed_row_bytes} of the .cu)
   */
  static int normedRowBytes(DType type, int k) {
    return (k * type.bytes() + 127) / 128 * 128;
  }

  /** {@return gemv_norm1's and gemv_norm_silu1's launch over {@code units} units} */
  static LaunchConfig gemvNormConfig(DType type, int units, int k, int blocks) {
    return new LaunchConfig(
            Dim3.of(Math.max(1, Math.min(units, blocks))),
            Dim3.of(GEMV_BLOCK),
            GEMV_STAGES * GEMV_TILE_BYTES + normedRowBytes(type, k))
        .withProgrammaticDependentLaunch();
  }

  /**
   * {@return y = rms_norm(x) w^T for one row}: rms_norm then gemv_stream1 in one kernel, each block
   * normalising the row into its shared memory after its first tiles are requested
   *
   * @param type the weights' type
   * @param x {@code 1 x k}, fp32
   * @param norm the norm's weights, {@code k}
   * @param w {@code rows x k}, row-major
   * @param y {@code 1 x rows}, fp32
   * @param rows w's rows
   * @param k a row's width, where {@link #gemvNormTakes} takes it
   * @param epsilon the norm's epsilon
   * @param blocks the grid's blocks at most
   */
  public static GraphNode<@Nullable Void> gemvNormOne(
      DType type,
      DeviceBuffer<Float> x,
      DeviceBuffer<?> norm,
      DeviceBuffer<?> w,
      DeviceBuffer<Float> y,
      int rows,
      int k,
      float epsilon,
      int blocks) {
    return of(type)
        .gemvNorm1()
        .launch(gemvNormConfig(type, rows, k, blocks), x, norm, w, y, rows, k, epsilon);
  }

  /**
   * {@return h = silu(g) * u, [g, u] = rms_norm(x) w^T, for one row}: rms_norm, the gate/up product
   * and silu_mul in one kernel
   *
   * @param type the weights' type
   * @param x {@code 1 x k}, fp32
   * @param norm the norm's weights, {@code k}
   * @param w {@code 2 inter x k}, row-major: the gate's rows, then the up's
   * @param h {@code 1 x inter}, of {@code type}
   * @param inter the feed-forward width
   * @param k a row's width, where {@link #gemvNormSiluTakes} takes it
   * @param epsilon the norm's epsilon
   * @param blocks the grid's blocks at most
   */
  public static GraphNode<@Nullable Void> gemvNormSiluOne(
      DType type,
      DeviceBuffer<Float> x,
      DeviceBuffer<?> norm,
      DeviceBuffer<?> w,
      DeviceBuffer<?> h,
      int inter,
      int k,
      float epsilon,
      int blocks) {
    return of(type)
        .gemvNormSilu1()
        .launch(gemvNormConfig(type, inter, k, blocks), x, norm, w, h, inter, k, epsilon);
  }

  /**
   * {@return whether {@link #gemvNormRopeOne} takes the QKV product of {@code heads} from rows of
   * {@code k} elements of {@code type}}: where {@link #gemvNormSiluTakes} does, for even heads
   *
   * @param type the weights' type
   * @param x the fp32 row normalised
   * @param w the QKV weight
   * @param k the row's width
   * @param heads the shapes
   */
  public static boolean gemvNormRopeTakes(
      DType type, DeviceBuffer<Float> x, DeviceBuffer<?> w, int k, Heads heads) {
    return gemvNormSiluTakes(type, x, w, k) && heads.headDim() % 2 == 0;
  }

  /**
   * {@return rms_norm, the QKV product and rope_cache for a step of one token, in one kernel}: the
   * QKV row rotated in {@code qkv}, k and v written into the cache at the token's slot
   *
   * @param type the weights' and the cache's type
   * @param x {@code 1 x k}, fp32
   * @param norm the norm's weights, {@code k}
   * @param w the QKV weight, {@code heads.qkvWidth() x k}
   * @param qkv the token's QKV row, fp32
   * @param inverseFrequencies {@code headDim / 2} fp32 inverse frequencies ({@link Rope})
   * @param positions the token's position (negative: padding)
   * @param seqOfToken the token's sequence, a row of {@code blockTables}
   * @param blockTables {@code sequences x maxBlocks} block numbers
   * @param kCache the layer's k cache
   * @param vCache the layer's v cache
   * @param heads the shapes
   * @param k a row's width, where {@link #gemvNormRopeTakes} takes it
   * @param epsilon the norm's epsilon
   * @param blocks the grid's blocks at most
   */
  public static GraphNode<@Nullable Void> gemvNormRopeOne(
      DType type,
      DeviceBuffer<Float> x,
      DeviceBuffer<?> norm,
      DeviceBuffer<?> w,
      DeviceBuffer<Float> qkv,
      DeviceBuffer<Float> inverseFrequencies,
      DeviceBuffer<Integer> positions,
      DeviceBuffer<Integer> seqOfToken,
      DeviceBuffer<Integer> blockTables,
      DeviceBuffer<?> kCache,
      DeviceBuffer<?> vCache,
      Heads heads,
      int k,
      float epsilon,
      int blocks) {
    int units = heads.qkvWidth() / 2;
    return of(type)
        .gemvNormRope1()
        .launch(
            gemvNormConfig(type, units, k, blocks),
            x,
            norm,
            w,
            qkv,
            inverseFrequencies,
            positions,
            seqOfToken,
            blockTables,
            kCache,
            vCache,
            heads.heads(),
            heads.kvHeads(),
            heads.headDim(),
            heads.maxBlocks(),
            k,
            epsilon);
  }

  /** {@return gemv_stream's grid on {@code device}: {@link #GEMV_BLOCKS_PER_SM} blocks an SM} */
  public static int gemvStreamBlocks(Device device) {
    return GEMV_BLOCKS_PER_SM * device.attribute(Device.Attribute.MULTIPROCESSOR_COUNT);
  }

  /**
   * {@return h = silu(gate) * up for each token, from the gate/up product's fp32 rows}
   *
   * @param type h's type
   * @param gateUp {@code tokens x 2 inter}: the gate's columns, then the up's
   * @param h {@code tokens x inter}
   * @param tokens the tokens
   * @param inter the feed-forward width
   */
  public static GraphNode<@Nullable Void> siluMul(
      DType type, DeviceBuffer<Float> gateUp, DeviceBuffer<?> h, int tokens, int inter) {
    long n = (long) tokens * inter;
    int blocks = (int) Math.max(1, Math.min(SILU_MAX_BLOCKS, (n + BLOCK - 1) / BLOCK));
    return of(type).siluMul().launch(programmatic(blocks, BLOCK), gateUp, h, tokens, inter);
  }

  /**
   * {@return how many parts argmax_parts cuts each of {@code sequences} rows into}: about {@link
   * #ARGMAX_TARGET_BLOCKS} blocks in all, at least one a sequence
   *
   * @param sequences the rows
   */
  public static int argmaxParts(int sequences) {
    return Math.max(1, (ARGMAX_TARGET_BLOCKS + sequences - 1) / sequences);
  }

  /**
   * {@return each sequence's next token from its logits row and its sampling parameters}:
   * argmax_parts over {@link #argmaxParts} parts of each row, then sample
   *
   * @param logits {@code sequences x vocab}, fp32
   * @param params {@link #SAMPLING_WORDS} ints a sequence ({@link Sampling#words})
   * @param out a token a sequence
   * @param keys at least {@code 2 * sequences * argmaxParts(sequences)} ints: the parts' keys
   * @param sequences the sequences
   * @param vocab a row's width
   */
  public static GraphNode<@Nullable Void> sample(
      DeviceBuffer<Float> logits,
      DeviceBuffer<Integer> params,
      DeviceBuffer<Integer> out,
      DeviceBuffer<Integer> keys,
      int sequences,
      int vocab) {
    int parts = argmaxParts(sequences);
    return ARGMAX_PARTS
        .launch(
            new LaunchConfig(Dim3.of(sequences, parts), Dim3.of(SAMPLE_BLOCK), 0)
                .withProgrammaticDependentLaunch(),
            logits,
            keys,
            vocab)
        .andThen(
            SAMPLE.launch(
                programmatic(sequences, SAMPLE_BLOCK), logits, params, out, vocab, keys, parts));
  }

  // The references.

  private static MemorySegment floats(KernelCall call, int index, long count) {
    return call.memory(index, count * Float.BYTES);
  }

  private static MemorySegment ints(KernelCall call, int index, long count) {
    return call.memory(index, count * Integer.BYTES);
  }

  private static MemorySegment typed(KernelCall call, int index, DType type, long count) {
    return call.memory(index, count * type.bytes());
  }

  private static void embed(KernelCall call, DType type) {
    int tokens = call.grid().x(), hidden = call.i32(3), vocab = call.i32(4);
    MemorySegment ids = ints(call, 0, tokens);
    MemorySegment x = floats(call, 2, (long) tokens * hidden);
    for (int t = 0; t < tokens; t++) {
      int id = ids.getAtIndex(I, t);
      boolean known = id >= 0 && id < vocab;
      MemorySegment table = known ? typed(call, 1, type, (id + 1L) * hidden) : null;
      for (int i = 0; i < hidden; i++) {
        x.setAtIndex(
            F,
            (long) t * hidden + i,
            table != null ? Numerics.get(type, table, (long) id * hidden + i) : Float.NaN);
      }
    }
  }

  /** {@return the RMSNorm of {@code row} times {@code weight}, each element rounded to type} */
  static float[] rmsNormRow(float[] row, float[] weight, float epsilon, DType type) {
    double ss = 0;
    for (float v : row) {
      ss += (double) v * v;
    }
    float scale = (float) (1 / Math.sqrt((float) (ss / row.length) + epsilon));
    float[] out = new float[row.length];
    for (int i = 0; i < row.length; i++) {
      out[i] = Numerics.round(type, row[i] * scale * weight[i]);
    }
    return out;
  }

  private static void rmsNorm(KernelCall call, DType type, boolean gather) {
    int rows = call.grid().x();
    int w = gather ? 2 : 1, o = gather ? 3 : 2;
    int hidden = call.i32(o + 1);
    float epsilon = call.f32(o + 2);
    float[] weight = Numerics.decode(type, typed(call, w, type, hidden), 0, hidden);
    MemorySegment out = typed(call, o, type, (long) rows * hidden);
    MemorySegment index = gather ? ints(call, 1, rows) : null;
    for (int r = 0; r < rows; r++) {
      int from = index != null ? index.getAtIndex(I, r) : r;
      MemorySegment x = floats(call, 0, (from + 1L) * hidden);
      float[] row = new float[hidden];
      MemorySegment.copy(x, F, (long) from * hidden * Float.BYTES, row, 0, hidden);
      float[] normed = rmsNormRow(row, weight, epsilon, type);
      for (int i = 0; i < hidden; i++) {
        Numerics.set(type, out, (long) r * hidden + i, normed[i]);
      }
    }
  }

  /** {@return the cache slot of position {@code pos} of the sequence whose table row is given} */
  static long slot(MemorySegment tables, int sequence, int maxBlocks, int pos) {
    return (long) tables.getAtIndex(I, (long) sequence * maxBlocks + pos / BLOCK_SIZE) * BLOCK_SIZE
        + pos % BLOCK_SIZE;
  }

  /** {@return the (cos, sin) of position {@code pos} at inverse frequency {@code inverse}} */
  static float[] rotation(int pos, float inverse) {
    float angle = (float) pos * inverse;
    return new float[] {(float) Math.cos(angle), (float) Math.sin(angle)};
  }

  private static void ropeCache(KernelCall call, DType type) {
    ropeCache(call, type, 0, call.grid().x());
  }

  /** rope_cache's reference on {@code tokens} tokens, its arguments from index {@code at} on. */
  private static void ropeCache(KernelCall call, DType type, int first, int tokens) {
    int heads = call.i32(first + 7), kvHeads = call.i32(first + 8), headDim = call.i32(first + 9);
    int maxBlocks = call.i32(first + 10);
    int half = headDim / 2, kvDim = kvHeads * headDim, width = (heads + 2 * kvHeads) * headDim;
    MemorySegment qkv = floats(call, first, (long) tokens * width);
    float[] inverse = new float[half];
    MemorySegment.copy(floats(call, first + 1, half), F, 0, inverse, 0, half);
    MemorySegment positions = ints(call, first + 2, tokens);
    MemorySegment seqOfToken = ints(call, first + 3, tokens);
    for (int t = 0; t < tokens; t++) {
      int pos = positions.getAtIndex(I, t);
      if (pos < 0) {
        continue;
      }
      int seq = seqOfToken.getAtIndex(I, t);
      MemorySegment tables = ints(call, first + 4, (long) (seq + 1) * maxBlocks);
      long slot = slot(tables, seq, maxBlocks, pos);
      MemorySegment k = typed(call, first + 5, type, (slot + 1) * kvDim);
      MemorySegment v = typed(call, first + 6, type, (slot + 1) * kvDim);
      long row = (long) t * width;
      for (int head = 0; head < heads + kvHeads; head++) {
        for (int i = 0; i < half; i++) {
          float[] cs = rotation(pos, inverse[i]);
          long at = row + (long) head * headDim + i;
          float x1 = qkv.getAtIndex(F, at), x2 = qkv.getAtIndex(F, at + half);
          float r1 = x1 * cs[0] - x2 * cs[1], r2 = x2 * cs[0] + x1 * cs[1];
          qkv.setAtIndex(F, at, r1);
          qkv.setAtIndex(F, at + half, r2);
          if (head >= heads) {
            long c = slot * kvDim + (long) (head - heads) * headDim + i;
            Numerics.set(type, k, c, r1);
            Numerics.set(type, k, c + half, r2);
          }
        }
      }
      long vRow = row + (long) (heads + kvHeads) * headDim;
      for (int i = 0; i < kvDim; i++) {
        Numerics.set(type, v, slot * kvDim + i, qkv.getAtIndex(F, vRow + i));
      }
    }
  }

  // The attention kernels' reference. Grouped, a block per (token, kv head) computes that kv head's
  // group of query heads, and writes NaN rows for the shapes its kernel does not take, as the
  // kernel does; over several splits it writes each split's record (acc, m, l) instead, which
  // attentionCombine folds.
  private static void attention(KernelCall call, DType type, boolean grouped, boolean wide) {
    int heads = call.i32(7), kvHeads = call.i32(8), headDim = call.i32(9), maxBlocks = call.i32(10);
    int tokens = call.grid().x(), group = heads / kvHeads;
    int splits = grouped ? call.grid().z() : 1;
    int blockHeads = grouped ? call.grid().y() * group : call.grid().y();
    boolean shaped =
        grouped
            ? new Heads(heads, kvHeads, headDim, maxBlocks).grouped()
                && (wide ? group > 4 : group <= 4)
                && call.block().x() == GROUPED_ATTENTION_BLOCK
            : headDim <= MAX_HEAD_DIM;
    double scale = call.f32(11);
    int kvDim = kvHeads * headDim, width = (heads + 2 * kvHeads) * headDim;
    MemorySegment qkv = floats(call, 0, (long) tokens * width);
    MemorySegment positions = ints(call, 3, tokens);
    MemorySegment seqOfToken = ints(call, 4, tokens);
    MemorySegment out = typed(call, 6, type, (long) tokens * heads * headDim);
    int record = headDim + 2;
    MemorySegment partials =
        splits > 1 ? floats(call, 12, (long) tokens * blockHeads * splits * record) : null;
    for (int t = 0; t < tokens; t++) {
      int pos = positions.getAtIndex(I, t);
      for (int h = 0; h < blockHeads; h++) {
        long o = ((long) t * heads + h) * headDim;
        if (pos < 0 && partials != null) {
          continue; // attention_combine writes the zeros
        }
        if (pos < 0 || !shaped) {
          for (int d = 0; d < headDim; d++) {
            Numerics.set(type, out, o + d, pos < 0 ? 0f : Float.NaN);
          }
          for (int split = 0; partials != null && split < splits; split++) {
            long r = recordAt(t, h, split, heads, group, splits, record);
            for (int i = 0; i < record; i++) {
              partials.setAtIndex(F, r + i, Float.NaN);
            }
          }
          continue;
        }
        int seq = seqOfToken.getAtIndex(I, t);
        MemorySegment tables = ints(call, 5, (long) (seq + 1) * maxBlocks);
        int g = h / group;
        long q = (long) t * width + (long) h * headDim;
        // The kernel's split of positions 0..pos: chunks of ceil((pos + 1) / splits) rounded up
        // to 32.
        int chunk = ((pos + splits) / splits + 31) / 32 * 32;
        for (int split = 0; split < splits; split++) {
          int begin = split * chunk, end = Math.min(pos + 1, begin + chunk);
          int n = Math.max(0, end - begin);
          double[] scores = new double[n];
          long[] slots = new long[n];
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < n; j++) {
            slots[j] = slot(tables, seq, maxBlocks, begin + j);
            MemorySegment k = typed(call, 1, type, (slots[j] + 1) * kvDim);
            double dot = 0;
            for (int d = 0; d < headDim; d++) {
              dot +=
                  (double) qkv.getAtIndex(F, q + d)
                      * Numerics.get(type, k, slots[j] * kvDim + (long) g * headDim + d);
            }
            scores[j] = dot * scale;
            max = Math.max(max, scores[j]);
          }
          // A record's maximum is the kernel's: a float, and its weights are relative to it.
          float m = (float) max;
          double total = 0;
          for (int j = 0; j < n; j++) {
            scores[j] = Math.exp(scores[j] - m);
            total += scores[j];
          }
          double[] sums = new double[headDim];
          for (int d = 0; d < headDim; d++) {
            for (int j = 0; j < n; j++) {
              MemorySegment v = typed(call, 2, type, (slots[j] + 1) * kvDim);
              sums[d] +=
                  scores[j] * Numerics.get(type, v, slots[j] * kvDim + (long) g * headDim + d);
            }
          }
          if (partials == null) {
            for (int d = 0; d < headDim; d++) {
              Numerics.set(type, out, o + d, (float) (sums[d] / total));
            }
          } else {
            long r = recordAt(t, h, split, heads, group, splits, record);
            for (int d = 0; d < headDim; d++) {
              partials.setAtIndex(F, r + d, (float) sums[d]);
            }
            partials.setAtIndex(F, r + headDim, m);
            partials.setAtIndex(F, r + headDim + 1, (float) total);
          }
        }
      }
    }
  }

  /** {@return the float index of head h's record of a split: [token][kv head][split][group]} */
  private static long recordAt(
      int t, int h, int split, int heads, int group, int splits, int record) {
    int kvHeads = heads / group;
    return ((((long) t * kvHeads + h / group) * splits + split) * group + h % group) * record;
  }

  private static void attentionCombine(KernelCall call, DType type) {
    int tokens = call.grid().x(), heads = call.i32(3), kvHeads = call.i32(4);
    int headDim = call.i32(5), splits = call.i32(6), group = heads / kvHeads, record = headDim + 2;
    MemorySegment partials = floats(call, 0, (long) tokens * heads * splits * record);
    MemorySegment positions = ints(call, 1, tokens);
    MemorySegment out = typed(call, 2, type, (long) tokens * heads * headDim);
    for (int t = 0; t < tokens; t++) {
      boolean padding = positions.getAtIndex(I, t) < 0;
      for (int h = 0; h < heads; h++) {
        long o = ((long) t * heads + h) * headDim;
        float max = Float.NEGATIVE_INFINITY;
        for (int split = 0; split < splits; split++) {
          float m =
              partials.getAtIndex(F, recordAt(t, h, split, heads, group, splits, record) + headDim);
          max = Float.isNaN(m) ? m : Math.max(max, m);
        }
        for (int d = 0; d < headDim; d++) {
          double total = 0, sum = 0;
          for (int split = 0; split < splits && !padding; split++) {
            long r = recordAt(t, h, split, heads, group, splits, record);
            float m = partials.getAtIndex(F, r + headDim);
            if (m == Float.NEGATIVE_INFINITY) {
              continue; // a split without positions
            }
            double f = Math.exp(m - max);
            total += partials.getAtIndex(F, r + headDim + 1) * f;
            sum += partials.getAtIndex(F, r + d) * f;
          }
          Numerics.set(type, out, o + d, padding ? 0f : (float) (sum / total));
        }
      }
    }
  }

  private static void gemv(KernelCall call, DType type) {
    int tokens = call.i32(3), rows = call.i32(4), k = call.i32(5);
    boolean accumulate = call.i32(6) != 0;
    MemorySegment x = typed(call, 0, type, (long) tokens * k);
    MemorySegment w = typed(call, 1, type, (long) rows * k);
    MemorySegment y = floats(call, 2, (long) tokens * rows);
    float[][] xs = new float[tokens][];
    for (int m = 0; m < tokens; m++) {
      xs[m] = Numerics.decode(type, x, (long) m * k, k);
    }
    for (int n = 0; n < rows; n++) {
      float[] row = Numerics.decode(type, w, (long) n * k, k);
      for (int m = 0; m < tokens; m++) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
          sum += (double) xs[m][i] * row[i];
        }
        long at = (long) m * rows + n;
        y.setAtIndex(F, at, accumulate ? y.getAtIndex(F, at) + (float) sum : (float) sum);
      }
    }
  }

  /** gemv_stream1's reference: gemv's for one token row, whatever its tokens argument says. */
  private static void gemvOne(KernelCall call, DType type) {
    int rows = call.i32(4), k = call.i32(5);
    boolean accumulate = call.i32(6) != 0;
    MemorySegment x = typed(call, 0, type, k);
    MemorySegment w = typed(call, 1, type, (long) rows * k);
    MemorySegment y = floats(call, 2, rows);
    float[] xs = Numerics.decode(type, x, 0, k);
    for (int n = 0; n < rows; n++) {
      float sum = dot(xs, type, w, n, k);
      y.setAtIndex(F, n, accumulate ? y.getAtIndex(F, n) + sum : sum);
    }
  }

  /** {@return row {@code n} of {@code w} ({@code k} wide) times {@code x}, summed in double} */
  private static float dot(float[] x, DType type, MemorySegment w, long n, int k) {
    float[] row = Numerics.decode(type, w, n * k, k);
    double sum = 0;
    for (int i = 0; i < k; i++) {
      sum += (double) x[i] * row[i];
    }
    return (float) sum;
  }

  /** {@return x's first row normalised as rms_norm does: x, the norm's weights at 0 and 1} */
  private static float[] normedRow(KernelCall call, DType type, int k, float epsilon) {
    float[] row = new float[k];
    MemorySegment.copy(floats(call, 0, k), F, 0, row, 0, k);
    float[] weight = Numerics.decode(type, typed(call, 1, type, k), 0, k);
    return rmsNormRow(row, weight, epsilon, type);
  }

  /** gemv_norm1's reference: rms_norm's row, then gemv_stream1's product. */
  private static void gemvNormOne(KernelCall call, DType type) {
    int rows = call.i32(4), k = call.i32(5);
    float[] xs = normedRow(call, type, k, call.f32(6));
    MemorySegment w = typed(call, 2, type, (long) rows * k);
    MemorySegment y = floats(call, 3, rows);
    for (int n = 0; n < rows; n++) {
      y.setAtIndex(F, n, dot(xs, type, w, n, k));
    }
  }

  /** gemv_norm_rope1's reference: rms_norm's row, the QKV product, then rope_cache's for one. */
  private static void gemvNormRopeOne(KernelCall call, DType type) {
    int heads = call.i32(10), kvHeads = call.i32(11), headDim = call.i32(12), k = call.i32(14);
    int rows = (heads + 2 * kvHeads) * headDim;
    float[] xs = normedRow(call, type, k, call.f32(15));
    MemorySegment w = typed(call, 2, type, (long) rows * k);
    MemorySegment qkv = floats(call, 3, rows);
    for (int n = 0; n < rows; n++) {
      qkv.setAtIndex(F, n, dot(xs, type, w, n, k));
    }
    ropeCache(call, type, 3, 1);
  }

  /** gemv_norm_silu1's reference: rms_norm's row, the gate/up product, then silu_mul's. */
  private static void gemvNormSiluOne(KernelCall call, DType type) {
    int inter = call.i32(4), k = call.i32(5);
    float[] xs = normedRow(call, type, k, call.f32(6));
    MemorySegment w = typed(call, 2, type, 2L * inter * k);
    MemorySegment h = typed(call, 3, type, inter);
    for (int i = 0; i < inter; i++) {
      Numerics.set(type, h, i, silu(dot(xs, type, w, i, k), dot(xs, type, w, inter + i, k)));
    }
  }

  /** {@return silu(g) * u in fp32} */
  static float silu(float g, float u) {
    return (float) (g / (1 + Math.exp(-g))) * u;
  }

  private static void siluMul(KernelCall call, DType type) {
    int tokens = call.i32(2), inter = call.i32(3);
    if (tokens < 1 || inter < 1) {
      return;
    }
    MemorySegment gu = floats(call, 0, 2L * tokens * inter);
    MemorySegment h = typed(call, 1, type, (long) tokens * inter);
    for (long t = 0; t < tokens; t++) {
      for (int i = 0; i < inter; i++) {
        float g = gu.getAtIndex(F, t * 2 * inter + i),
            u = gu.getAtIndex(F, t * 2 * inter + inter + i);
        Numerics.set(type, h, t * inter + i, silu(g, u));
      }
    }
  }

  private static void argmaxParts(KernelCall call) {
    int sequences = call.grid().x(), parts = call.grid().y(), vocab = call.i32(2);
    MemorySegment logits = floats(call, 0, (long) sequences * vocab);
    MemorySegment keys = ints(call, 1, 2L * sequences * parts);
    int chunk = ((vocab + parts - 1) / parts + 3) / 4 * 4;
    for (int s = 0; s < sequences; s++) {
      for (int p = 0; p < parts; p++) {
        long best = 0;
        for (int i = Math.min(vocab, p * chunk); i < Math.min(vocab, p * chunk + chunk); i++) {
          long k = Sampling.argmaxKey(logits.getAtIndex(F, (long) s * vocab + i), i);
          best = Long.compareUnsigned(k, best) > 0 ? k : best;
        }
        long at = 2L * ((long) s * parts + p);
        keys.setAtIndex(I, at, (int) best);
        keys.setAtIndex(I, at + 1, (int) (best >>> 32));
      }
    }
  }

  private static void sample(KernelCall call) {
    int sequences = call.grid().x(), vocab = call.i32(3), threads = call.block().x();
    int parts = call.i32(5);
    MemorySegment logits = floats(call, 0, (long) sequences * vocab);
    MemorySegment params = ints(call, 1, (long) sequences * SAMPLING_WORDS);
    MemorySegment out = ints(call, 2, sequences);
    MemorySegment keys = ints(call, 4, 2L * sequences * parts);
    float[] row = new float[vocab];
    for (int s = 0; s < sequences; s++) {
      MemorySegment.copy(logits, F, (long) s * vocab * Float.BYTES, row, 0, vocab);
      int[] p = new int[SAMPLING_WORDS];
      MemorySegment.copy(
          params, I, (long) s * SAMPLING_WORDS * Integer.BYTES, p, 0, SAMPLING_WORDS);
      long best = 0;
      for (int i = 0; i < parts; i++) {
        long at = 2L * ((long) s * parts + i);
        long k = (keys.getAtIndex(I, at) & 0xffffffffL) | ((long) keys.getAtIndex(I, at + 1) << 32);
        best = Long.compareUnsigned(k, best) > 0 ? k : best;
      }
      out.setAtIndex(I, s, Sampling.pick(row, p, threads, ~(int) best));
    }
  }
}
