// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jspecify.annotations.Nullable;

/**
 * The arithmetic of one decode step on memory segments (fp16 weights, fp32 activations, the int
 * state block), one function per kernel of decode_kernels.cu. The kernels' Java references (what
 * the simulator runs) and {@link ReferenceModel} both call these, so the engine on the simulator
 * and the reference compute the same numbers; on a GPU the sums run in another order, and the
 * independent PyTorch check (reference/llama_reference.py) applies a tolerance.
 */
final class DecodeMath {

  /** Word offsets in the state block; see decode_kernels.cu. */
  static final int POS = 0, TOKEN = 1, LEFT = 2, BEST = 4, HISTORY = 6;

  private static final ValueLayout.OfShort H = ValueLayout.JAVA_SHORT_UNALIGNED;
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;

  private DecodeMath() {}

  /** {@return the state block's length in ints for a cache of {@code maxSeq} positions} */
  static int stateLength(int maxSeq) {
    return HISTORY + maxSeq + 1;
  }

  static float half(MemorySegment m, long index) {
    return Float.float16ToFloat(m.getAtIndex(H, index));
  }

  static float f(MemorySegment m, long index) {
    return m.getAtIndex(F, index);
  }

  static void setF(MemorySegment m, long index, float v) {
    m.setAtIndex(F, index, v);
  }

  static int i(MemorySegment m, long index) {
    return m.getAtIndex(I, index);
  }

  /** x = tok_embeddings[state[TOKEN]]. */
  static void embed(MemorySegment state, MemorySegment emb, MemorySegment x, int dim) {
    long row = (long) i(state, TOKEN) * dim;
    for (int c = 0; c < dim; c++) {
      setF(x, c, half(emb, row + c));
    }
  }

  /** {@return x, times rmsnorm's scale and the norm weight when {@code norm} is not null} */
  static float[] input(MemorySegment x, @Nullable MemorySegment norm, int cols, float eps) {
    float[] xs = new float[cols];
    float ss = 0f;
    for (int c = 0; c < cols; c++) {
      xs[c] = f(x, c);
      ss += xs[c] * xs[c];
    }
    if (norm != null) {
      float scale = (float) (1 / Math.sqrt(ss / cols + eps));
      for (int c = 0; c < cols; c++) {
        xs[c] = xs[c] * scale * half(norm, c);
      }
    }
    return xs;
  }

  /** {@return row {@code r} of the fp16 matrix {@code w} dotted with {@code xs}} */
  static float dot(MemorySegment w, long r, float[] xs) {
    long base = r * xs.length;
    float acc = 0f;
    for (int c = 0; c < xs.length; c++) {
      acc = Math.fma(half(w, base + c), xs[c], acc);
    }
    return acc;
  }

  /** out = W (rmsnorm(x) * norm). */
  static void normMatvec(
      MemorySegment x,
      MemorySegment norm,
      MemorySegment w,
      MemorySegment out,
      int rows,
      int cols,
      float eps) {
    float[] xs = input(x, norm, cols, eps);
    for (int r = 0; r < rows; r++) {
      setF(out, r, dot(w, r, xs));
    }
  }

  /** x += W in. */
  static void matvecAdd(MemorySegment in, MemorySegment w, MemorySegment x, int rows, int cols) {
    float[] xs = input(in, null, cols, 0f);
    for (int r = 0; r < rows; r++) {
      setF(x, r, f(x, r) + dot(w, r, xs));
    }
  }

  /** h = silu(W1 xn) * (W3 xn), xn = rmsnorm(x) * norm. */
  static void normGateUp(
      MemorySegment x,
      MemorySegment norm,
      MemorySegment w1,
      MemorySegment w3,
      MemorySegment h,
      int rows,
      int cols,
      float eps) {
    float[] xs = input(x, norm, cols, eps);
    for (int r = 0; r < rows; r++) {
      float g = dot(w1, r, xs);
      float u = dot(w3, r, xs);
      setF(h, r, (float) (g / (1 + Math.exp(-g))) * u);
    }
  }

  /** The argmax key of decode_kernels.cu: the largest key is the largest value, lowest index. */
  static long argmaxKey(float v, int index) {
    int b = Float.floatToRawIntBits(v);
    b = b < 0 ? ~b : (b | 0x80000000);
    return ((long) b << 32) | (~index & 0xffffffffL);
  }

  /** logits = output (rmsnorm(x) * norm), and the step's argmax folded into state[BEST]. */
  static void normMatvecArgmax(
      MemorySegment x,
      MemorySegment norm,
      MemorySegment w,
      MemorySegment logits,
      MemorySegment state,
      int rows,
      int cols,
      float eps) {
    float[] xs = input(x, norm, cols, eps);
    long best = state.get(L, BEST * 4L);
    for (int r = 0; r < rows; r++) {
      float d = dot(w, r, xs);
      setF(logits, r, d);
      best = Long.compareUnsigned(argmaxKey(d, r), best) > 0 ? argmaxKey(d, r) : best;
    }
    state.set(L, BEST * 4L, best);
  }

  /** Rotates q and k for position state[POS] and writes k and v into the layer's caches. */
  static void ropeCache(
      MemorySegment qkv,
      MemorySegment state,
      MemorySegment kCache,
      MemorySegment vCache,
      int heads,
      int kvHeads,
      int headDim,
      float theta) {
    int pos = i(state, POS);
    int qDim = heads * headDim, kvDim = kvHeads * headDim;
    for (int base = 0; base < qDim + kvDim; base += 2) {
      int pair = (base % headDim) / 2;
      float angle = pos * (float) Math.pow(theta, -2f * pair / headDim);
      float c = (float) Math.cos(angle), s = (float) Math.sin(angle);
      float x0 = f(qkv, base), x1 = f(qkv, base + 1);
      float r0 = x0 * c - x1 * s, r1 = x0 * s + x1 * c;
      setF(qkv, base, r0);
      setF(qkv, base + 1, r1);
      if (base >= qDim) {
        setF(kCache, (long) pos * kvDim + base - qDim, r0);
        setF(kCache, (long) pos * kvDim + base - qDim + 1, r1);
      }
    }
    for (int v = 0; v < kvDim; v++) {
      setF(vCache, (long) pos * kvDim + v, f(qkv, qDim + kvDim + v));
    }
  }

  /** Per head: softmax(q . k_j / sqrt(head_dim)) over j <= state[POS], weighted sum of v_j. */
  static void attention(
      MemorySegment qkv,
      MemorySegment state,
      MemorySegment kCache,
      MemorySegment vCache,
      MemorySegment out,
      int heads,
      int kvHeads,
      int headDim) {
    int len = i(state, POS) + 1;
    int kvDim = kvHeads * headDim;
    float scale = (float) (1 / Math.sqrt(headDim));
    float[] scores = new float[len];
    for (int h = 0; h < heads; h++) {
      int g = h / (heads / kvHeads);
      float max = Float.NEGATIVE_INFINITY;
      for (int j = 0; j < len; j++) {
        float dot = 0f;
        for (int d = 0; d < headDim; d++) {
          dot =
              Math.fma(f(qkv, h * headDim + d), f(kCache, (long) j * kvDim + g * headDim + d), dot);
        }
        scores[j] = dot * scale;
        max = Math.max(max, scores[j]);
      }
      float sum = 0f;
      for (int j = 0; j < len; j++) {
        scores[j] = (float) Math.exp(scores[j] - max);
        sum += scores[j];
      }
      float inv = 1f / sum;
      for (int d = 0; d < headDim; d++) {
        float acc = 0f;
        for (int j = 0; j < len; j++) {
          acc = Math.fma(scores[j], f(vCache, (long) j * kvDim + g * headDim + d), acc);
        }
        setF(out, h * headDim + d, acc * inv);
      }
    }
  }

  /** Ends a step: the argmax becomes the token at the next position. {@return the steps left} */
  static int finish(MemorySegment state) {
    long best = state.get(L, BEST * 4L);
    int token = ~(int) best;
    state.set(L, BEST * 4L, 0L);
    int pos = i(state, POS) + 1;
    state.setAtIndex(I, POS, pos);
    state.setAtIndex(I, TOKEN, token);
    state.setAtIndex(I, HISTORY + pos, token);
    int left = i(state, LEFT) - 1;
    state.setAtIndex(I, LEFT, left);
    return left;
  }

  /** {@return a fresh state block: token 1 at position 0, {@code steps} steps to go} */
  static int[] initialState(int maxSeq, int steps) {
    int[] s = new int[stateLength(maxSeq)];
    s[TOKEN] = 1;
    s[LEFT] = steps;
    s[HISTORY] = 1;
    return s;
  }
}
