// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import cuda.graph.embeddings.Pooling;
import java.util.List;

/**
 * A BERT encoder in plain Java, fp32: the reference the GPU encoder is checked against, itself
 * checked against LangChain4j's embeddings.
 *
 * <p>A padded batch of token sequences goes through BERT as the weights' {@link Architecture} says:
 * word, position and type embeddings summed and normalised (LayerNorm with the graph's epsilon);
 * each layer's self-attention (query, key and value projections, the heads, scores scaled by 1/sqrt
 * of the head size, softmax over the keys the attention mask keeps, output projection, residual,
 * LayerNorm) and feed-forward (up to the intermediate size, GELU in its exact erf form, back,
 * residual, LayerNorm). The sentence embedding pools the last hidden states as the model asks, the
 * mean over the mask ({@link Pooling#MEAN}) or the first token's ({@link Pooling#CLS}), and is
 * L2-normalised. Every stored value is a float; sums run in double, which keeps the reference
 * closer to the exact result than any fp32 implementation it checks. Padding does not change a
 * sequence's result: masked keys take no part in attention, and each sequence's sums run over its
 * own tokens in the same order whatever the batch.
 */
public final class ReferenceEncoder {

  /**
   * Token sequences padded to one length.
   *
   * @param ids the token ids, {@code [batch][length]}
   * @param typeIds the token types, {@code [batch][length]}
   * @param mask the attention mask, 1 for a token and 0 for padding, {@code [batch][length]}
   */
  public record Batch(int[][] ids, int[][] typeIds, int[][] mask) {

    /**
     * {@return the sequences of {@code parts}, padded with id 0, type 0 and mask 0 to the longest}
     *
     * @param parts the runs to pad
     */
    public static Batch of(List<BertTokenizer.Part> parts) {
      int length = parts.stream().mapToInt(p -> p.ids().length).max().orElse(0);
      int[][] ids = new int[parts.size()][length];
      int[][] types = new int[parts.size()][length];
      int[][] mask = new int[parts.size()][length];
      for (int b = 0; b < parts.size(); b++) {
        BertTokenizer.Part p = parts.get(b);
        System.arraycopy(p.ids(), 0, ids[b], 0, p.ids().length);
        System.arraycopy(p.typeIds(), 0, types[b], 0, p.typeIds().length);
        java.util.Arrays.fill(mask[b], 0, p.ids().length, 1);
      }
      return new Batch(ids, types, mask);
    }

    /** {@return the number of sequences} */
    public int size() {
      return ids.length;
    }

    /** {@return the length the sequences are padded to} */
    public int length() {
      return ids.length == 0 ? 0 : ids[0].length;
    }
  }

  private final EncoderWeights weights;
  private final Architecture architecture;
  private final Pooling pooling;

  /**
   * The encoder of {@code weights}, pooling as {@code pooling} says.
   *
   * @param weights the model's weights and architecture
   * @param pooling how a sequence's hidden states become one vector
   */
  public ReferenceEncoder(EncoderWeights weights, Pooling pooling) {
    this.weights = weights;
    this.architecture = weights.architecture;
    this.pooling = pooling;
  }

  /**
   * {@return the embedding of a text made of {@code parts}} (see {@link BertTokenizer#parts}): each
   * part's pooled hidden states, averaged with the parts' weights, L2-normalised (LangChain4j's way
   * with a text of several runs)
   *
   * @param parts the text's runs
   */
  public float[] embed(List<BertTokenizer.Part> parts) {
    float[][] pooled = pooled(Batch.of(parts));
    int[] weights = parts.stream().mapToInt(BertTokenizer.Part::weight).toArray();
    return normalized(weightedAverage(pooled, weights));
  }

  /**
   * {@return the average of {@code rows} with {@code weights}, summed in double}
   *
   * @param rows vectors of one width
   * @param weights one weight per row
   */
  public static float[] weightedAverage(float[][] rows, int[] weights) {
    int width = rows[0].length;
    double total = 0;
    double[] sum = new double[width];
    for (int p = 0; p < rows.length; p++) {
      total += weights[p];
      for (int h = 0; h < width; h++) {
        sum[h] += (double) weights[p] * rows[p][h];
      }
    }
    float[] average = new float[width];
    for (int h = 0; h < width; h++) {
      average[h] = (float) (sum[h] / total);
    }
    return average;
  }

  /**
   * {@return one L2-normalised embedding per sequence of {@code batch}}
   *
   * @param batch padded sequences
   */
  public float[][] embed(Batch batch) {
    float[][] pooled = pooled(batch);
    float[][] embeddings = new float[pooled.length][];
    for (int b = 0; b < pooled.length; b++) {
      embeddings[b] = normalized(pooled[b]);
    }
    return embeddings;
  }

  /**
   * {@return each sequence's last hidden states of {@code batch} pooled as the model asks}, not
   * normalised
   *
   * @param batch padded sequences
   */
  public float[][] pooled(Batch batch) {
    float[][][] hidden = lastHiddenStates(batch);
    float[][] pooled = new float[batch.size()][];
    for (int b = 0; b < batch.size(); b++) {
      pooled[b] =
          switch (pooling) {
            case MEAN -> meanPooled(hidden[b], batch.mask()[b]);
            case CLS -> hidden[b][0].clone();
          };
    }
    return pooled;
  }

  /**
   * {@return the mean of the rows of {@code hidden} that {@code mask} keeps (at least one)}
   *
   * @param hidden a sequence's rows
   * @param mask 1 for a row to keep, 0 for one to leave out
   */
  public static float[] meanPooled(float[][] hidden, int[] mask) {
    int width = hidden[0].length;
    double[] sum = new double[width];
    int count = 0;
    for (int t = 0; t < hidden.length; t++) {
      if (mask[t] == 0) {
        continue;
      }
      count++;
      for (int h = 0; h < width; h++) {
        sum[h] += hidden[t][h];
      }
    }
    float[] pooled = new float[width];
    for (int h = 0; h < width; h++) {
      pooled[h] = (float) (sum[h] / count);
    }
    return pooled;
  }

  /**
   * {@return the encoder's output for {@code batch}, {@code [batch][length][hidden]}}; padded
   * positions hold garbage
   *
   * @param batch padded sequences
   */
  public float[][][] lastHiddenStates(Batch batch) {
    if (batch.length() > architecture.positions()) {
      throw new IllegalArgumentException(
          "ReferenceEncoder: sequences of "
              + batch.length()
              + " tokens are longer than the model's "
              + architecture.positions()
              + " positions; split the text first (BertTokenizer.parts)");
    }
    float[][][] x = new float[batch.size()][][];
    for (int b = 0; b < batch.size(); b++) {
      x[b] = embeddings(batch.ids()[b], batch.typeIds()[b]);
    }
    for (EncoderWeights.Layer layer : weights.layers) {
      for (int b = 0; b < batch.size(); b++) {
        x[b] = layer(layer, x[b], batch.mask()[b]);
      }
    }
    return x;
  }

  private double epsilon() {
    return architecture.layerNormEpsilon();
  }

  private float[][] embeddings(int[] ids, int[] types) {
    float[][] x = new float[ids.length][];
    for (int t = 0; t < ids.length; t++) {
      int id = check(ids[t], architecture.vocabulary(), "token id");
      int type = check(types[t], architecture.types(), "token type");
      x[t] =
          embedding(
              id,
              type,
              t,
              weights.wordEmbeddings,
              weights.positionEmbeddings,
              weights.typeEmbeddings,
              weights.embeddingNorm.gamma(),
              weights.embeddingNorm.beta(),
              epsilon());
    }
    return x;
  }

  /**
   * {@return LayerNorm(word[id] + position[position] + type[type])}, each table row-major with rows
   * as wide as {@code gamma}, {@code epsilon} added to the variance
   *
   * @param id the token id, a row of {@code word}
   * @param type the token type, a row of {@code types}
   * @param position the position, a row of {@code positions}
   * @param word the word table
   * @param positions the position table
   * @param types the type table
   * @param gamma LayerNorm's scale
   * @param beta LayerNorm's shift
   * @param epsilon LayerNorm's epsilon
   */
  public static float[] embedding(
      int id,
      int type,
      int position,
      float[] word,
      float[] positions,
      float[] types,
      float[] gamma,
      float[] beta,
      double epsilon) {
    int width = gamma.length;
    float[] x = new float[width];
    for (int h = 0; h < width; h++) {
      double sum =
          (double) word[id * width + h] + types[type * width + h] + positions[position * width + h];
      x[h] = (float) sum;
    }
    return layerNorm(x, gamma, beta, epsilon);
  }

  private static int check(int value, int bound, String what) {
    if (value < 0 || value >= bound) {
      throw new IllegalArgumentException(
          "ReferenceEncoder: " + what + " " + value + " is outside [0, " + bound + ")");
    }
    return value;
  }

  private float[][] layer(EncoderWeights.Layer layer, float[][] x, int[] mask) {
    int length = x.length;
    float[][] q = linear(x, layer.query());
    float[][] k = linear(x, layer.key());
    float[][] v = linear(x, layer.value());
    float[][] context = attention(q, k, v, mask, architecture.heads());
    float[][] attended = linear(context, layer.attentionOutput());
    float[][] h = new float[length][];
    for (int t = 0; t < length; t++) {
      h[t] = layerNorm(added(attended[t], x[t]), layer.attentionNorm());
    }
    float[][] inner = linear(h, layer.intermediate());
    for (float[] row : inner) {
      for (int f = 0; f < row.length; f++) {
        row[f] = (float) gelu(row[f]);
      }
    }
    float[][] out = linear(inner, layer.output());
    float[][] y = new float[length][];
    for (int t = 0; t < length; t++) {
      y[t] = layerNorm(added(out[t], h[t]), layer.outputNorm());
    }
    return y;
  }

  /**
   * {@return the multi-head attention of one sequence}: for each head (a run of {@code width /
   * heads} columns) and query position, softmax over the key positions {@code mask} keeps (at least
   * one) of the scaled dot products, times V. Scores are scaled by 1/sqrt of the head size.
   *
   * @param q the queries, {@code [length][width]}
   * @param k the keys, {@code [length][width]}
   * @param v the values, {@code [length][width]}
   * @param mask 1 for a key to attend to, 0 for padding
   * @param heads the heads {@code width} splits into
   */
  public static float[][] attention(float[][] q, float[][] k, float[][] v, int[] mask, int heads) {
    int length = q.length;
    int width = q[0].length;
    int headSize = width / heads;
    double scale = 1 / Math.sqrt(headSize);
    float[][] context = new float[length][width];
    double[] scores = new double[length];
    for (int head = 0; head < heads; head++) {
      int offset = head * headSize;
      for (int i = 0; i < length; i++) {
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < length; j++) {
          if (mask[j] == 0) {
            continue;
          }
          double dot = 0;
          for (int d = 0; d < headSize; d++) {
            dot += (double) q[i][offset + d] * k[j][offset + d];
          }
          scores[j] = dot * scale;
          max = Math.max(max, scores[j]);
        }
        double total = 0;
        for (int j = 0; j < length; j++) {
          if (mask[j] != 0) {
            scores[j] = Math.exp(scores[j] - max);
            total += scores[j];
          }
        }
        for (int d = 0; d < headSize; d++) {
          double sum = 0;
          for (int j = 0; j < length; j++) {
            if (mask[j] != 0) {
              sum += scores[j] * v[j][offset + d];
            }
          }
          context[i][offset + d] = (float) (sum / total);
        }
      }
    }
    return context;
  }

  /** {@code x W + b} for each row of {@code x}, {@code W} being {@code [in, out]}. */
  private static float[][] linear(float[][] x, EncoderWeights.Linear l) {
    float[][] y = new float[x.length][l.out()];
    double[] sum = new double[l.out()];
    float[] w = l.weight();
    for (int t = 0; t < x.length; t++) {
      for (int o = 0; o < l.out(); o++) {
        sum[o] = l.bias()[o];
      }
      for (int i = 0; i < l.in(); i++) {
        double xi = x[t][i];
        int row = i * l.out();
        for (int o = 0; o < l.out(); o++) {
          sum[o] += xi * w[row + o];
        }
      }
      for (int o = 0; o < l.out(); o++) {
        y[t][o] = (float) sum[o];
      }
    }
    return y;
  }

  private static float[] added(float[] a, float[] b) {
    float[] sum = new float[a.length];
    for (int i = 0; i < a.length; i++) {
      sum[i] = (float) ((double) a[i] + b[i]);
    }
    return sum;
  }

  private float[] layerNorm(float[] x, EncoderWeights.LayerNorm norm) {
    return layerNorm(x, norm.gamma(), norm.beta(), epsilon());
  }

  /**
   * {@return LayerNorm of {@code x}: its mean and variance, {@code epsilon}, scale and shift}
   *
   * @param x the row
   * @param gamma the scale
   * @param beta the shift
   * @param epsilon added to the variance
   */
  public static float[] layerNorm(float[] x, float[] gamma, float[] beta, double epsilon) {
    double mean = 0;
    for (float v : x) {
      mean += v;
    }
    mean /= x.length;
    double variance = 0;
    for (float v : x) {
      variance += (v - mean) * (v - mean);
    }
    variance /= x.length;
    double scale = 1 / Math.sqrt(variance + epsilon);
    float[] y = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = (float) ((x[i] - mean) * scale * gamma[i] + beta[i]);
    }
    return y;
  }

  /**
   * {@return GELU of {@code x} in BERT's exact form, {@code x/2 (1 + erf(x / sqrt 2))}}
   *
   * @param x the input
   */
  public static double gelu(double x) {
    return 0.5 * x * (1 + erf(x / Math.sqrt(2)));
  }

  /**
   * The error function to double precision: below 3, the series {@code 2/sqrt(pi) exp(-x^2) sum
   * x^(2n+1) 2^n / (2n+1)!!}, whose terms are all positive (the plain Maclaurin series alternates
   * and loses digits to cancellation near 3); from 3, the continued fraction of erfc; 1 from 6
   * (erfc(6) is 2e-17).
   *
   * @param x the argument
   * @return erf(x)
   */
  public static double erf(double x) {
    if (x < 0) {
      return -erf(-x);
    }
    if (x >= 6) {
      return 1;
    }
    if (x < 3) {
      double term = x;
      double sum = x;
      for (int n = 1; term > 1e-17 * sum; n++) {
        term *= 2 * x * x / (2 * n + 1);
        sum += term;
      }
      return 2 / Math.sqrt(Math.PI) * Math.exp(-x * x) * sum;
    }
    // erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + 2 / (x + ...)))))
    double fraction = x;
    for (int k = 60; k >= 1; k--) {
      fraction = x + (k / 2.0) / fraction;
    }
    return 1 - Math.exp(-x * x) / Math.sqrt(Math.PI) / fraction;
  }

  /**
   * {@return the L2 norm of {@code v}, summed in double}
   *
   * @param v the vector
   */
  public static double norm(float[] v) {
    double squares = 0;
    for (float f : v) {
      squares += (double) f * f;
    }
    return Math.sqrt(squares);
  }

  /**
   * {@return {@code v} divided by its L2 norm}
   *
   * @param v the vector
   */
  public static float[] normalized(float[] v) {
    double norm = norm(v);
    float[] unit = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      unit[i] = (float) (v[i] / norm);
    }
    return unit;
  }
}
