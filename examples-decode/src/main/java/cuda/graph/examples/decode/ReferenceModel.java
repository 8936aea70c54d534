// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The model in plain Java on the host: the same {@link DecodeMath} functions the kernels'
 * references call, in the same order, on its own activations, caches and state. What the engine
 * computes on the simulator equals this exactly.
 */
final class ReferenceModel {

  /** What a greedy decode produced: the token fed at each position, and each step's logits. */
  record Decode(int[] tokens, List<float[]> logits) {}

  private ReferenceModel() {}

  /** {@return {@code steps} greedy steps from token 1 at position 0} */
  static Decode decode(Weights w, int steps) {
    LlamaConfig c = w.config;
    if (steps >= c.maxSeq()) {
      throw new IllegalArgumentException(
          "at most " + (c.maxSeq() - 1) + " steps fit a cache of " + c.maxSeq() + " positions");
    }
    MemorySegment state = MemorySegment.ofArray(DecodeMath.initialState(c.maxSeq(), steps));
    MemorySegment x = floats(c.dim());
    MemorySegment qkv = floats(c.qkvRows());
    MemorySegment att = floats(c.dim());
    MemorySegment h = floats(c.ffn());
    MemorySegment logits = floats(c.vocab());
    List<MemorySegment> kCache = new ArrayList<>(), vCache = new ArrayList<>();
    for (int l = 0; l < c.layers(); l++) {
      kCache.add(floats((long) c.maxSeq() * c.kvDim()));
      vCache.add(floats((long) c.maxSeq() * c.kvDim()));
    }
    List<float[]> allLogits = new ArrayList<>();
    for (int step = 0; step < steps; step++) {
      DecodeMath.embed(state, w.embeddings, x, c.dim());
      for (int l = 0; l < c.layers(); l++) {
        Weights.Layer layer = w.layers.get(l);
        DecodeMath.normMatvec(
            x, layer.attentionNorm(), layer.qkv(), qkv, c.qkvRows(), c.dim(), c.normEps());
        DecodeMath.ropeCache(
            qkv,
            state,
            kCache.get(l),
            vCache.get(l),
            c.heads(),
            c.kvHeads(),
            c.headDim(),
            c.ropeTheta());
        DecodeMath.attention(
            qkv, state, kCache.get(l), vCache.get(l), att, c.heads(), c.kvHeads(), c.headDim());
        DecodeMath.matvecAdd(att, layer.wo(), x, c.dim(), c.dim());
        DecodeMath.normGateUp(
            x, layer.ffnNorm(), layer.w1(), layer.w3(), h, c.ffn(), c.dim(), c.normEps());
        DecodeMath.matvecAdd(h, layer.w2(), x, c.dim(), c.ffn());
      }
      DecodeMath.normMatvecArgmax(
          x, w.norm, w.output, logits, state, c.vocab(), c.dim(), c.normEps());
      allLogits.add(logits.toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT));
      DecodeMath.finish(state);
    }
    int[] tokens = new int[steps + 1];
    for (int p = 0; p <= steps; p++) {
      tokens[p] = DecodeMath.i(state, DecodeMath.HISTORY + p);
    }
    return new Decode(tokens, allLogits);
  }

  private static MemorySegment floats(long n) {
    return MemorySegment.ofArray(new float[Math.toIntExact(n)]);
  }
}
