// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.llm.internal.checkpoint.DType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The tests' tiny Llama (hidden 64, 2 layers, 4 heads of 16, 2 key/value heads, vocabulary 256)
 * with random weights from a seed, and a naive fp32 reference of its forward pass: the formulas of
 * transformers' LlamaForCausalLM written out in double over a whole sequence, no cache, reading the
 * weights as stored (widened exactly from their type), so that it knows nothing of the engine's
 * kernels, layouts or pages.
 */
final class TinyLlama {

  static final ModelShape SHAPE = new ModelShape(64, 128, 2, 4, 2, 16, 256, 1e-5f, 10000, null);

  private TinyLlama() {}

  /** {@return weights of {@code shape} from {@code seed}, rounded to {@code type}} */
  static ModelWeights weights(ModelShape shape, DType type, long seed, boolean tied) {
    Random random = new Random(seed);
    int h = shape.hidden(), inter = shape.intermediate();
    MemorySegment embedding = random(random, type, (long) shape.vocab() * h, 1.0, 0);
    List<ModelWeights.Layer> layers = new ArrayList<>();
    for (int l = 0; l < shape.layers(); l++) {
      layers.add(
          new ModelWeights.Layer(
              random(random, type, h, 0.1, 1),
              random(random, type, (long) shape.qWidth() * h, 1 / Math.sqrt(h), 0),
              random(random, type, (long) shape.kvWidth() * h, 1 / Math.sqrt(h), 0),
              random(random, type, (long) shape.kvWidth() * h, 1 / Math.sqrt(h), 0),
              random(random, type, (long) h * shape.qWidth(), 1 / Math.sqrt(shape.qWidth()), 0),
              random(random, type, h, 0.1, 1),
              random(random, type, (long) inter * h, 1 / Math.sqrt(h), 0),
              random(random, type, (long) inter * h, 1 / Math.sqrt(h), 0),
              random(random, type, (long) h * inter, 1 / Math.sqrt(inter), 0)));
    }
    MemorySegment finalNorm = random(random, type, h, 0.1, 1);
    MemorySegment lmHead =
        tied ? embedding : random(random, type, (long) shape.vocab() * h, 1 / Math.sqrt(h), 0);
    return new ModelWeights(shape, type, embedding, layers, finalNorm, lmHead);
  }

  static ModelWeights weights(DType type, long seed) {
    return weights(SHAPE, type, seed, false);
  }

  private static MemorySegment random(
      Random random, DType type, long n, double scale, double mean) {
    float[] v = new float[Math.toIntExact(n)];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (mean + scale * random.nextGaussian());
    }
    return Numerics.encode(type, v);
  }

  private static double[] vector(ModelWeights w, MemorySegment m) {
    int n = Math.toIntExact(m.byteSize() / w.type().bytes());
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = Numerics.get(w.type(), m, i);
    }
    return out;
  }

  /** {@return W x for a row-major [out, in] W} */
  private static double[] linear(double[] weight, double[] x, int out) {
    int in = x.length;
    double[] y = new double[out];
    for (int o = 0; o < out; o++) {
      double sum = 0;
      for (int i = 0; i < in; i++) {
        sum += weight[o * in + i] * x[i];
      }
      y[o] = sum;
    }
    return y;
  }

  private static double[] rmsNorm(double[] x, double[] weight, double eps) {
    double ss = 0;
    for (double v : x) {
      ss += v * v;
    }
    double scale = 1 / Math.sqrt(ss / x.length + eps);
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = x[i] * scale * weight[i];
    }
    return y;
  }

  /** HF's apply_rotary_pos_emb on each head of {@code x}: rotate_half pairs i and i + d/2. */
  private static void rope(double[] x, int headDim, int pos, double theta) {
    int half = headDim / 2;
    for (int head = 0; head < x.length / headDim; head++) {
      for (int i = 0; i < half; i++) {
        double angle = pos * Math.pow(theta, -2.0 * i / headDim);
        int a = head * headDim + i, b = a + half;
        double x1 = x[a], x2 = x[b];
        x[a] = x1 * Math.cos(angle) - x2 * Math.sin(angle);
        x[b] = x2 * Math.cos(angle) + x1 * Math.sin(angle);
      }
    }
  }

  /** {@return the logits at every position of {@code tokens}} */
  static float[][] logits(ModelWeights w, int[] tokens) {
    ModelShape s = w.shape();
    int n = tokens.length, h = s.hidden(), d = s.headDim(), inter = s.intermediate();
    double[] embedding = vector(w, w.embedding());
    double[][] x = new double[n][];
    for (int p = 0; p < n; p++) {
      x[p] = java.util.Arrays.copyOfRange(embedding, tokens[p] * h, (tokens[p] + 1) * h);
    }
    for (ModelWeights.Layer l : w.layers()) {
      double[] q = vector(w, l.q()), k = vector(w, l.k()), v = vector(w, l.v());
      double[] o = vector(w, l.o()), gate = vector(w, l.gate()), up = vector(w, l.up());
      double[] down = vector(w, l.down());
      double[] n1 = vector(w, l.attentionNorm()), n2 = vector(w, l.mlpNorm());
      double[][] qs = new double[n][], ks = new double[n][], vs = new double[n][];
      for (int p = 0; p < n; p++) {
        double[] xn = rmsNorm(x[p], n1, s.rmsNormEps());
        qs[p] = linear(q, xn, s.qWidth());
        ks[p] = linear(k, xn, s.kvWidth());
        vs[p] = linear(v, xn, s.kvWidth());
        rope(qs[p], d, p, s.ropeTheta());
        rope(ks[p], d, p, s.ropeTheta());
      }
      for (int p = 0; p < n; p++) {
        double[] context = new double[s.qWidth()];
        for (int head = 0; head < s.heads(); head++) {
          int g = head / (s.heads() / s.kvHeads());
          double[] scores = new double[p + 1];
          double max = Double.NEGATIVE_INFINITY;
          for (int j = 0; j <= p; j++) {
            double dot = 0;
            for (int e = 0; e < d; e++) {
              dot += qs[p][head * d + e] * ks[j][g * d + e];
            }
            scores[j] = dot / Math.sqrt(d);
            max = Math.max(max, scores[j]);
          }
          double total = 0;
          for (int j = 0; j <= p; j++) {
            scores[j] = Math.exp(scores[j] - max);
            total += scores[j];
          }
          for (int j = 0; j <= p; j++) {
            for (int e = 0; e < d; e++) {
              context[head * d + e] += scores[j] / total * vs[j][g * d + e];
            }
          }
        }
        double[] attended = linear(o, context, h);
        for (int i = 0; i < h; i++) {
          x[p][i] += attended[i];
        }
        double[] xn = rmsNorm(x[p], n2, s.rmsNormEps());
        double[] g = linear(gate, xn, inter), u = linear(up, xn, inter);
        double[] act = new double[inter];
        for (int i = 0; i < inter; i++) {
          act[i] = g[i] / (1 + Math.exp(-g[i])) * u[i];
        }
        double[] mlp = linear(down, act, h);
        for (int i = 0; i < h; i++) {
          x[p][i] += mlp[i];
        }
      }
    }
    double[] lm = vector(w, w.lmHead()), fn = vector(w, w.finalNorm());
    float[][] logits = new float[n][];
    for (int p = 0; p < n; p++) {
      double[] y = linear(lm, rmsNorm(x[p], fn, s.rmsNormEps()), s.vocab());
      logits[p] = new float[y.length];
      for (int i = 0; i < y.length; i++) {
        logits[p][i] = (float) y[i];
      }
    }
    return logits;
  }

  /** {@return the index of the largest value, the lowest on ties} */
  static int argmax(float[] v) {
    int best = 0;
    for (int i = 1; i < v.length; i++) {
      if (v[i] > v[best]) {
        best = i;
      }
    }
    return best;
  }

  /** {@return the largest value minus the second largest} */
  static float margin(float[] v) {
    float first = Float.NEGATIVE_INFINITY, second = Float.NEGATIVE_INFINITY;
    for (float x : v) {
      if (x > first) {
        second = first;
        first = x;
      } else if (x > second) {
        second = x;
      }
    }
    return first - second;
  }
}
