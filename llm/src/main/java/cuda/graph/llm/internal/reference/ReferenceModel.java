// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.reference;

import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.ModelConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A Llama model in plain Java, fp32 weights and activations with dot products summed in double: the
 * oracle of the GPU engine. It follows transformers' LlamaForCausalLM: per layer {@code x +=
 * o(attention(rope(q(norm(x))), rope(k(norm(x))), v(norm(x))))} then {@code x +=
 * down(silu(gate(norm(x))) * up(norm(x)))}, and the logits {@code lm_head(norm(x))}. Weights are
 * row-major {@code [out, in]} as in the checkpoint. Immutable and thread-safe; each {@link KvCache}
 * belongs to one sequence.
 */
public final class ReferenceModel {

  /** The weights of one decoder layer, each row-major {@code [out, in]} as in the checkpoint. */
  public record Layer(
      float[] inputNorm,
      float[] q,
      float[] k,
      float[] v,
      float[] o,
      float[] postNorm,
      float[] gate,
      float[] up,
      float[] down) {}

  private final ModelConfig config;
  private final float[] embed;
  private final List<Layer> layers;
  private final float[] norm;
  private final float[] lmHead;
  private final float[] invFreq;

  /**
   * A model of {@code config} with the given weights.
   *
   * @param config the configuration
   * @param embed {@code [vocab, hidden]}
   * @param layers one per decoder layer
   * @param norm the final norm, {@code [hidden]}
   * @param lmHead {@code [vocab, hidden]}, the embedding itself when tied
   */
  public ReferenceModel(
      ModelConfig config, float[] embed, List<Layer> layers, float[] norm, float[] lmHead) {
    if (layers.size() != config.numHiddenLayers()) {
      throw new IllegalArgumentException(
          "ReferenceModel: "
              + layers.size()
              + " layers for a config of "
              + config.numHiddenLayers());
    }
    this.config = config;
    this.embed = embed;
    this.layers = List.copyOf(layers);
    this.norm = norm;
    this.lmHead = lmHead;
    this.invFreq = inverseFrequencies(config);
  }

  /** {@return the model of an open checkpoint, its weights converted to fp32} */
  public static ReferenceModel load(Checkpoint checkpoint) {
    ModelConfig c = checkpoint.config();
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < c.numHiddenLayers(); i++) {
      layers.add(
          new Layer(
              checkpoint.layer(i, "input_layernorm.weight").toFloats(),
              checkpoint.layer(i, "self_attn.q_proj.weight").toFloats(),
              checkpoint.layer(i, "self_attn.k_proj.weight").toFloats(),
              checkpoint.layer(i, "self_attn.v_proj.weight").toFloats(),
              checkpoint.layer(i, "self_attn.o_proj.weight").toFloats(),
              checkpoint.layer(i, "post_attention_layernorm.weight").toFloats(),
              checkpoint.layer(i, "mlp.gate_proj.weight").toFloats(),
              checkpoint.layer(i, "mlp.up_proj.weight").toFloats(),
              checkpoint.layer(i, "mlp.down_proj.weight").toFloats()));
    }
    float[] embed = checkpoint.tensor("model.embed_tokens.weight").toFloats();
    float[] head = c.tieWordEmbeddings() ? embed : checkpoint.lmHead().toFloats();
    return new ReferenceModel(
        c, embed, layers, checkpoint.tensor("model.norm.weight").toFloats(), head);
  }

  /** {@return the configuration} */
  public ModelConfig config() {
    return config;
  }

  /**
   * The keys (after RoPE) and values of one sequence's positions, per layer, {@code [position,
   * kvDim]}.
   */
  public final class KvCache {
    final float[][] keys;
    final float[][] values;
    final int capacity;
    int length;

    KvCache(int capacity) {
      this.capacity = capacity;
      keys = new float[config.numHiddenLayers()][capacity * config.kvDim()];
      values = new float[config.numHiddenLayers()][capacity * config.kvDim()];
    }

    /** {@return the positions cached} */
    public int length() {
      return length;
    }

    /** {@return the cached key of {@code layer} at {@code position}, after RoPE} */
    public float[] key(int layer, int position) {
      int kv = config.kvDim();
      return java.util.Arrays.copyOfRange(keys[layer], position * kv, (position + 1) * kv);
    }

    /** {@return the cached value of {@code layer} at {@code position}} */
    public float[] value(int layer, int position) {
      int kv = config.kvDim();
      return java.util.Arrays.copyOfRange(values[layer], position * kv, (position + 1) * kv);
    }
  }

  /**
   * {@return an empty cache for one sequence of up to {@code capacity} positions}
   *
   * @throws IllegalArgumentException when {@code capacity} is not positive
   */
  public KvCache newCache(int capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("ReferenceModel.newCache(" + capacity + "): not positive");
    }
    return new KvCache(capacity);
  }

  /**
   * Runs {@code tokens} after the positions already in {@code cache}, appending theirs.
   *
   * @param cache the sequence's cache
   * @param tokens the next tokens, at least one
   * @return the logits after each of them, {@code [tokens.length][vocab]}
   * @throws IllegalArgumentException when a token is out of the vocabulary or the cache is full
   */
  public float[][] forward(KvCache cache, int[] tokens) {
    int vocab = config.vocabSize();
    if (tokens.length == 0) {
      throw new IllegalArgumentException("ReferenceModel.forward: no tokens");
    }
    if (cache.length + tokens.length > cache.capacity) {
      throw new IllegalArgumentException(
          "ReferenceModel.forward: "
              + cache.length
              + " cached + "
              + tokens.length
              + " new positions exceed the cache's "
              + cache.capacity);
    }
    int hidden = config.hiddenSize();
    int start = cache.length;
    // Layer after layer over all the new positions (a prefill), each attending to the cache and
    // to the new positions up to itself: a decode step is the case of one position.
    float[][] x = new float[tokens.length][];
    for (int t = 0; t < tokens.length; t++) {
      int token = tokens[t];
      if (token < 0 || token >= vocab) {
        throw new IllegalArgumentException(
            "ReferenceModel.forward: token "
                + token
                + " outside the vocabulary [0, "
                + vocab
                + ")");
      }
      x[t] = java.util.Arrays.copyOfRange(embed, token * hidden, (token + 1) * hidden);
    }
    for (int l = 0; l < layers.size(); l++) {
      x = layer(l, x, start, cache);
    }
    cache.length = start + tokens.length;
    float[][] logits = new float[tokens.length][];
    for (int t = 0; t < tokens.length; t++) {
      logits[t] = matVec(lmHead, rmsNorm(x[t], norm, config.rmsNormEps()), vocab, hidden);
    }
    return logits;
  }

  private float[][] layer(int l, float[][] x, int start, KvCache cache) {
    Layer w = layers.get(l);
    int hidden = config.hiddenSize();
    int kvDim = config.kvDim();
    int n = x.length;
    float[][] q = new float[n][];
    for (int t = 0; t < n; t++) {
      float[] h = rmsNorm(x[t], w.inputNorm(), config.rmsNormEps());
      q[t] = matVec(w.q(), h, config.qDim(), hidden);
      float[] k = matVec(w.k(), h, kvDim, hidden);
      float[] v = matVec(w.v(), h, kvDim, hidden);
      for (int head = 0; head < config.numAttentionHeads(); head++) {
        rope(q[t], head * config.headDim(), config.headDim(), start + t, invFreq);
      }
      for (int head = 0; head < config.numKeyValueHeads(); head++) {
        rope(k, head * config.headDim(), config.headDim(), start + t, invFreq);
      }
      System.arraycopy(k, 0, cache.keys[l], (start + t) * kvDim, kvDim);
      System.arraycopy(v, 0, cache.values[l], (start + t) * kvDim, kvDim);
    }
    float[][] out = new float[n][];
    for (int t = 0; t < n; t++) {
      float[] attended =
          attention(
              q[t],
              cache.keys[l],
              cache.values[l],
              start + t + 1,
              config.numAttentionHeads(),
              config.numKeyValueHeads(),
              config.headDim());
      float[] o = matVec(w.o(), attended, hidden, config.qDim());
      float[] r = new float[hidden];
      for (int i = 0; i < hidden; i++) {
        r[i] = x[t][i] + o[i];
      }
      float[] h2 = rmsNorm(r, w.postNorm(), config.rmsNormEps());
      int inter = config.intermediateSize();
      float[] gate = matVec(w.gate(), h2, inter, hidden);
      float[] up = matVec(w.up(), h2, inter, hidden);
      float[] act = new float[inter];
      for (int i = 0; i < inter; i++) {
        act[i] = silu(gate[i]) * up[i];
      }
      float[] down = matVec(w.down(), act, hidden, inter);
      for (int i = 0; i < hidden; i++) {
        r[i] += down[i];
      }
      out[t] = r;
    }
    return out;
  }

  /**
   * Attention of one position's queries over the first {@code length} cached positions (the causal
   * mask: a position sees itself and those before it), grouped: query head {@code h} reads
   * key/value head {@code h / (heads / kvHeads)}.
   *
   * @param q the queries, {@code [heads * headDim]}, after RoPE
   * @param keys cached keys, {@code [position, kvHeads * headDim]}
   * @param values cached values, same layout
   * @param length the positions visible
   * @param heads query heads
   * @param kvHeads key/value heads
   * @param headDim the width of a head
   * @return the attended values, {@code [heads * headDim]}
   */
  public static float[] attention(
      float[] q, float[] keys, float[] values, int length, int heads, int kvHeads, int headDim) {
    int group = heads / kvHeads;
    int kvDim = kvHeads * headDim;
    double scale = 1.0 / Math.sqrt(headDim);
    float[] out = new float[heads * headDim];
    double[] scores = new double[length];
    for (int h = 0; h < heads; h++) {
      int kvHead = h / group;
      double max = Double.NEGATIVE_INFINITY;
      for (int p = 0; p < length; p++) {
        double dot = 0;
        for (int d = 0; d < headDim; d++) {
          dot += (double) q[h * headDim + d] * keys[p * kvDim + kvHead * headDim + d];
        }
        scores[p] = dot * scale;
        max = Math.max(max, scores[p]);
      }
      double sum = 0;
      for (int p = 0; p < length; p++) {
        scores[p] = Math.exp(scores[p] - max);
        sum += scores[p];
      }
      for (int d = 0; d < headDim; d++) {
        double acc = 0;
        for (int p = 0; p < length; p++) {
          acc += scores[p] * values[p * kvDim + kvHead * headDim + d];
        }
        out[h * headDim + d] = (float) (acc / sum);
      }
    }
    return out;
  }

  /**
   * Rotates one head in place by the angles of {@code position}, Hugging Face's rotate_half
   * convention: element {@code i} pairs with {@code i + headDim/2}, {@code out[i] = x[i] cos -
   * x[i+d/2] sin} and {@code out[i+d/2] = x[i+d/2] cos + x[i] sin}, the angle {@code position *
   * invFreq[i]} computed in fp32 as transformers does.
   *
   * @param x the vector holding the head
   * @param offset where the head starts in it
   * @param headDim the head's width
   * @param position the token's position
   * @param invFreq the {@code headDim/2} inverse frequencies
   */
  public static void rope(float[] x, int offset, int headDim, int position, float[] invFreq) {
    int half = headDim / 2;
    for (int i = 0; i < half; i++) {
      float angle = invFreq[i] * (float) position;
      double cos = (float) Math.cos(angle);
      double sin = (float) Math.sin(angle);
      double a = x[offset + i];
      double b = x[offset + i + half];
      x[offset + i] = (float) (a * cos - b * sin);
      x[offset + i + half] = (float) (b * cos + a * sin);
    }
  }

  /**
   * {@return the {@code headDim/2} inverse frequencies of the rotary embedding, rounded to fp32 as
   * transformers keeps them}: {@code 1 / theta^(2i/headDim)}, then Llama 3's scaling when the
   * config has it (long wavelengths divided by the factor, short ones kept, those between
   * interpolated)
   */
  public static float[] inverseFrequencies(ModelConfig config) {
    int half = config.headDim() / 2;
    float[] out = new float[half];
    ModelConfig.RopeScaling s = config.ropeScaling();
    for (int i = 0; i < half; i++) {
      // transformers: 1.0 / (base ** (arange(0, dim, 2).float() / dim)), in float32.
      float exponent = (float) (2 * i) / config.headDim();
      float f = (float) (1.0 / (float) Math.pow(config.ropeTheta(), exponent));
      if (s != null) {
        double lowWavelen = s.originalMaxPositionEmbeddings() / s.lowFreqFactor();
        double highWavelen = s.originalMaxPositionEmbeddings() / s.highFreqFactor();
        double wavelen = 2 * Math.PI / f;
        if (wavelen > lowWavelen) {
          f = (float) (f / s.factor());
        } else if (wavelen >= highWavelen) {
          double smooth =
              (s.originalMaxPositionEmbeddings() / wavelen - s.lowFreqFactor())
                  / (s.highFreqFactor() - s.lowFreqFactor());
          f = (float) ((1 - smooth) * f / s.factor() + smooth * f);
        }
      }
      out[i] = f;
    }
    return out;
  }

  /** {@return RMSNorm of {@code x}: {@code w * x / sqrt(mean(x^2) + eps)}} */
  public static float[] rmsNorm(float[] x, float[] w, double eps) {
    double sum = 0;
    for (float v : x) {
      sum += (double) v * v;
    }
    float inv = (float) (1.0 / Math.sqrt(sum / x.length + eps));
    float[] out = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = w[i] * (x[i] * inv);
    }
    return out;
  }

  /** {@return {@code m x}, {@code m} row-major {@code [rows, cols]}, each row summed in double} */
  public static float[] matVec(float[] m, float[] x, int rows, int cols) {
    float[] out = new float[rows];
    for (int r = 0; r < rows; r++) {
      double acc = 0;
      int base = r * cols;
      for (int c = 0; c < cols; c++) {
        acc += (double) m[base + c] * x[c];
      }
      out[r] = (float) acc;
    }
    return out;
  }

  private static float silu(float x) {
    return (float) (x / (1 + Math.exp(-x)));
  }

  /**
   * The result of greedy decoding one sequence.
   *
   * @param tokens the generated tokens, in order
   * @param topTwoGaps per step, the gap between the largest and the second largest logit
   */
  public record Generation(int[] tokens, float[] topTwoGaps) {}

  /**
   * Greedy decoding of a batch of prompts of different lengths: each prompt prefilled, then every
   * sequence stepped one token at a time, together, for {@code newTokens} tokens (no early stop, as
   * generate with a fixed length).
   *
   * @param prompts the prompts' token ids, each at least one
   * @param newTokens tokens to generate for each
   * @return one generation per prompt, in order
   */
  public List<Generation> generateGreedy(List<int[]> prompts, int newTokens) {
    List<KvCache> caches = new ArrayList<>();
    List<float[]> last = new ArrayList<>();
    for (int[] prompt : prompts) {
      KvCache cache = newCache(prompt.length + newTokens);
      float[][] logits = forward(cache, prompt);
      caches.add(cache);
      last.add(logits[logits.length - 1]);
    }
    int[][] tokens = new int[prompts.size()][newTokens];
    float[][] gaps = new float[prompts.size()][newTokens];
    for (int step = 0; step < newTokens; step++) {
      for (int s = 0; s < prompts.size(); s++) {
        float[] l = last.get(s);
        int best = argmax(l);
        tokens[s][step] = best;
        gaps[s][step] = l[best] - secondLargest(l, best);
        if (step + 1 < newTokens) {
          last.set(s, forward(caches.get(s), new int[] {best})[0]);
        }
      }
    }
    List<Generation> out = new ArrayList<>();
    for (int s = 0; s < prompts.size(); s++) {
      out.add(new Generation(tokens[s], gaps[s]));
    }
    return out;
  }

  /** {@return the index of the largest element, the first of equals (as torch.argmax)} */
  public static int argmax(float[] logits) {
    int best = 0;
    for (int i = 1; i < logits.length; i++) {
      if (logits[i] > logits[best]) {
        best = i;
      }
    }
    return best;
  }

  private static float secondLargest(float[] logits, int best) {
    float second = Float.NEGATIVE_INFINITY;
    for (int i = 0; i < logits.length; i++) {
      if (i != best && logits[i] > second) {
        second = logits[i];
      }
    }
    return second;
  }
}
