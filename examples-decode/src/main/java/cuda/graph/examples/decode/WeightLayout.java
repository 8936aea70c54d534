// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import java.lang.foreign.MemorySegment;

/**
 * Where each weight lies in the one buffer of fp16 weights that the persistent step reads (the
 * .cu's {@code Layout}, the same order): per layer the attention norm, QKV, wo, the FFN norm, w1,
 * w3 and w2; then the final norm, the output head and the embeddings. Offsets and sizes are in
 * halves; every size is a multiple of 8 (16 bytes) when the widths are, which the product kernels
 * check.
 */
record WeightLayout(int dim, int qkvRows, int ffn, int vocab, int layers) {

  static WeightLayout of(LlamaConfig c) {
    return new WeightLayout(c.dim(), c.qkvRows(), c.ffn(), c.vocab(), c.layers());
  }

  long layerSize() {
    return 2L * dim + (long) (qkvRows + dim) * dim + 3L * ffn * dim;
  }

  long attentionNorm(int l) {
    return l * layerSize();
  }

  long qkv(int l) {
    return attentionNorm(l) + dim;
  }

  long wo(int l) {
    return qkv(l) + (long) qkvRows * dim;
  }

  long ffnNorm(int l) {
    return wo(l) + (long) dim * dim;
  }

  long w1(int l) {
    return ffnNorm(l) + dim;
  }

  long w3(int l) {
    return w1(l) + (long) ffn * dim;
  }

  long w2(int l) {
    return w3(l) + (long) ffn * dim;
  }

  long norm() {
    return layers * layerSize();
  }

  long output() {
    return norm() + dim;
  }

  long embeddings() {
    return output() + (long) vocab * dim;
  }

  /** {@return the buffer's length in halves} */
  long total() {
    return embeddings() + (long) vocab * dim;
  }

  MemorySegment attentionNorm(MemorySegment w, int l) {
    return halves(w, attentionNorm(l), dim);
  }

  MemorySegment qkv(MemorySegment w, int l) {
    return halves(w, qkv(l), (long) qkvRows * dim);
  }

  MemorySegment wo(MemorySegment w, int l) {
    return halves(w, wo(l), (long) dim * dim);
  }

  MemorySegment ffnNorm(MemorySegment w, int l) {
    return halves(w, ffnNorm(l), dim);
  }

  MemorySegment w1(MemorySegment w, int l) {
    return halves(w, w1(l), (long) ffn * dim);
  }

  MemorySegment w3(MemorySegment w, int l) {
    return halves(w, w3(l), (long) ffn * dim);
  }

  MemorySegment w2(MemorySegment w, int l) {
    return halves(w, w2(l), (long) dim * ffn);
  }

  MemorySegment norm(MemorySegment w) {
    return halves(w, norm(), dim);
  }

  MemorySegment output(MemorySegment w) {
    return halves(w, output(), (long) vocab * dim);
  }

  MemorySegment embeddings(MemorySegment w) {
    return halves(w, embeddings(), (long) vocab * dim);
  }

  private static MemorySegment halves(MemorySegment w, long offset, long length) {
    return w.asSlice(offset * 2, length * 2);
  }
}
