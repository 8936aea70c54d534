// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A model's fp16 weights in host memory, laid out as the kernels read them: per layer, Q, K and V
 * are one matrix (so one launch projects all three); every other tensor is its own. Generated from
 * a seed or read from a safetensors file (MODEL.md names and orders the tensors); closing frees the
 * memory.
 */
final class Weights implements AutoCloseable {

  private static final ValueLayout.OfShort F16 = ValueLayout.JAVA_SHORT_UNALIGNED;

  /** One layer's tensors. {@code qkv} is wq, wk and wv, one after the other. */
  record Layer(
      MemorySegment attentionNorm,
      MemorySegment qkv,
      MemorySegment wo,
      MemorySegment ffnNorm,
      MemorySegment w1,
      MemorySegment w3,
      MemorySegment w2) {}

  final LlamaConfig config;
  final long seed;
  final MemorySegment embeddings;
  final List<Layer> layers;
  final MemorySegment norm;
  final MemorySegment output;
  private final Arena arena;

  private Weights(LlamaConfig config, long seed, Arena arena) {
    this.config = config;
    this.seed = seed;
    this.arena = arena;
    int d = config.dim();
    this.embeddings = allocate(arena, (long) config.vocab() * d);
    List<Layer> all = new ArrayList<>();
    for (int l = 0; l < config.layers(); l++) {
      all.add(
          new Layer(
              allocate(arena, d),
              allocate(arena, (long) config.qkvRows() * d),
              allocate(arena, (long) d * d),
              allocate(arena, d),
              allocate(arena, (long) config.ffn() * d),
              allocate(arena, (long) config.ffn() * d),
              allocate(arena, (long) d * config.ffn())));
    }
    this.layers = List.copyOf(all);
    this.norm = allocate(arena, d);
    this.output = allocate(arena, (long) config.vocab() * d);
  }

  private static MemorySegment allocate(Arena arena, long elements) {
    return arena.allocate(elements * 2, 16);
  }

  /** {@return the tensors in MODEL.md's order, as views of this layout} */
  List<SafeTensors.Tensor> tensors() {
    int d = config.dim(), kv = config.kvDim(), f = config.ffn();
    List<SafeTensors.Tensor> t = new ArrayList<>();
    t.add(new SafeTensors.Tensor("tok_embeddings.weight", shape(config.vocab(), d), embeddings));
    for (int l = 0; l < layers.size(); l++) {
      Layer layer = layers.get(l);
      String p = "layers." + l + ".";
      long q = 2L * d * d, k = 2L * kv * d;
      t.add(new SafeTensors.Tensor(p + "attention_norm.weight", shape(d), layer.attentionNorm()));
      t.add(
          new SafeTensors.Tensor(
              p + "attention.wq.weight", shape(d, d), layer.qkv().asSlice(0, q)));
      t.add(
          new SafeTensors.Tensor(
              p + "attention.wk.weight", shape(kv, d), layer.qkv().asSlice(q, k)));
      t.add(
          new SafeTensors.Tensor(
              p + "attention.wv.weight", shape(kv, d), layer.qkv().asSlice(q + k, k)));
      t.add(new SafeTensors.Tensor(p + "attention.wo.weight", shape(d, d), layer.wo()));
      t.add(new SafeTensors.Tensor(p + "ffn_norm.weight", shape(d), layer.ffnNorm()));
      t.add(new SafeTensors.Tensor(p + "feed_forward.w1.weight", shape(f, d), layer.w1()));
      t.add(new SafeTensors.Tensor(p + "feed_forward.w3.weight", shape(f, d), layer.w3()));
      t.add(new SafeTensors.Tensor(p + "feed_forward.w2.weight", shape(d, f), layer.w2()));
    }
    t.add(new SafeTensors.Tensor("norm.weight", shape(d), norm));
    t.add(new SafeTensors.Tensor("output.weight", shape(config.vocab(), d), output));
    return t;
  }

  private static long[] shape(long... dims) {
    return dims;
  }

  /**
   * {@return weights drawn from {@code seed}}: tensor {@code k} (MODEL.md's order), element {@code
   * i} is a hash of the three mapped to {@code u} in [-1, 1); matrices hold {@code u / sqrt(in)},
   * embeddings {@code u}, norm weights {@code 1 + u / 8}, each rounded to fp16. In parallel: the
   * Llama-3.2-1B shape has 1.2 billion of them.
   */
  static Weights generate(LlamaConfig config, long seed) {
    Weights w = new Weights(config, seed, Arena.ofShared());
    List<SafeTensors.Tensor> tensors = w.tensors();
    for (int k = 0; k < tensors.size(); k++) {
      SafeTensors.Tensor t = tensors.get(k);
      float scale;
      float offset;
      if (t.shape().length == 1) {
        scale = 1f / 8;
        offset = 1f;
      } else if (t.name().equals("tok_embeddings.weight")) {
        scale = 1f;
        offset = 0f;
      } else {
        scale = (float) (1 / Math.sqrt(t.shape()[1]));
        offset = 0f;
      }
      fill(t.data(), seed, k, scale, offset);
    }
    return w;
  }

  private static void fill(MemorySegment data, long seed, int tensor, float scale, float offset) {
    long n = data.byteSize() / 2;
    int chunk = 1 << 16;
    int chunks = (int) ((n + chunk - 1) / chunk);
    IntStream.range(0, chunks)
        .parallel()
        .forEach(
            c -> {
              long from = (long) c * chunk, to = Math.min(n, from + chunk);
              for (long i = from; i < to; i++) {
                float u = uniform(seed, tensor, i);
                data.setAtIndex(F16, i, Float.floatToFloat16(offset + scale * u));
              }
            });
  }

  /** A value in [-1, 1) from SplitMix64's finalizer over the seed, the tensor and the element. */
  static float uniform(long seed, int tensor, long element) {
    long z = seed * 0x9E3779B97F4A7C15L + ((long) tensor << 40) + element;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (z >>> 40) * 0x1.0p-23f - 1f; // 24 random bits
  }

  /** Writes these weights as a safetensors file, with the configuration as its metadata. */
  void write(Path file) throws IOException {
    SafeTensors.write(file, config.metadata(seed), tensors());
  }

  /** {@return the weights of a safetensors file written by {@link #write} or another tool} */
  static Weights read(Path file) throws IOException {
    try (Arena mapping = Arena.ofConfined()) {
      SafeTensors.Contents contents = SafeTensors.read(file, mapping);
      LlamaConfig config = LlamaConfig.fromMetadata(contents.metadata());
      long seed = Long.parseLong(contents.metadata().getOrDefault("seed", "0"));
      Weights w = new Weights(config, seed, Arena.ofShared());
      for (SafeTensors.Tensor want : w.tensors()) {
        SafeTensors.Tensor have = contents.tensors().get(want.name());
        if (have == null) {
          w.close();
          throw new IOException(file + " has no tensor " + want.name());
        }
        if (!java.util.Arrays.equals(have.shape(), want.shape())) {
          w.close();
          throw new IOException(
              want.name()
                  + " in "
                  + file
                  + " has shape "
                  + java.util.Arrays.toString(have.shape())
                  + ", the configuration needs "
                  + java.util.Arrays.toString(want.shape()));
        }
        want.data().copyFrom(have.data());
      }
      return w;
    }
  }

  /** {@return the bytes of every weight} */
  long byteSize() {
    return tensors().stream().mapToLong(t -> t.data().byteSize()).sum();
  }

  @Override
  public void close() {
    arena.close();
  }
}
