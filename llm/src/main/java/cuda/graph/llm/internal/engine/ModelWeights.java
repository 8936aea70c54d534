// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.llm.internal.checkpoint.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Llama model's weights on the host, each tensor the bytes of its safetensors entry in {@code
 * type} (row-major, PyTorch's {@code [out, in]} for a linear layer), checked against {@code shape}.
 *
 * @param shape the dimensions
 * @param type the weights' type, which is also the type of the products' inputs and the KV cache
 * @param embedding {@code model.embed_tokens.weight}, {@code [vocab, hidden]}
 * @param layers the layers, {@code shape.layers()} of them
 * @param finalNorm {@code model.norm.weight}, {@code [hidden]}
 * @param lmHead {@code lm_head.weight}, {@code [vocab, hidden]} ({@code embedding} itself where the
 *     embeddings are tied)
 */
public record ModelWeights(
    ModelShape shape,
    DType type,
    MemorySegment embedding,
    List<Layer> layers,
    MemorySegment finalNorm,
    MemorySegment lmHead) {

  /**
   * One decoder layer's weights ({@code model.layers.N.}...).
   *
   * @param attentionNorm {@code input_layernorm.weight}, {@code [hidden]}
   * @param q {@code self_attn.q_proj.weight}, {@code [heads * headDim, hidden]}
   * @param k {@code self_attn.k_proj.weight}, {@code [kvHeads * headDim, hidden]}
   * @param v {@code self_attn.v_proj.weight}, as k
   * @param o {@code self_attn.o_proj.weight}, {@code [hidden, heads * headDim]}
   * @param mlpNorm {@code post_attention_layernorm.weight}, {@code [hidden]}
   * @param gate {@code mlp.gate_proj.weight}, {@code [intermediate, hidden]}
   * @param up {@code mlp.up_proj.weight}, as gate
   * @param down {@code mlp.down_proj.weight}, {@code [hidden, intermediate]}
   */
  public record Layer(
      MemorySegment attentionNorm,
      MemorySegment q,
      MemorySegment k,
      MemorySegment v,
      MemorySegment o,
      MemorySegment mlpNorm,
      MemorySegment gate,
      MemorySegment up,
      MemorySegment down) {}

  /**
   * Checks every tensor's size.
   *
   * @throws IllegalArgumentException naming the first tensor whose size is not its shape's
   */
  public ModelWeights {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(type, "type");
    layers = List.copyOf(layers);
    if (layers.size() != shape.layers()) {
      throw new IllegalArgumentException(
          "ModelWeights: " + layers.size() + " layers for a shape of " + shape.layers());
    }
    long h = shape.hidden(), i = shape.intermediate();
    check(type, "model.embed_tokens.weight", embedding, shape.vocab() * h);
    check(type, "model.norm.weight", finalNorm, h);
    check(type, "lm_head.weight", lmHead, shape.vocab() * h);
    for (int n = 0; n < layers.size(); n++) {
      Layer l = layers.get(n);
      String p = "model.layers." + n + ".";
      check(type, p + "input_layernorm.weight", l.attentionNorm(), h);
      check(type, p + "self_attn.q_proj.weight", l.q(), shape.qWidth() * h);
      check(type, p + "self_attn.k_proj.weight", l.k(), shape.kvWidth() * h);
      check(type, p + "self_attn.v_proj.weight", l.v(), shape.kvWidth() * h);
      check(type, p + "self_attn.o_proj.weight", l.o(), h * shape.qWidth());
      check(type, p + "post_attention_layernorm.weight", l.mlpNorm(), h);
      check(type, p + "mlp.gate_proj.weight", l.gate(), i * h);
      check(type, p + "mlp.up_proj.weight", l.up(), i * h);
      check(type, p + "mlp.down_proj.weight", l.down(), h * i);
    }
  }

  /**
   * {@return the weights of an open checkpoint}, its mapped tensors as they are (valid while it is
   * open)
   *
   * @param checkpoint the checkpoint
   * @throws IllegalArgumentException if its tensors are not all of one type (the engine computes in
   *     one), naming the first that differs
   */
  public static ModelWeights of(Checkpoint checkpoint) {
    ModelShape shape = ModelShape.of(checkpoint.config());
    Tensor embedding = checkpoint.tensor("model.embed_tokens.weight");
    DType type = embedding.dtype();
    List<Layer> layers = new ArrayList<>();
    for (int n = 0; n < shape.layers(); n++) {
      layers.add(
          new Layer(
              data(checkpoint.layer(n, "input_layernorm.weight"), type),
              data(checkpoint.layer(n, "self_attn.q_proj.weight"), type),
              data(checkpoint.layer(n, "self_attn.k_proj.weight"), type),
              data(checkpoint.layer(n, "self_attn.v_proj.weight"), type),
              data(checkpoint.layer(n, "self_attn.o_proj.weight"), type),
              data(checkpoint.layer(n, "post_attention_layernorm.weight"), type),
              data(checkpoint.layer(n, "mlp.gate_proj.weight"), type),
              data(checkpoint.layer(n, "mlp.up_proj.weight"), type),
              data(checkpoint.layer(n, "mlp.down_proj.weight"), type)));
    }
    return new ModelWeights(
        shape,
        type,
        embedding.data(),
        layers,
        data(checkpoint.tensor("model.norm.weight"), type),
        data(checkpoint.lmHead(), type));
  }

  private static MemorySegment data(Tensor tensor, DType type) {
    if (tensor.dtype() != type) {
      throw new IllegalArgumentException(
          "ModelWeights.of: "
              + tensor.name()
              + " is "
              + tensor.dtype()
              + " but model.embed_tokens.weight is "
              + type
              + "; the engine computes in one type: save the checkpoint in one dtype");
    }
    return tensor.data();
  }

  private static void check(DType type, String name, MemorySegment tensor, long elements) {
    if (tensor.byteSize() != elements * type.bytes()) {
      throw new IllegalArgumentException(
          "ModelWeights: "
              + name
              + " has "
              + tensor.byteSize()
              + " bytes but its shape needs "
              + elements
              + " elements of "
              + type
              + " ("
              + elements * type.bytes()
              + " bytes); check the checkpoint against its config.json");
    }
  }
}
