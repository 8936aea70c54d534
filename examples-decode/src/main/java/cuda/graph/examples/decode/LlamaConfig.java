// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import java.util.List;
import java.util.Map;

/**
 * The shape of a llama-architecture model (MODEL.md): every size the kernels and the weights need.
 *
 * @param name the configuration's name, e.g. {@code stories15M}
 * @param dim the width of the residual stream
 * @param layers the number of transformer blocks
 * @param heads the number of query heads
 * @param kvHeads the number of key/value heads (grouped-query attention when below {@code heads})
 * @param ffn the hidden width of the feed-forward network
 * @param vocab the number of tokens
 * @param maxSeq the length of the KV cache: the most positions a decode can reach
 * @param ropeTheta the base of the rotary embedding's frequencies
 * @param normEps the epsilon of RMSNorm
 */
public record LlamaConfig(
    String name,
    int dim,
    int layers,
    int heads,
    int kvHeads,
    int ffn,
    int vocab,
    int maxSeq,
    float ropeTheta,
    float normEps) {

  /** A model small enough for the simulator, where the Java references run every kernel. */
  public static final LlamaConfig TINY =
      new LlamaConfig("tiny", 64, 2, 4, 2, 128, 256, 64, 10000f, 1e-5f);

  /** The shape of TinyStories' 15M-parameter llama. */
  public static final LlamaConfig STORIES_15M =
      new LlamaConfig("stories15M", 288, 6, 6, 6, 768, 32000, 512, 10000f, 1e-5f);

  /** The shape of TinyStories' 110M-parameter llama. */
  public static final LlamaConfig STORIES_110M =
      new LlamaConfig("stories110M", 768, 12, 12, 12, 2048, 32000, 512, 10000f, 1e-5f);

  /** The shape of Llama 3.2 1B (grouped-query attention, 128256 tokens). */
  public static final LlamaConfig LLAMA_1B =
      new LlamaConfig("llama-3.2-1B", 2048, 16, 32, 8, 8192, 128256, 512, 500000f, 1e-5f);

  /** Every named configuration, smallest first. */
  public static final List<LlamaConfig> ALL = List.of(TINY, STORIES_15M, STORIES_110M, LLAMA_1B);

  /** Checks the sizes the kernels rely on. */
  public LlamaConfig {
    if (dim % heads != 0 || heads % kvHeads != 0) {
      throw new IllegalArgumentException(
          name + ": dim must divide into heads, and heads into kv_heads");
    }
    for (int size : new int[] {dim, ffn, headDim(dim, heads)}) {
      if (size % 8 != 0) {
        throw new IllegalArgumentException(
            name
                + ": the kernels read 8 weights at a time, so dim, ffn and head_dim must be"
                + " multiples of 8");
      }
    }
    if (headDim(dim, heads) > 128 || maxSeq % 4 != 0) {
      throw new IllegalArgumentException(
          name
              + ": the attention kernel holds at most 128 dimensions per head, and reads the"
              + " cache as float4 (max_seq a multiple of 4)");
    }
    if (maxSeq < 2 || layers < 1 || vocab < 2) {
      throw new IllegalArgumentException(name + ": needs max_seq >= 2, layers >= 1, vocab >= 2");
    }
  }

  private static int headDim(int dim, int heads) {
    return dim / heads;
  }

  /** {@return the width of one attention head} */
  public int headDim() {
    return dim / heads;
  }

  /** {@return the width of the keys (and values) of one position: kv_heads * head_dim} */
  public int kvDim() {
    return kvHeads * headDim();
  }

  /** {@return the rows of the fused Q, K and V projection} */
  public int qkvRows() {
    return dim + 2 * kvDim();
  }

  /** {@return the kernels one decode step launches: 5 per layer, the embedding, logits, finish} */
  public int kernelsPerToken() {
    return 5 * layers + 3;
  }

  /** {@return the number of weights, all fp16} */
  public long parameters() {
    long perLayer = 2L * dim + (long) qkvRows() * dim + (long) dim * dim + 3L * ffn * dim;
    return 2L * vocab * dim + layers * perLayer + dim;
  }

  /**
   * {@return the weight bytes one decode step streams from memory}: every layer's weights, the
   * final norm and the output matrix, and of the token embedding only the row of the token fed (not
   * the table: counting it overstated the 1B shape's traffic, 3.0 GB against 2.47 GB)
   */
  public long streamedWeightBytesPerToken() {
    return Short.BYTES * (parameters() - (long) vocab * dim + dim);
  }

  /** {@return the configuration as the safetensors metadata of MODEL.md} */
  public Map<String, String> metadata(long seed) {
    return Map.ofEntries(
        Map.entry("name", name),
        Map.entry("dim", Integer.toString(dim)),
        Map.entry("layers", Integer.toString(layers)),
        Map.entry("heads", Integer.toString(heads)),
        Map.entry("kv_heads", Integer.toString(kvHeads)),
        Map.entry("ffn", Integer.toString(ffn)),
        Map.entry("vocab", Integer.toString(vocab)),
        Map.entry("max_seq", Integer.toString(maxSeq)),
        Map.entry("rope_theta", Float.toString(ropeTheta)),
        Map.entry("norm_eps", Float.toString(normEps)),
        Map.entry("seed", Long.toString(seed)));
  }

  /** {@return the configuration the metadata of a weights file describes} */
  public static LlamaConfig fromMetadata(Map<String, String> m) {
    return new LlamaConfig(
        require(m, "name"),
        Integer.parseInt(require(m, "dim")),
        Integer.parseInt(require(m, "layers")),
        Integer.parseInt(require(m, "heads")),
        Integer.parseInt(require(m, "kv_heads")),
        Integer.parseInt(require(m, "ffn")),
        Integer.parseInt(require(m, "vocab")),
        Integer.parseInt(require(m, "max_seq")),
        Float.parseFloat(require(m, "rope_theta")),
        Float.parseFloat(require(m, "norm_eps")));
  }

  private static String require(Map<String, String> m, String key) {
    String value = m.get(key);
    if (value == null) {
      throw new IllegalArgumentException("the weights' metadata has no \"" + key + "\"");
    }
    return value;
  }

  /** {@return the named configuration} */
  public static LlamaConfig named(String name) {
    for (LlamaConfig c : ALL) {
      if (c.name.equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "no configuration named "
            + name
            + "; choose one of "
            + ALL.stream().map(LlamaConfig::name).toList());
  }
}
