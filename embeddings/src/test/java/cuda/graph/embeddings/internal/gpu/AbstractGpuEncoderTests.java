// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.Stream;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.MiniLm;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The encoder as graphs gives LangChain4j's embeddings: every sentence of a batch within cosine
 * 0.99999 of the plain-Java reference and of LangChain4j (on the GPU host too: ONNX Runtime travels
 * with the example) and of norm 1 within 1e-5, a batch of another length is a graph of its own, and
 * a shape seen before replays its graph. The same on every provider (the subclasses).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractGpuEncoderTests {

  static final double MIN_COSINE = MiniLm.MIN_COSINE;

  /** The floor for the fp16 mode. */
  static final double MIN_FP16_COSINE = 0.9995;

  /** Four short sentences, one batch (padded to the longest, 11 tokens). */
  static final List<String> BATCH =
      List.of(
          "A man is eating food.",
          "A man is eating a piece of bread.",
          "The girl is carrying a baby.",
          "A man is riding a horse.");

  /** Two sentences of another length (8 tokens). */
  static final List<String> OTHER_BATCH = List.of("Hi", "A woman is playing violin.");

  private static final Map<String, float[][]> EXPECTED = new ConcurrentHashMap<>();

  private CudaPlatform platform;
  private Stream stream;
  private GpuEncoder encoder;

  /** {@return the platform the tests run on, opened} */
  abstract CudaPlatform openPlatform();

  /** Closes the platform if the tests own it. */
  abstract void closePlatform(CudaPlatform platform);

  @BeforeAll
  void open() {
    platform = openPlatform();
    stream = platform.defaultDevice().newStream();
    encoder = new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 8, 128);
  }

  @AfterAll
  void close() {
    if (encoder != null) {
      encoder.close();
    }
    if (stream != null) {
      stream.close();
    }
    if (platform != null) {
      closePlatform(platform);
    }
  }

  /** {@return the reference's embedding of {@code text} and LangChain4j's} */
  float[][] expected(String text) {
    return EXPECTED.computeIfAbsent(
        text,
        t ->
            new float[][] {
              MiniLm.Ours.ENCODER.embed(MiniLm.Ours.TOKENIZER.parts(t)), MiniLm.Anchor.embed(t)
            });
  }

  /**
   * Fails unless each embedding has cosine at least {@code minCosine} to each anchor's embedding
   * and norm 1 within 1e-5 ({@link MiniLm#assertEmbedding}).
   */
  void assertCloseToTheAnchors(List<String> texts, float[][] embeddings, double minCosine) {
    assertEquals(texts.size(), embeddings.length);
    for (int i = 0; i < texts.size(); i++) {
      float[][] anchors = expected(texts.get(i));
      String text = texts.get(i);
      MiniLm.assertEmbedding(embeddings[i], anchors[0], minCosine, "\"" + text + "\" (reference)");
      MiniLm.assertEmbedding(
          embeddings[i], anchors[1], minCosine, "\"" + text + "\" (LangChain4j)");
    }
  }

  @Test
  void everySentenceOfABatchHasCosineAtLeast0_99999WithTheReferenceAndLangChain4j() {
    assertCloseToTheAnchors(BATCH, encoder.embed(BATCH), MIN_COSINE);
  }

  @Test
  void aBatchRunsInTheSmallestBatchAndLengthBucketsThatHoldIt() {
    assertEquals(new GpuEncoder.Shape(4, 16), encoder.shapeFor(4, 11));
    assertEquals(new GpuEncoder.Shape(4, 16), encoder.shapeFor(3, 16));
    assertEquals(new GpuEncoder.Shape(8, 24), encoder.shapeFor(5, 17));
    assertEquals(new GpuEncoder.Shape(8, 72), encoder.shapeFor(5, 65));
    assertEquals(new GpuEncoder.Shape(8, 128), encoder.shapeFor(8, 128));
    // Three texts run padded to four rows: the padding row changes no embedding.
    List<String> three = BATCH.subList(0, 3);
    assertCloseToTheAnchors(three, encoder.embed(three), MIN_COSINE);
  }

  @Test
  void onlyQueriesSizedShapesRunTheOneQueryAWarpAttention() {
    assertTrue(GpuEncoder.shortAttention(1, 32), "one query");
    assertTrue(GpuEncoder.shortAttention(8, 32), "8 x 32 tokens");
    assertTrue(GpuEncoder.shortAttention(4, 64), "4 x 64 tokens");
    assertFalse(GpuEncoder.shortAttention(16, 32), "16 x 32 tokens: an ingestion batch");
    assertFalse(GpuEncoder.shortAttention(256, 48), "256 x 48 tokens");
    assertFalse(GpuEncoder.shortAttention(1, 72), "longer than 64 tokens");
  }

  @Test
  void byDefaultLengthsPadToAMultipleOf8UpTo128ThenOf64() {
    List<Integer> expected = new java.util.ArrayList<>();
    for (int length = 16; length <= 128; length += 8) {
      expected.add(length);
    }
    expected.addAll(List.of(192, 256, 320, 384, 448, 500));
    assertEquals(expected, GpuEncoder.defaultLengthBuckets(500).sizes());
  }

  @Test
  void aBatchOfAnotherBucketIsAGraphOfItsOwnAndABucketSeenBeforeReplaysItsGraph() {
    GraphCache<GpuEncoder.Shape> graphs = encoder.graphs();
    GpuEncoder.Shape first = new GpuEncoder.Shape(4, 16); // 4 texts of up to 11 tokens
    GpuEncoder.Shape other = new GpuEncoder.Shape(2, 16); // 2 texts of up to 8 tokens
    float[][] before = encoder.embed(BATCH);
    long replays = graphs.stats(first).orElseThrow().replays();

    float[][] otherEmbeddings = encoder.embed(OTHER_BATCH);
    float[][] again = encoder.embed(BATCH);

    assertCloseToTheAnchors(OTHER_BATCH, otherEmbeddings, MIN_COSINE);
    assertEquals(
        java.util.Set.of(first, other), graphs.stats().keySet(), "one graph per shape, no more");
    assertEquals(replays + 1, graphs.stats(first).orElseThrow().replays());
    assertEquals(
        GpuEncoder.temporaryBytes(
            MiniLm.Ours.WEIGHTS.architecture, 2 * 16, GpuEncoder.Precision.FP32),
        graphs.stats(other).orElseThrow().graphMemoryBytes());
    assertEquals(Collections.emptyList(), graphs.notGraphed());
    // The embeddings kernel, 8 nodes a layer in fp32 (4 of them matmuls, 1 the exact GELU),
    // pooling.
    assertEquals(2 + 6 * 8, encoder.nodesPerGraph());
    assertEquals(6 * 4, encoder.matmulNodesPerGraph());
    for (int i = 0; i < BATCH.size(); i++) {
      assertArrayEquals(
          before[i], again[i], "a replay gives the same embedding of " + BATCH.get(i));
    }
  }

  @Test
  void theExactGeluKernelBringsEveryCosineAbove0_99999999() {
    try (GpuEncoder exact =
        new GpuEncoder(
            MiniLm.Ours.WEIGHTS,
            MiniLm.Ours.TOKENIZER,
            stream,
            4,
            16,
            GpuEncoder.Precision.FP32,
            GpuEncoder.Gelu.EXACT_KERNEL)) {
      assertCloseToTheAnchors(BATCH, exact.embed(BATCH), 1 - 1e-8);
    }
  }

  @Test
  void inFp16EverySentenceHasCosineAtLeast0_9995WithTheReferenceAndLangChain4j() {
    try (GpuEncoder fp16 =
        new GpuEncoder(
            MiniLm.Ours.WEIGHTS,
            MiniLm.Ours.TOKENIZER,
            stream,
            4,
            32,
            GpuEncoder.Precision.FP16,
            GpuEncoder.Gelu.EPILOGUE)) {
      float[][] first = fp16.embed(BATCH);
      float[][] other = fp16.embed(OTHER_BATCH);

      assertCloseToTheAnchors(BATCH, first, MIN_FP16_COSINE);
      assertCloseToTheAnchors(OTHER_BATCH, other, MIN_FP16_COSINE);
      // fp16 arithmetic really ran: not the fp32 mode's embedding to the last bit
      assertTrue(
          MiniLm.cosine(first[0], encoder.embed(BATCH)[0]) < 1 - 1e-9,
          "the fp16 mode gives the fp32 mode's embedding");
      assertEquals(
          GpuEncoder.temporaryBytes(
              MiniLm.Ours.WEIGHTS.architecture, 4 * 16, GpuEncoder.Precision.FP16),
          fp16.graphs().stats(new GpuEncoder.Shape(4, 16)).orElseThrow().graphMemoryBytes());
    }
  }

  @Test
  void inFp16AQueryAndTwoShortSentencesRunOnTheEncodersOwnKernelsAndMeetTheFloor() {
    List<String> one = List.of("How do I embed a query on the GPU?");
    float[][] onQueryPath, onCublasLt;
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT)) {
      // One query (1 x 16 tokens), two short sentences (2 x 16) and four (4 x 16: 64 tokens, two
      // block rows of each product): all on the query path.
      onQueryPath = fp16.embed(one);
      float[][] two = fp16.embed(OTHER_BATCH);
      // The inputs' copy from mapped memory, the embeddings kernel, seven a layer (the Q | K | V
      // product, attention, the output product, LayerNorm, the up product, the down product,
      // LayerNorm) less the LayerNorms the products take by default, pooling.
      assertEquals(3 + 6 * (7 - fusedNorms(GpuEncoder.QUERY_NORMS_MAX_K)), fp16.nodesPerGraph());
      assertEquals(0, fp16.matmulNodesPerGraph(), "a product of the query path on cuBLASLt");
      assertCloseToTheAnchors(one, onQueryPath, MIN_FP16_COSINE);
      assertCloseToTheAnchors(OTHER_BATCH, two, MIN_FP16_COSINE);
      assertCloseToTheAnchors(BATCH, fp16.embed(BATCH), MIN_FP16_COSINE);
      assertEquals(0, fp16.matmulNodesPerGraph());
    }
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT.withQueryTokens(32))) {
      // Past the sizing's 32 tokens, 4 x 16 takes cuBLASLt's products.
      assertCloseToTheAnchors(BATCH, fp16.embed(BATCH), MIN_FP16_COSINE);
      assertEquals(6 * 4, fp16.matmulNodesPerGraph());
    }
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT.withQueryTokens(0))) {
      onCublasLt = fp16.embed(one);
      assertEquals(2 + 6 * 7, fp16.nodesPerGraph());
      assertEquals(6 * 4, fp16.matmulNodesPerGraph());
      assertCloseToTheAnchors(one, onCublasLt, MIN_FP16_COSINE);
    }
    // The paths ran different arithmetic (the query path's exact GELU and own sums), each within
    // the floor.
    assertTrue(
        MiniLm.cosine(onQueryPath[0], onCublasLt[0]) < 1 - 1e-9,
        "the query path gave cuBLASLt's embedding to the last bit");
  }

  /** {@return the LayerNorms of a layer that its products over rows of up to maxK take} */
  private static int fusedNorms(int maxK) {
    return (384 <= maxK ? 1 : 0) + (1536 <= maxK ? 1 : 0);
  }

  @ParameterizedTest(name = "products over rows of up to {0} take their LayerNorm")
  @ValueSource(ints = {384, 1536})
  void onTheQueryPathAnOutputProductWithItsLayerNormInOneNodeGivesTheTwoNodesEmbeddings(int maxK) {
    List<String> one = List.of("How do I embed a query on the GPU?");
    float[][] fused, twoNodes, fusedBatch, twoNodesBatch;
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT.withQueryNormsMaxK(maxK))) {
      fused = fp16.embed(one);
      fusedBatch = fp16.embed(BATCH); // 4 x 16: 64 rows, two bands of 32 or four of 16
      assertEquals(3 + 6 * (7 - fusedNorms(maxK)), fp16.nodesPerGraph());
    }
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT.withQueryNormsMaxK(0))) {
      twoNodes = fp16.embed(one);
      twoNodesBatch = fp16.embed(BATCH);
      assertEquals(3 + 6 * 7, fp16.nodesPerGraph());
    }
    assertCloseToTheAnchors(one, fused, MIN_FP16_COSINE);
    assertCloseToTheAnchors(BATCH, fusedBatch, MIN_FP16_COSINE);
    // The same sums, in another order on a GPU (a row's mean from the cluster's parts).
    assertTrue(MiniLm.cosine(fused[0], twoNodes[0]) >= 1 - 1e-6, "one query");
    for (int i = 0; i < BATCH.size(); i++) {
      assertTrue(MiniLm.cosine(fusedBatch[i], twoNodesBatch[i]) >= 1 - 1e-6, "sentence " + i);
    }
  }

  @Test
  void inFp16TheAttentionOnTheTensorCoresMeetsTheFloorOnBothPathsAndIsItsOwnArithmetic() {
    List<String> one = List.of("How do I embed a query on the GPU?");
    // By default only shapes of 512 tokens or more attend on the tensor cores: none here.
    assertEquals(512, GpuEncoder.Sizing.DEFAULT.attentionTilesTokens());
    float[][] plain, tiles, plainBatch, tilesBatch;
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT)) {
      plain = fp16.embed(one);
    }
    try (GpuEncoder fp16 = fp16(GpuEncoder.Sizing.DEFAULT.withAttentionTilesTokens(1))) {
      // The query path: Q | K | V in fp32, rounded as the kernel stages them.
      tiles = fp16.embed(one);
      assertCloseToTheAnchors(one, tiles, MIN_FP16_COSINE);
      assertCloseToTheAnchors(OTHER_BATCH, fp16.embed(OTHER_BATCH), MIN_FP16_COSINE);
    }
    GpuEncoder.Sizing cublasLt = GpuEncoder.Sizing.DEFAULT.withQueryTokens(0);
    try (GpuEncoder fp16 = fp16(cublasLt)) {
      plainBatch = fp16.embed(BATCH);
    }
    try (GpuEncoder fp16 = fp16(cublasLt.withAttentionTilesTokens(1))) {
      // The cuBLASLt path: the Q | K | V product writes fp16 for the kernel.
      tilesBatch = fp16.embed(BATCH);
      assertCloseToTheAnchors(BATCH, tilesBatch, MIN_FP16_COSINE);
      assertEquals(6 * 4, fp16.matmulNodesPerGraph());
    }
    // The weights rounded to fp16 make each embedding its own, within the floor of both.
    assertTrue(MiniLm.cosine(plain[0], tiles[0]) < 1 - 1e-9, "the tiles did not run");
    assertTrue(MiniLm.cosine(plainBatch[0], tilesBatch[0]) < 1 - 1e-9, "the tiles did not run");
  }

  @Test
  void theQueryPathTakesShapesOfUpTo1024TokensAndNoOtherSizeIsAccepted() {
    assertEquals(GpuEncoder.QUERY_TOKENS, GpuEncoder.Sizing.DEFAULT.queryTokens());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> GpuEncoder.Sizing.DEFAULT.withQueryTokens(1025));
    assertTrue(e.getMessage().contains("up to 1024 tokens; got 1025"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> GpuEncoder.Sizing.DEFAULT.withQueryTokens(-1));
  }

  @Test
  void aQueryProductRefusesRowsWidthsAndBuffersItCannotTakeNamingItselfBeforeAnyLaunch() {
    try (DeviceBuffer<Short> a = DeviceBuffer.zeros(ElementType.F16, 40 * 64).syncOn(stream);
        DeviceBuffer<Short> w = DeviceBuffer.zeros(ElementType.F16, 64 * 64).syncOn(stream);
        DeviceBuffer<Float> bias = DeviceBuffer.zeros(ElementType.F32, 64).syncOn(stream);
        DeviceBuffer<Float> out = DeviceBuffer.zeros(ElementType.F32, 40 * 64).syncOn(stream)) {
      String rows =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> EncoderKernels.queryLinearBias(a, w, bias, out, 0, 64, 64))
              .getMessage();
      assertTrue(rows.startsWith("EncoderKernels.query_linear_bias: 0 rows"), rows);
      String shortOut =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> EncoderKernels.queryLinearBias(a, w, bias, out, 41, 64, 64))
              .getMessage();
      assertTrue(shortOut.contains("a holds 2560 elements, 2624 needed"), shortOut);
      String width =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> EncoderKernels.queryLinearResidual(a, w, bias, out, out, 4, 64, 40))
              .getMessage();
      assertTrue(width.contains("a multiple of 16"), width);
      String columns =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> EncoderKernels.queryLinearBias(a, w, bias, out, 4, 48, 64))
              .getMessage();
      assertTrue(columns.contains("columns a multiple of 32"), columns);
      String shortWeight =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> EncoderKernels.queryLinearBias(a, w, bias, out, 4, 64, 128))
              .getMessage();
      assertTrue(shortWeight.contains("w holds 4096 elements, 8192 needed"), shortWeight);
    }
  }

  @Test
  void theProductWithItsLayerNormRefusesAnyWidthButItsClustersAndShortBuffersBeforeAnyLaunch() {
    int n = EncoderKernels.QUERY_NORM_WIDTH, k = 128;
    try (DeviceBuffer<Short> a = DeviceBuffer.zeros(ElementType.F16, 20 * k).syncOn(stream);
        DeviceBuffer<Short> w = DeviceBuffer.zeros(ElementType.F16, k * n).syncOn(stream);
        DeviceBuffer<Float> vector = DeviceBuffer.zeros(ElementType.F32, n).syncOn(stream);
        DeviceBuffer<Float> narrow = DeviceBuffer.zeros(ElementType.F32, 256).syncOn(stream);
        DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, 20 * n).syncOn(stream);
        DeviceBuffer<Short> xHalf = DeviceBuffer.zeros(ElementType.F16, 20 * n).syncOn(stream)) {
      String width =
          assertThrows(
                  IllegalArgumentException.class,
                  () ->
                      EncoderKernels.queryLinearResidualNorm(
                          a, w, vector, x, narrow, narrow, x, xHalf, 20, k, 1e-12f))
              .getMessage();
      assertTrue(
          width.startsWith("EncoderKernels.query_linear_residual_norm: 20 rows of 128 into 256")
              && width.contains("exactly 384 columns"),
          width);
      String shortK =
          assertThrows(
                  IllegalArgumentException.class,
                  () ->
                      EncoderKernels.queryLinearResidualNorm(
                          a, w, vector, x, vector, vector, x, xHalf, 20, 96, 1e-12f))
              .getMessage();
      assertTrue(shortK.contains("a multiple of 16 from 112"), shortK);
      String shortHalf =
          assertThrows(
                  IllegalArgumentException.class,
                  () ->
                      EncoderKernels.queryLinearResidualNorm(
                          a,
                          w,
                          vector,
                          x,
                          vector,
                          vector,
                          x,
                          xHalf.slice(0, 19L * n),
                          20,
                          k,
                          1e-12f))
              .getMessage();
      assertTrue(shortHalf.contains("outHalf holds 7296 elements, 7680 needed"), shortHalf);
    }
  }

  /** {@return an fp16 encoder of batches of up to 4 texts of up to 32 tokens} */
  private GpuEncoder fp16(GpuEncoder.Sizing sizing) {
    return new GpuEncoder(
        MiniLm.Ours.WEIGHTS,
        MiniLm.Ours.TOKENIZER,
        stream,
        4,
        32,
        GpuEncoder.Precision.FP16,
        GpuEncoder.Gelu.EPILOGUE,
        cuda.graph.embeddings.Pooling.MEAN,
        sizing);
  }

  @Test
  void aTextOfTheLongest128TokensBesideShortOnesIsEmbeddedAsTheAnchorsEmbedIt() {
    // 128 tokens are two key tiles of the attention kernel; the short texts are mostly padding.
    List<String> texts = List.of(MiniLm.LONG_TEXT, "Hi", "A man is eating food.");
    try (GpuEncoder own =
        new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 128)) {
      assertCloseToTheAnchors(texts, own.embed(texts), MIN_COSINE);
    }
  }

  @Test
  void aTextOfTwoRunsIsLangChain4jsWeightedAverageOfThemAloneAndInBatchesBesideAShortText()
      throws java.io.IOException {
    // DJL truncates at 512 tokens, so LangChain4j makes one run of every text; a tokenizer that
    // kept more would make several. The runs come from the text's untruncated tokens, split as
    // LangChain4j splits them, and the anchor is LangChain4j's own code for such a text.
    List<String> tokens;
    try (ai.djl.huggingface.tokenizers.HuggingFaceTokenizer untruncated =
        ai.djl.huggingface.tokenizers.HuggingFaceTokenizer.newInstance(
            new java.io.ByteArrayInputStream(MiniLm.Ours.ARTIFACT.readTokenizer()),
            Map.of("padding", "false", "truncation", "false"))) {
      tokens = untruncated.tokenize(MiniLm.LONG_TEXT);
    }
    List<BertTokenizer.Part> runs = MiniLm.Ours.TOKENIZER.partsAsLangChain4j(tokens);
    assertEquals(List.of(510, 370), runs.stream().map(BertTokenizer.Part::weight).toList());
    float[] anchor = MiniLm.Anchor.embedRuns(MiniLm.Anchor.partition(tokens, 510));
    String shortText = "A man is eating food.";
    List<BertTokenizer.Part> one = MiniLm.Ours.TOKENIZER.parts(shortText);

    try (GpuEncoder own =
        new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 2, 512)) {
      float[] alone = own.embedParts(List.of(runs))[0];
      // Three runs for batches of two: two graphs, the runs sorted by length.
      float[][] beside = own.embedParts(List.of(one, runs));

      MiniLm.assertEmbedding(alone, anchor, MIN_COSINE, "the two runs alone (LangChain4j)");
      MiniLm.assertEmbedding(beside[1], anchor, MIN_COSINE, "the two runs beside a short text");
      MiniLm.assertEmbedding(
          beside[0], expected(shortText)[1], MIN_COSINE, "the short text (LangChain4j)");
      // Not merely the first run's embedding.
      float[] first = own.embedParts(List.of(runs.subList(0, 1)))[0];
      assertTrue(MiniLm.cosine(first, anchor) < 0.999, "the first run alone is not the text");
    }
  }

  @Test
  void theEagerPathLaunchesTheGraphsNodesOneByOneAndGivesItsEmbeddingsWithoutAGraph() {
    int graphs = encoder.graphs().stats().size();
    List<String> texts = List.of("A man is eating food.", "Someone is playing a guitar on stage.");

    float[][] eager = encoder.embedEagerly(texts);
    float[][] again = encoder.embedEagerly(texts);
    assertEquals(graphs, encoder.graphs().stats().size(), "the eager path captures no graph");
    for (int i = 0; i < texts.size(); i++) {
      assertArrayEquals(eager[i], again[i], "a second eager run of " + texts.get(i));
    }
    float[][] graphed = encoder.embed(texts);

    for (int i = 0; i < texts.size(); i++) {
      for (int d = 0; d < eager[i].length; d++) {
        assertEquals(graphed[i][d], eager[i][d], 1e-6, "dimension " + d + " of " + texts.get(i));
      }
    }
    assertCloseToTheAnchors(texts, eager, MIN_COSINE);
  }

  @Test
  void aModelWithHeadsWiderThanTheAttentionKernelTakesIsRefusedNamingItsHeadsAndTheWayOut() {
    EncoderWeights wide =
        EncoderWeights.from(cuda.graph.embeddings.internal.model.OnnxEdits.withHeadsOf64());

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new GpuEncoder(wide, MiniLm.Ours.TOKENIZER, stream, 1, 16));

    assertTrue(
        e.getMessage()
            .startsWith(
                "GpuEncoder: the model has 6 heads of 64 in rows of 384; the encoder's kernels"
                    + " take heads of up to 32"),
        e.getMessage());
    assertTrue(e.getMessage().contains("WhenNoGpu.FALL_BACK_TO_CPU"), e.getMessage());
  }

  @Test
  void theExactGeluKernelIsRefusedInFp16WithTheTwoWaysOut() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new GpuEncoder(
                    MiniLm.Ours.WEIGHTS,
                    MiniLm.Ours.TOKENIZER,
                    stream,
                    1,
                    16,
                    GpuEncoder.Precision.FP16,
                    GpuEncoder.Gelu.EXACT_KERNEL));
    assertTrue(e.getMessage().contains("Gelu.EPILOGUE"), e.getMessage());
  }

  @Test
  void aNullOrUnembeddableTextIsRefusedNamingItsIndexBeforeAnyGraph() {
    int graphs = encoder.graphs().stats().size();

    NullPointerException nul =
        assertThrows(
            NullPointerException.class, () -> encoder.embed(java.util.Arrays.asList("Hi", null)));
    IllegalArgumentException blank =
        assertThrows(
            IllegalArgumentException.class, () -> encoder.embedEagerly(List.of("Hi", "Ok", "\t")));

    assertTrue(
        nul.getMessage().startsWith("GpuEncoder.embed: text 1 of 2 is null;"), nul.getMessage());
    assertTrue(
        blank.getMessage().startsWith("GpuEncoder.embedEagerly: text 2 of 3 has no word pieces"),
        blank.getMessage());
    assertEquals(graphs, encoder.graphs().stats().size());
  }

  @Test
  void moreTextsThanTheLargestBatchAreRefusedBeforeAnyGraph() {
    List<String> nine = Collections.nCopies(9, "A man is eating food.");
    int graphs = encoder.graphs().stats().size();

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> encoder.embed(nine));

    assertTrue(e.getMessage().contains("1 to 8"), e.getMessage());
    assertEquals(graphs, encoder.graphs().stats().size());
  }
}
