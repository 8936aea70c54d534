// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.reference;

import cuda.graph.llm.internal.checkpoint.ModelConfig;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import java.util.Map;

/**
 * A second Llama forward pass, written apart from {@link ReferenceModel} to check it: the whole
 * sequence at once, in double, no cache, attention as a masked score matrix with the key/value
 * heads repeated, RoPE as a rotation of complex numbers in polar form.
 */
final class NaiveLlama {

  private NaiveLlama() {}

  /** {@return the logits after each of {@code tokens}, from the weights {@code spec} writes} */
  static double[][] logits(TinyCheckpoints.Spec spec, int[] tokens) {
    ModelConfig c = ModelConfig.parse(TinyCheckpoints.configJson(spec), "spec");
    Map<String, float[]> w = TinyCheckpoints.weights(spec);
    int n = tokens.length;
    int hidden = c.hiddenSize();
    int hd = c.headDim();
    float[] invFreq = ReferenceModel.inverseFrequencies(c);
    double[][] x = new double[n][hidden];
    for (int t = 0; t < n; t++) {
      for (int i = 0; i < hidden; i++) {
        x[t][i] = round(spec, w.get("model.embed_tokens.weight")[tokens[t] * hidden + i]);
      }
    }
    for (int l = 0; l < c.numHiddenLayers(); l++) {
      String p = "model.layers." + l + ".";
      double[][] h = norm(spec, x, w.get(p + "input_layernorm.weight"), c.rmsNormEps());
      double[][] q = linear(spec, h, w.get(p + "self_attn.q_proj.weight"), c.qDim());
      double[][] k = linear(spec, h, w.get(p + "self_attn.k_proj.weight"), c.kvDim());
      double[][] v = linear(spec, h, w.get(p + "self_attn.v_proj.weight"), c.kvDim());
      for (int t = 0; t < n; t++) {
        rotate(q[t], c.numAttentionHeads(), hd, t, invFreq);
        rotate(k[t], c.numKeyValueHeads(), hd, t, invFreq);
      }
      double[][] attended = new double[n][c.qDim()];
      int group = c.numAttentionHeads() / c.numKeyValueHeads();
      for (int head = 0; head < c.numAttentionHeads(); head++) {
        int kvh = head / group;
        double[][] scores = new double[n][n];
        for (int i = 0; i < n; i++) {
          double rowMax = Double.NEGATIVE_INFINITY;
          for (int j = 0; j < n; j++) {
            double s = 0;
            for (int d = 0; d < hd; d++) {
              s += q[i][head * hd + d] * k[j][kvh * hd + d];
            }
            scores[i][j] = j > i ? Double.NEGATIVE_INFINITY : s / Math.sqrt(hd);
            rowMax = Math.max(rowMax, scores[i][j]);
          }
          double sum = 0;
          for (int j = 0; j < n; j++) {
            scores[i][j] = Math.exp(scores[i][j] - rowMax);
            sum += scores[i][j];
          }
          for (int j = 0; j < n; j++) {
            for (int d = 0; d < hd; d++) {
              attended[i][head * hd + d] += scores[i][j] / sum * v[j][kvh * hd + d];
            }
          }
        }
      }
      double[][] o = linear(spec, attended, w.get(p + "self_attn.o_proj.weight"), hidden);
      add(x, o);
      double[][] h2 = norm(spec, x, w.get(p + "post_attention_layernorm.weight"), c.rmsNormEps());
      double[][] gate = linear(spec, h2, w.get(p + "mlp.gate_proj.weight"), c.intermediateSize());
      double[][] up = linear(spec, h2, w.get(p + "mlp.up_proj.weight"), c.intermediateSize());
      for (int t = 0; t < n; t++) {
        for (int i = 0; i < gate[t].length; i++) {
          gate[t][i] = gate[t][i] / (1 + Math.exp(-gate[t][i])) * up[t][i];
        }
      }
      add(x, linear(spec, gate, w.get(p + "mlp.down_proj.weight"), hidden));
    }
    double[][] h = norm(spec, x, w.get("model.norm.weight"), c.rmsNormEps());
    String head = c.tieWordEmbeddings() ? "model.embed_tokens.weight" : "lm_head.weight";
    return linear(spec, h, w.get(head), c.vocabSize());
  }

  private static void rotate(double[] x, int heads, int hd, int position, float[] invFreq) {
    for (int head = 0; head < heads; head++) {
      for (int i = 0; i < hd / 2; i++) {
        double re = x[head * hd + i];
        double im = x[head * hd + i + hd / 2];
        double r = Math.hypot(re, im);
        double phi = Math.atan2(im, re) + position * (double) invFreq[i];
        x[head * hd + i] = r * Math.cos(phi);
        x[head * hd + i + hd / 2] = r * Math.sin(phi);
      }
    }
  }

  private static double[][] norm(TinyCheckpoints.Spec spec, double[][] x, float[] w, double eps) {
    double[][] out = new double[x.length][];
    for (int t = 0; t < x.length; t++) {
      double ms = 0;
      for (double v : x[t]) {
        ms += v * v / x[t].length;
      }
      out[t] = new double[x[t].length];
      for (int i = 0; i < x[t].length; i++) {
        out[t][i] = round(spec, w[i]) * x[t][i] / Math.sqrt(ms + eps);
      }
    }
    return out;
  }

  private static double[][] linear(TinyCheckpoints.Spec spec, double[][] x, float[] w, int rows) {
    int cols = x[0].length;
    double[][] out = new double[x.length][rows];
    for (int t = 0; t < x.length; t++) {
      for (int r = 0; r < rows; r++) {
        for (int i = 0; i < cols; i++) {
          out[t][r] += round(spec, w[r * cols + i]) * x[t][i];
        }
      }
    }
    return out;
  }

  private static void add(double[][] x, double[][] y) {
    for (int t = 0; t < x.length; t++) {
      for (int i = 0; i < x[t].length; i++) {
        x[t][i] += y[t][i];
      }
    }
  }

  private static double round(TinyCheckpoints.Spec spec, float v) {
    return switch (spec.dtype()) {
      case F32 -> v;
      case F16 -> Float.float16ToFloat(Float.floatToFloat16(v));
      case BF16 -> Float.intBitsToFloat(TinyCheckpoints.toBf16(v) << 16);
    };
  }
}
