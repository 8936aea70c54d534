// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.Dim3;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.testkit.KernelTimeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every CUDA kernel of llm_kernels.cu gives, element by element, what its Java reference (what the
 * simulator runs) gives on the same random inputs, at Llama 3.2-1B's sizes (rows of 2048, heads of
 * 64 and of 128, 300 positions over scattered blocks, a vocabulary of 32,000), in each weights'
 * type. Skipped only where the system platform is not the cuda provider (no GPU).
 *
 * <p>Tolerances, {@code tolerance * (1 + |reference|)} on fp32 outputs, plus one unit in the last
 * place of the reference's value on fp16 and bf16 outputs (two values that close may round to
 * neighbouring values of the type): the embedding rows exact (a copy); RMSNorm {@code 1e-5} (an
 * fp32 sum of 2048 squares in a tree, rsqrtf within 2 ulp, against double); RoPE {@code 1e-5}
 * (sincosf within 2 ulp and a fused multiply-add against Java's cos and sin of the same fp32
 * angle); attention {@code 1e-4} (an online fp32 softmax over 300 positions against a two-pass one
 * in double); SwiGLU {@code 1e-6} (expf within 2 ulp). Each is at least 100 times smaller than a
 * wrong index, slot or head makes. Sampling: greedy tokens equal; a drawn token equals the
 * reference's, or is its neighbour in the nucleus where the GPU's fp32 sums put the draw across a
 * boundary (a few in a thousand at most).
 */
@Tag("gpu")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LlmKernelsGpuTests {

  /** The kernels these tests run on the GPU; LlmKernelsTests fails when the PTX has another. */
  static final List<String> TESTED = tested();

  private static List<String> tested() {
    List<String> names = new ArrayList<>();
    for (String s : List.of("f32", "f16", "bf16")) {
      for (String k :
          List.of(
              "embed_",
              "rms_norm_",
              "gather_rms_norm_",
              "rope_cache_",
              "attention_",
              "attention_grouped_",
              "attention_grouped8_",
              "attention_combine_",
              "gemv_",
              "gemv_stream_",
              "gemv_stream1_",
              "gemv_norm1_",
              "gemv_norm_silu1_",
              "gemv_norm_rope1_",
              "silu_mul_")) {
        names.add(k + s);
      }
    }
    names.add("argmax_parts");
    names.add("sample");
    names.add("trace_to");
    return List.copyOf(names);
  }

  private CudaPlatform platform;
  private Stream stream;
  private final Random random = new Random(77);

  @BeforeAll
  void open() {
    platform = CudaPlatform.system();
    Assumptions.assumeTrue(
        platform.providerId().equals("cuda"),
        "no GPU: the system platform is '" + platform.providerId() + "'");
    stream = platform.defaultDevice().newStream();
    LlmKernels.loadAll(platform.defaultDevice());
  }

  @AfterAll
  void close() {
    if (stream != null) {
      stream.close();
    }
  }

  /**
   * The kernel timeline: with the committed PTX nothing is recorded; with the PTX that {@code
   * regenerate.sh --trace} builds first on the class path (LlmBench's trace mode), each block of
   * the launch between the two trace_to calls records once, and nothing after them.
   */
  @Test
  void aLaunchBetweenTraceToCallsRecordsEachBlockOnlyWhereThePtxIsBuiltToTrace()
      throws java.io.IOException {
    boolean traced;
    try (var in = LlmKernels.class.getResourceAsStream("llm_kernels.ptx")) {
      traced =
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII)
              .contains("%globaltimer");
    }
    int blocks = 3, capacity = 16, tokens = 2, inter = 3 * 256 / tokens;
    Kernel silu = LlmKernels.of(DType.F32).siluMul();
    long[] words;
    try (DeviceBuffer<Float> gu =
            DeviceBuffer.fromArray(new float[2 * tokens * inter]).syncOn(stream);
        DeviceBuffer<Float> h = DeviceBuffer.fromArray(new float[tokens * inter]).syncOn(stream);
        DeviceBuffer<Long> buffer =
            DeviceBuffer.zeros(ElementType.I64, KernelTimeline.words(capacity)).syncOn(stream)) {
      LaunchConfig one = LaunchConfig.of(1, 1), grid = LaunchConfig.of(blocks, 256);
      words =
          buffer
              .slice(1, 1)
              .write(new long[] {capacity})
              .andThen(LlmKernels.TRACE_TO.launch(one, buffer, 1))
              .andThen(silu.launch(grid, gu, h, tokens, inter))
              .andThen(LlmKernels.TRACE_TO.launch(one, buffer, 0))
              .andThen(silu.launch(grid, gu, h, tokens, inter))
              .andThen(buffer.toLongArray())
              .syncOn(stream);
    }

    KernelTimeline timeline = KernelTimeline.read(words);
    if (!traced) {
      assertEquals(0, words[0], "records from the committed PTX");
      return;
    }
    assertEquals(1, timeline.launches().size(), "launches recorded");
    KernelTimeline.Launch launch = timeline.launches().getFirst();
    assertEquals(LlmKernels.TRACED.indexOf("silu_mul"), launch.kernel());
    assertEquals(
        List.of(0L, 1L, 2L),
        launch.blocks().stream().map(KernelTimeline.Block::index).sorted().toList());
    for (KernelTimeline.Block b : launch.blocks()) {
      assertTrue(
          0 < b.startNs() && b.startNs() <= b.waitedNs() && b.waitedNs() <= b.endNs(), b::toString);
    }
  }

  @SuppressWarnings("unchecked")
  private Object[] onDevice(Object[] args, DType type, List<DeviceBuffer<?>> buffers) {
    Object[] out = args.clone();
    for (int i = 0; i < args.length; i++) {
      DeviceBuffer<?> b =
          switch (args[i]) {
            case float[] f -> DeviceBuffer.fromArray(f).syncOn(stream);
            case int[] n -> DeviceBuffer.fromArray(n).syncOn(stream);
            case short[] s ->
                DeviceBuffer.fromArray((ElementType<Short>) Numerics.elementType(type), s)
                    .syncOn(stream);
            default -> null;
          };
      if (b != null) {
        buffers.add(b);
        out[i] = b;
      }
    }
    return out;
  }

  private static Object[] copies(Object[] args) {
    Object[] out = args.clone();
    for (int i = 0; i < args.length; i++) {
      out[i] =
          switch (args[i]) {
            case float[] f -> f.clone();
            case int[] n -> n.clone();
            case short[] s -> s.clone();
            default -> args[i];
          };
    }
    return out;
  }

  /** Runs {@code kernel} on the GPU and its reference; {@return the two sets of arguments after} */
  @SuppressWarnings("unchecked")
  private Object[][] run(Kernel kernel, LaunchConfig config, DType type, Object... args) {
    Object[] reference = copies(args);
    kernel.runReference(config, reference);
    List<DeviceBuffer<?>> buffers = new ArrayList<>();
    try {
      Object[] device = onDevice(args, type, buffers);
      kernel.launch(config, device).syncOn(stream);
      Object[] gpu = args.clone();
      for (int i = 0; i < args.length; i++) {
        if (device[i] instanceof DeviceBuffer<?> b) {
          gpu[i] =
              switch (args[i]) {
                case float[] f -> ((DeviceBuffer<Float>) b).toFloatArray().syncOn(stream);
                case int[] n -> ((DeviceBuffer<Integer>) b).toIntArray().syncOn(stream);
                default -> ((DeviceBuffer<Short>) b).toShortArray().syncOn(stream);
              };
        }
      }
      return new Object[][] {reference, gpu};
    } finally {
      buffers.forEach(DeviceBuffer::close);
    }
  }

  /** Compares every array argument of the two runs. */
  private static void assertSame(DType type, float tolerance, Object[][] runs, String what) {
    Object[] reference = runs[0], gpu = runs[1];
    for (int i = 0; i < reference.length; i++) {
      if (reference[i] instanceof int[] r) {
        assertEquals(Arrays.toString(r), Arrays.toString((int[]) gpu[i]), what);
      } else if (reference[i] instanceof float[] || reference[i] instanceof short[]) {
        boolean typed = reference[i] instanceof short[];
        DType t = typed ? type : DType.F32;
        float[] r = Arrays16.values(t, reference[i]), g = Arrays16.values(t, gpu[i]);
        for (int e = 0; e < r.length; e++) {
          float bound = tolerance * (1 + Math.abs(r[e])) + (typed ? Arrays16.ulp(t, r[e]) : 0);
          // Equal infinities (an empty split's maximum) are the same value.
          boolean ok =
              Float.isNaN(r[e])
                  ? Float.isNaN(g[e])
                  : g[e] == r[e] || Math.abs(g[e] - r[e]) <= bound;
          assertTrue(
              ok,
              what
                  + ": argument "
                  + i
                  + " element "
                  + e
                  + " is "
                  + g[e]
                  + " on the GPU, "
                  + r[e]
                  + " in the reference");
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void embedAndBothNormsMatchTheirReferences(DType type) {
    int vocab = 300, hidden = 2048, tokens = 5;
    int[] ids = {3, 299, 0, 300, 17};
    Object table = Arrays16.of(type, Arrays16.gaussian(random, type, vocab * hidden, 1));
    assertSame(
        type,
        0,
        run(
            LlmKernels.of(type).embed(),
            LaunchConfig.of(tokens, LlmKernels.BLOCK),
            type,
            ids,
            table,
            new float[tokens * hidden],
            hidden,
            vocab),
        "embed");
    float[] x = Arrays16.gaussian(random, DType.F32, tokens * hidden, 2);
    Object w = Arrays16.of(type, Arrays16.gaussian(random, type, hidden, 1));
    assertSame(
        type,
        1e-5f,
        run(
            LlmKernels.of(type).rmsNorm(),
            LaunchConfig.of(tokens, LlmKernels.NORM_BLOCK),
            type,
            x,
            w,
            Arrays16.of(type, new float[tokens * hidden]),
            hidden,
            1e-5f),
        "rms_norm");
    assertSame(
        type,
        1e-5f,
        run(
            LlmKernels.of(type).gatherRmsNorm(),
            LaunchConfig.of(2, LlmKernels.NORM_BLOCK),
            type,
            x,
            new int[] {4, 1},
            w,
            Arrays16.of(type, new float[2 * hidden]),
            hidden,
            1e-5f),
        "gather_rms_norm");
  }

  private static final int MAX_BLOCKS = 20, BLOCKS = 48;

  private int[] tables(int sequences) {
    List<Integer> blocks = new ArrayList<>();
    for (int b = 0; b < BLOCKS; b++) {
      blocks.add(b);
    }
    java.util.Collections.shuffle(blocks, random);
    int[] t = new int[sequences * MAX_BLOCKS];
    for (int i = 0; i < t.length; i++) {
      t[i] = blocks.get(i % BLOCKS);
    }
    return t;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void ropeWithItsCacheWritesAndAttentionMatchTheirReferencesForHeadsOf64And128(DType type) {
    for (int headDim : new int[] {64, 128}) {
      int heads = 8, kvHeads = 2, tokens = 6;
      int width = (heads + 2 * kvHeads) * headDim, kv = kvHeads * headDim;
      int[] positions = {300, 0, 15, 16, -1, 129};
      int[] seqOfToken = {0, 1, 1, 1, 0, 0};
      int[] tables = tables(2);
      float[] qkv = Arrays16.gaussian(random, DType.F32, tokens * width, 1);
      float[] inverse =
          Rope.inverseFrequencies(headDim, 500000, new Rope.Llama3Scaling(32, 1, 4, 8192));
      Object k = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      Object v = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      LlmKernels.Heads shapes = new LlmKernels.Heads(heads, kvHeads, headDim, MAX_BLOCKS);
      Object[][] rope =
          run(
              LlmKernels.of(type).ropeCache(),
              LaunchConfig.of(tokens, LlmKernels.ROPE_BLOCK),
              type,
              qkv,
              inverse,
              positions,
              seqOfToken,
              tables,
              k,
              v,
              heads,
              kvHeads,
              headDim,
              MAX_BLOCKS);
      assertSame(type, 1e-5f, rope, "rope_cache, heads of " + headDim);
      Object[] after = rope[0]; // the reference's rotated q and its cache, for both runs
      assertTrue(shapes.grouped(), "grouped attention takes these heads");
      // The plain kernel, then grouped attention in one split and in three.
      for (int splits : new int[] {0, 1, 3}) {
        boolean grouped = splits > 0;
        Object[] args =
            attentionArguments(
                type,
                after[0],
                after[5],
                after[6],
                positions,
                seqOfToken,
                tables,
                heads,
                kvHeads,
                headDim,
                splits);
        Object[][] attention =
            grouped
                ? run(
                    LlmKernels.of(type).groupedAttention(heads / kvHeads),
                    new LaunchConfig(
                        Dim3.of(tokens, kvHeads, splits),
                        Dim3.of(LlmKernels.GROUPED_ATTENTION_BLOCK),
                        LlmKernels.groupedAttentionBytes(type, shapes)),
                    type,
                    args)
                : run(
                    LlmKernels.of(type).attention(),
                    new LaunchConfig(
                        Dim3.of(tokens, heads), Dim3.of(LlmKernels.ATTENTION_BLOCK), 0),
                    type,
                    java.util.Arrays.copyOf(args, 12));
        String what = grouped ? "grouped attention in " + splits + " splits" : "plain attention";
        assertSame(type, 1e-4f, attention, what + ", heads of " + headDim);
      }
      assertTrue(shapes.qkvWidth() == width, "the shapes");
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void groupedAttentionMatchesItsReferenceForGroupsOfOneToEightAndWritesNanForOtherHeads(
      DType type) {
    // {heads, kv heads, head width}: a group of 8 over 10 tiles (8 warps, two take a second), of 3
    // (SmolLM2), of 1 (no grouping), and heads of 16, which grouped attention does not take.
    for (int[] shape : new int[][] {{8, 1, 32}, {9, 3, 64}, {2, 2, 128}, {4, 2, 16}}) {
      int heads = shape[0], kvHeads = shape[1], headDim = shape[2], tokens = 6;
      int width = (heads + 2 * kvHeads) * headDim, kv = kvHeads * headDim;
      int[] positions = {319, 31, 32, -1, 255, 0};
      int[] seqOfToken = {0, 1, 1, 0, 2, 2};
      float[] qkv = Arrays16.gaussian(random, DType.F32, tokens * width, 1);
      Object k = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      Object v = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      int[] tables = tables(3);
      boolean taken = new LlmKernels.Heads(heads, kvHeads, headDim, MAX_BLOCKS).grouped();
      // One split writes the rows; five cut position 319 into chunks of 64 (and token 1's 32
      // positions into one chunk and four empty ones), folded by attention_combine.
      LlmKernels.Heads shapes = new LlmKernels.Heads(heads, kvHeads, headDim, MAX_BLOCKS);
      for (int splits : new int[] {1, 5}) {
        String what =
            "grouped attention, "
                + heads
                + " heads of "
                + headDim
                + " over "
                + kvHeads
                + ", "
                + splits
                + " splits";
        Object[][] runs =
            run(
                LlmKernels.of(type).groupedAttention(heads / kvHeads),
                new LaunchConfig(
                    Dim3.of(tokens, kvHeads, splits),
                    Dim3.of(LlmKernels.GROUPED_ATTENTION_BLOCK),
                    LlmKernels.groupedAttentionBytes(type, shapes)),
                type,
                attentionArguments(
                    type,
                    qkv,
                    k,
                    v,
                    positions,
                    seqOfToken,
                    tables,
                    heads,
                    kvHeads,
                    headDim,
                    splits));
        assertSame(type, 1e-4f, runs, what);
        Object rows = runs[0][6];
        if (splits > 1) {
          Object[][] combined =
              run(
                  LlmKernels.of(type).attentionCombine(),
                  new LaunchConfig(Dim3.of(tokens, heads), Dim3.of(headDim), 0),
                  type,
                  runs[0][12],
                  positions,
                  Arrays16.of(type, new float[tokens * heads * headDim]),
                  heads,
                  kvHeads,
                  headDim,
                  splits);
          assertSame(type, 1e-5f, combined, what + ", combined");
          rows = combined[0][2];
        }
        float first = Arrays16.values(type, rows)[0]; // token 0's first value
        assertEquals(
            !taken, Float.isNaN(first), what + ": NaN rows exactly where it does not take");
      }
    }
  }

  /**
   * {@return grouped attention's arguments (the plain kernel's are the first 12): zeroed context
   * rows and records for {@code splits} splits (at least one float)}
   */
  private static Object[] attentionArguments(
      DType type,
      Object qkv,
      Object k,
      Object v,
      int[] positions,
      int[] seqOfToken,
      int[] tables,
      int heads,
      int kvHeads,
      int headDim,
      int splits) {
    int tokens = positions.length;
    return new Object[] {
      qkv,
      k,
      v,
      positions,
      seqOfToken,
      tables,
      Arrays16.of(type, new float[tokens * heads * headDim]),
      heads,
      kvHeads,
      headDim,
      MAX_BLOCKS,
      (float) (1 / Math.sqrt(headDim)),
      new float[Math.max(1, tokens * heads * splits * (headDim + 2))]
    };
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvMatchesItsReferenceForOneToEightRowsAndAddsWhereAccumulating(DType type) {
    // k of 2,048 (a Llama-3.2-1B row) and of 8 (a single 16-byte piece for fp16/bf16); rows that do
    // not fill the last block.
    for (int[] shape : new int[][] {{2048, 515}, {8, 13}}) {
      int k = shape[0], rows = shape[1];
      Object w = Arrays16.of(type, Arrays16.gaussian(random, type, rows * k, 1));
      for (int tokens : new int[] {1, 2, 3, 5, 8}) {
        for (int accumulate : new int[] {0, 1}) {
          assertSame(
              type,
              1e-4f,
              run(
                  LlmKernels.of(type).gemv(),
                  LaunchConfig.of((rows + 7) / 8, LlmKernels.GEMV_BLOCK),
                  type,
                  Arrays16.of(type, Arrays16.gaussian(random, type, tokens * k, 1)),
                  w,
                  // a row past the tokens' rows, which no launch may write
                  Arrays16.gaussian(random, DType.F32, (tokens + 1) * rows, 1),
                  tokens,
                  rows,
                  k,
                  accumulate),
              "gemv, " + tokens + " rows of " + k + " by " + rows + ", accumulate " + accumulate);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvStreamMatchesItsReferenceOnTheGpusGridAndOnAGridThatReusesEveryStage(DType type) {
    // Rows of Llama-3.2-1B (2,048: two warps a row; 8,192: eight), a single 16-byte piece (128
    // rows a tile) and 64 columns; on the engine's grid and on 3 blocks, whose tiles outnumber the
    // stages many times over (every barrier through several phases).
    int[] grids = {LlmKernels.gemvStreamBlocks(platform.defaultDevice()), 3};
    int tested = 0;
    for (int[] shape : new int[][] {{2048, 515}, {8192, 37}, {8, 1000}, {64, 301}}) {
      int k = shape[0], rows = shape[1];
      if (!LlmKernels.gemvStreamFits(type, k)) {
        continue; // fp32 rows of 8,192 are 32 KiB: gemv takes them
      }
      Object w = Arrays16.of(type, Arrays16.gaussian(random, type, rows * k, 1));
      for (int blocks : grids) {
        for (int tokens : new int[] {1, 2, 3, 5, 8}) {
          for (int accumulate : new int[] {0, 1}) {
            assertSame(
                type,
                1e-4f,
                run(
                    LlmKernels.of(type).gemvStream(),
                    LlmKernels.gemvStreamConfig(rows, blocks),
                    type,
                    Arrays16.of(type, Arrays16.gaussian(random, type, tokens * k, 1)),
                    w,
                    // a row past the tokens' rows, which no launch may write
                    Arrays16.gaussian(random, DType.F32, (tokens + 1) * rows, 1),
                    tokens,
                    rows,
                    k,
                    accumulate),
                "gemv_stream on "
                    + blocks
                    + " blocks, "
                    + tokens
                    + " rows of "
                    + k
                    + " by "
                    + rows
                    + ", accumulate "
                    + accumulate);
            tested++;
          }
        }
      }
    }
    assertTrue(tested >= 60, tested + " products");
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvStream1MatchesItsReferenceForOneRowOnLargeAndSmallGrids(DType type) {
    int sms = platform.defaultDevice().attribute(cuda.graph.Device.Attribute.MULTIPROCESSOR_COUNT);
    for (int[] shape : new int[][] {{2048, 515}, {8192, 37}, {8, 1000}, {64, 301}}) {
      int k = shape[0], rows = shape[1];
      if (!LlmKernels.gemvStreamFits(type, k)) {
        continue;
      }
      Object w = Arrays16.of(type, Arrays16.gaussian(random, type, rows * k, 1));
      for (int blocks : new int[] {6 * sms, 3}) {
        for (int accumulate : new int[] {0, 1}) {
          assertSame(
              type,
              1e-4f,
              run(
                  LlmKernels.of(type).gemvStream1(),
                  LlmKernels.gemvStreamConfig(rows, blocks),
                  type,
                  Arrays16.of(type, Arrays16.gaussian(random, type, k, 1)),
                  w,
                  // a row past the token's, which no launch may write
                  Arrays16.gaussian(random, DType.F32, 2 * rows, 1),
                  1,
                  rows,
                  k,
                  accumulate),
              "gemv_stream1 on "
                  + blocks
                  + " blocks, "
                  + k
                  + " by "
                  + rows
                  + ", accumulate "
                  + accumulate);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvNorm1AndGemvNormSilu1MatchTheirReferencesAndTheKernelsApartBitForBit(DType type) {
    int sms = platform.defaultDevice().attribute(cuda.graph.Device.Attribute.MULTIPROCESSOR_COUNT);
    float epsilon = 1e-5f;
    int tested = 0;
    for (int[] shape : new int[][] {{2048, 515}, {64, 301}, {4096, 37}}) {
      int k = shape[0], inter = shape[1], rows = 2 * inter;
      if (!LlmKernels.gemvStreamFits(type, k)) {
        continue;
      }
      boolean pairs = LlmKernels.tileRows(k * type.bytes()) >= 2;
      float[] x = Arrays16.gaussian(random, DType.F32, k, 3);
      Object norm = Arrays16.of(type, Arrays16.gaussian(random, type, k, 1));
      Object w = Arrays16.of(type, Arrays16.gaussian(random, type, rows * k, 1));
      // The kernels apart on the GPU: rms_norm, gemv_stream1, silu_mul.
      float[] apart = normedProductApart(type, x, norm, w, rows, k, epsilon, 4 * sms);
      Object h =
          run(
              LlmKernels.of(type).siluMul(),
              LaunchConfig.of(64, LlmKernels.BLOCK),
              type,
              apart,
              Arrays16.of(type, new float[inter]),
              1,
              inter)[1][1];
      for (int blocks : new int[] {4 * sms, 3}) {
        String what = k + " by " + rows + " on " + blocks + " blocks";
        // a float past the rows, which no launch may write
        Object[][] norm1 =
            run(
                LlmKernels.of(type).gemvNorm1(),
                LlmKernels.gemvNormConfig(type, rows, k, blocks),
                type,
                x,
                norm,
                w,
                Arrays16.gaussian(random, DType.F32, rows + 1, 1),
                rows,
                k,
                epsilon);
        assertSame(type, 1e-4f, norm1, "gemv_norm1, " + what);
        float[] fused = (float[]) norm1[1][3];
        assertArrayEquals(
            apart, Arrays.copyOf(fused, rows), "gemv_norm1 against the kernels apart, " + what);
        if (pairs) {
          Object[][] silu =
              run(
                  LlmKernels.of(type).gemvNormSilu1(),
                  LlmKernels.gemvNormConfig(type, inter, k, blocks),
                  type,
                  x,
                  norm,
                  w,
                  Arrays16.of(type, Arrays16.gaussian(random, type, inter + 1, 1)),
                  inter,
                  k,
                  epsilon);
          assertSame(type, 1e-4f, silu, "gemv_norm_silu1, " + what);
          float[] expected = Arrays16.values(type, h), got = Arrays16.values(type, silu[1][3]);
          assertArrayEquals(
              expected,
              Arrays.copyOf(got, inter),
              "gemv_norm_silu1 against the kernels apart, " + what);
          tested++;
        }
        tested++;
      }
    }
    assertTrue(tested >= 6, tested + " products");
  }

  /**
   * {@return rms_norm(x) w^T for one row, as rms_norm then gemv_stream1 compute it on the GPU on
   * {@code blocks} blocks}: what the fused one-token kernels must equal bit for bit
   */
  private float[] normedProductApart(
      DType type, float[] x, Object norm, Object w, int rows, int k, float epsilon, int blocks) {
    Object xn =
        run(
            LlmKernels.of(type).rmsNorm(),
            LaunchConfig.of(1, LlmKernels.NORM_BLOCK),
            type,
            x,
            norm,
            Arrays16.of(type, new float[k]),
            k,
            epsilon)[1][2];
    return (float[])
        run(
            LlmKernels.of(type).gemvStream1(),
            LlmKernels.gemvStreamConfig(rows, blocks),
            type,
            xn,
            w,
            new float[rows],
            1,
            rows,
            k,
            0)[1][2];
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvNormRope1IsTheKernelsApartBitForBitWithItsCacheWrites(DType type) {
    int sms = platform.defaultDevice().attribute(cuda.graph.Device.Attribute.MULTIPROCESSOR_COUNT);
    int k = 2048, heads = 8, kvHeads = 2;
    float epsilon = 1e-5f;
    for (int headDim : new int[] {64, 128}) {
      int width = (heads + 2 * kvHeads) * headDim, kv = kvHeads * headDim;
      float[] inverse =
          Rope.inverseFrequencies(headDim, 500000, new Rope.Llama3Scaling(32, 1, 4, 8192));
      int[] tables = tables(2), seqOfToken = {1};
      float[] x = Arrays16.gaussian(random, DType.F32, k, 3);
      Object norm = Arrays16.of(type, Arrays16.gaussian(random, type, k, 1));
      Object w = Arrays16.of(type, Arrays16.gaussian(random, type, width * k, 1));
      Object kCache = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      Object vCache = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      // The kernels apart on the GPU: rms_norm, gemv_stream1, then rope_cache.
      float[] product = normedProductApart(type, x, norm, w, width, k, epsilon, 4 * sms);
      for (int position : new int[] {300, 17, -1}) {
        int[] positions = {position};
        Object[] apart =
            run(
                LlmKernels.of(type).ropeCache(),
                LaunchConfig.of(1, LlmKernels.ROPE_BLOCK),
                type,
                product.clone(),
                inverse,
                positions,
                seqOfToken,
                tables,
                kCache,
                vCache,
                heads,
                kvHeads,
                headDim,
                MAX_BLOCKS)[1];
        for (int blocks : new int[] {4 * sms, 3}) {
          String what =
              "heads of " + headDim + ", position " + position + ", " + blocks + " blocks";
          Object[][] fused =
              run(
                  LlmKernels.of(type).gemvNormRope1(),
                  LlmKernels.gemvNormConfig(type, width / 2, k, blocks),
                  type,
                  x,
                  norm,
                  w,
                  new float[width],
                  inverse,
                  positions,
                  seqOfToken,
                  tables,
                  kCache,
                  vCache,
                  heads,
                  kvHeads,
                  headDim,
                  MAX_BLOCKS,
                  k,
                  epsilon);
          // Against the kernels apart on the GPU, bit for bit: each of those is checked against
          // its reference above, and LlmKernelsTests checks that this kernel's reference is
          // theirs. (A bound against the reference itself would have to scale with the pair
          // before the rotation, which can cancel two large values into a small one.)
          Object[] gpu = fused[1];
          assertArrayEquals((float[]) apart[0], (float[]) gpu[3], "qkv against apart, " + what);
          assertArrayEquals(
              Arrays16.values(type, apart[5]),
              Arrays16.values(type, gpu[8]),
              "k cache against apart, " + what);
          assertArrayEquals(
              Arrays16.values(type, apart[6]),
              Arrays16.values(type, gpu[9]),
              "v cache against apart, " + what);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void siluMulMatchesItsReference(DType type) {
    int tokens = 7, inter = 8192;
    float[] gu = Arrays16.gaussian(random, DType.F32, tokens * 2 * inter, 3);
    assertSame(
        type,
        1e-6f,
        run(
            LlmKernels.of(type).siluMul(),
            LaunchConfig.of(4096, LlmKernels.BLOCK),
            type,
            gu,
            Arrays16.of(type, new float[tokens * inter]),
            tokens,
            inter),
        "silu_mul");
  }

  /** Runs sample on both sides over the rows of {@code logits}, row s drawn by {@code of(s)}. */
  private Object[][] sample(float[] logits, int vocab, IntFunction<Sampling> of) {
    int rows = logits.length / vocab;
    int[] params = new int[rows * LlmKernels.SAMPLING_WORDS];
    for (int s = 0; s < rows; s++) {
      System.arraycopy(
          of.apply(s).words(s + 10),
          0,
          params,
          s * LlmKernels.SAMPLING_WORDS,
          LlmKernels.SAMPLING_WORDS);
    }
    // argmax_parts on both sides (its keys exact), then sample on both sides from its keys.
    int parts = LlmKernels.argmaxParts(rows);
    Object[][] keys =
        run(
            LlmKernels.ARGMAX_PARTS,
            new LaunchConfig(Dim3.of(rows, parts), Dim3.of(LlmKernels.SAMPLE_BLOCK), 0),
            DType.F32,
            logits,
            new int[2 * rows * parts],
            vocab);
    assertEquals(
        Arrays.toString((int[]) keys[0][1]),
        Arrays.toString((int[]) keys[1][1]),
        "argmax_parts' keys, vocabulary " + vocab);
    return run(
        LlmKernels.SAMPLE,
        LaunchConfig.of(rows, LlmKernels.SAMPLE_BLOCK),
        DType.F32,
        logits,
        params,
        new int[rows],
        vocab,
        keys[0][1],
        parts);
  }

  @Test
  void greedySamplingIsTheArgmaxWithTheLowestIndexOnTiesForVocabulariesOfAnyWidth() {
    // Widths that are multiples of 4 take the kernel's four-a-load path, the others its plain
    // loop; each row has its maximum twice (the lower index wins), planted at rows' ends too.
    for (int vocab : new int[] {7, 32000, 32001, 128256}) {
      int rows = 8;
      float[] logits = Arrays16.gaussian(random, DType.F32, rows * vocab, 3);
      int[] expected = new int[rows];
      for (int s = 0; s < rows; s++) {
        int a = s == 0 ? 0 : random.nextInt(vocab), b = s == 1 ? vocab - 1 : random.nextInt(vocab);
        logits[s * vocab + a] = 100;
        logits[s * vocab + b] = 100;
        expected[s] = Math.min(a, b);
      }
      Object[][] runs = sample(logits, vocab, s -> Sampling.GREEDY);
      assertEquals(
          Arrays.toString(expected),
          Arrays.toString((int[]) runs[0][2]),
          "the reference, vocabulary " + vocab);
      assertEquals(
          Arrays.toString(expected),
          Arrays.toString((int[]) runs[1][2]),
          "the GPU, vocabulary " + vocab);
    }
  }

  @Test
  void sampleDrawsTheReferencesTokensOrWhereRoundingDecidesItsNucleusNeighbour() {
    int vocab = 32000, rows = 64;
    float[] logits = Arrays16.gaussian(random, DType.F32, rows * vocab, 3);
    Object[][] runs =
        sample(
            logits,
            vocab,
            s ->
                s % 4 == 0
                    ? Sampling.GREEDY
                    : new Sampling(0.5f + s % 3, s % 2 == 0 ? 1f : 0.9f, s * 101L));
    int[] reference = (int[]) runs[0][2], gpu = (int[]) runs[1][2];
    int differ = 0;
    for (int s = 0; s < rows; s++) {
      if (reference[s] == gpu[s]) {
        continue;
      }
      differ++;
      assertTrue(s % 4 != 0, "greedy row " + s + ": " + gpu[s] + " against " + reference[s]);
      // Neighbours in index order among the tokens of any weight: nothing lies between them.
      int lo = Math.min(reference[s], gpu[s]), hi = Math.max(reference[s], gpu[s]);
      float max = Float.NEGATIVE_INFINITY;
      for (int i = 0; i < vocab; i++) {
        max = Math.max(max, logits[s * vocab + i]);
      }
      float cut = max - 30; // far below the top-p cut of every row here
      for (int i = lo + 1; i < hi; i++) {
        assertTrue(
            logits[s * vocab + i] < cut,
            "row " + s + ": the GPU drew " + gpu[s] + ", the reference " + reference[s]);
      }
    }
    assertTrue(differ <= 1, differ + " of " + rows + " draws differ");
  }
}
