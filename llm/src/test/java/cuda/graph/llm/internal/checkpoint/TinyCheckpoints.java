// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes complete tiny Llama model directories from a seed, as save_pretrained lays them out:
 * config.json, the weights in one model.safetensors or in shards with their index (bf16, f16 or
 * f32), a byte-level BPE tokenizer.json and a tokenizer_config.json with a chat template.
 */
public final class TinyCheckpoints {

  /** The beginning-of-text, end-of-text and end-of-turn tokens, after the byte-level vocabulary. */
  public static final int BOS = 260;

  public static final int EOS = 261;
  public static final int EOT = 262;

  /** The chat template written into tokenizer_config.json, in the style of Llama 3's. */
  public static final String CHAT_TEMPLATE =
      "{{ bos_token }}{% for message in messages %}"
          + "{{ '<|start|>' + message['role'] + '\\n' + message['content'] | trim + '<|eot|>' }}"
          + "{% endfor %}{% if add_generation_prompt %}{{ '<|start|>assistant\\n' }}{% endif %}";

  /**
   * What to write.
   *
   * @param hidden hidden_size
   * @param intermediate intermediate_size
   * @param layers num_hidden_layers
   * @param heads num_attention_heads
   * @param kvHeads num_key_value_heads
   * @param headDim head_dim
   * @param vocab vocab_size (at least 263: the tokenizer's ids)
   * @param ropeTheta rope_theta
   * @param llama3Scaling whether rope_scaling is Llama 3's (factor 8, low 1, high 4, original 16)
   * @param tied tie_word_embeddings
   * @param dtype the weights' dtype
   * @param shards 1 for model.safetensors, more for shards and an index
   * @param seed the weights' seed
   */
  public record Spec(
      int hidden,
      int intermediate,
      int layers,
      int heads,
      int kvHeads,
      int headDim,
      int vocab,
      double ropeTheta,
      boolean llama3Scaling,
      boolean tied,
      DType dtype,
      int shards,
      long seed) {

    /** {@return a two-layer model with grouped-query attention, llama3 scaling, tied, f32} */
    public static Spec tiny(long seed) {
      return new Spec(32, 48, 2, 4, 2, 8, 300, 10000.0, true, true, DType.F32, 1, seed);
    }

    public Spec withDtype(DType d) {
      return new Spec(
          hidden,
          intermediate,
          layers,
          heads,
          kvHeads,
          headDim,
          vocab,
          ropeTheta,
          llama3Scaling,
          tied,
          d,
          shards,
          seed);
    }

    public Spec withShards(int n) {
      return new Spec(
          hidden,
          intermediate,
          layers,
          heads,
          kvHeads,
          headDim,
          vocab,
          ropeTheta,
          llama3Scaling,
          tied,
          dtype,
          n,
          seed);
    }

    public Spec withTied(boolean t) {
      return new Spec(
          hidden,
          intermediate,
          layers,
          heads,
          kvHeads,
          headDim,
          vocab,
          ropeTheta,
          llama3Scaling,
          t,
          dtype,
          shards,
          seed);
    }

    public Spec withScaling(boolean s) {
      return new Spec(
          hidden,
          intermediate,
          layers,
          heads,
          kvHeads,
          headDim,
          vocab,
          ropeTheta,
          s,
          tied,
          dtype,
          shards,
          seed);
    }
  }

  private TinyCheckpoints() {}

  /** {@return {@code dir}, into which the model directory of {@code spec} was written} */
  public static Path write(Path dir, Spec spec) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("config.json"), configJson(spec));
      Files.writeString(dir.resolve("tokenizer.json"), tokenizerJson());
      Files.writeString(dir.resolve("tokenizer_config.json"), tokenizerConfigJson(CHAT_TEMPLATE));
      Map<String, float[]> weights = weights(spec);
      Map<String, List<Long>> shapes =
          Checkpoint.expectedShapes(ModelConfig.parse(configJson(spec), "spec"));
      List<Entry> entries = new ArrayList<>();
      shapes.forEach(
          (name, shape) -> entries.add(new Entry(name, spec.dtype(), shape, weights.get(name))));
      if (spec.shards() == 1) {
        writeSafetensors(dir.resolve(Checkpoint.WEIGHTS), entries);
      } else {
        StringBuilder map = new StringBuilder();
        int per = (entries.size() + spec.shards() - 1) / spec.shards();
        for (int s = 0; s < spec.shards(); s++) {
          String file = String.format("model-%05d-of-%05d.safetensors", s + 1, spec.shards());
          List<Entry> part =
              entries.subList(
                  Math.min(s * per, entries.size()), Math.min((s + 1) * per, entries.size()));
          writeSafetensors(dir.resolve(file), part);
          for (Entry e : part) {
            map.append(map.isEmpty() ? "" : ",\n    ")
                .append('"')
                .append(e.name())
                .append("\": \"")
                .append(file)
                .append('"');
          }
        }
        Files.writeString(
            dir.resolve(Checkpoint.INDEX),
            "{\n  \"metadata\": {\"total_size\": 0},\n  \"weight_map\": {\n    "
                + map
                + "\n  }\n}\n");
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@return the config.json of {@code spec}, as transformers writes a LlamaConfig} */
  public static String configJson(Spec spec) {
    String scaling =
        spec.llama3Scaling()
            ? "{\"factor\": 8.0, \"high_freq_factor\": 4.0, \"low_freq_factor\": 1.0,"
                + " \"original_max_position_embeddings\": 16, \"rope_type\": \"llama3\"}"
            : "null";
    return """
    {
      "architectures": ["LlamaForCausalLM"],
      "attention_bias": false,
      "attention_dropout": 0.0,
      "bos_token_id": %d,
      "eos_token_id": [%d, %d],
      "head_dim": %d,
      "hidden_act": "silu",
      "hidden_size": %d,
      "initializer_range": 0.02,
      "intermediate_size": %d,
      "max_position_embeddings": 256,
      "mlp_bias": false,
      "model_type": "llama",
      "num_attention_heads": %d,
      "num_hidden_layers": %d,
      "num_key_value_heads": %d,
      "pretraining_tp": 1,
      "rms_norm_eps": 1e-05,
      "rope_scaling": %s,
      "rope_theta": %s,
      "tie_word_embeddings": %s,
      "torch_dtype": "%s",
      "transformers_version": "4.57.0",
      "use_cache": true,
      "vocab_size": %d
    }
    """
        .formatted(
            BOS,
            EOS,
            EOT,
            spec.headDim(),
            spec.hidden(),
            spec.intermediate(),
            spec.heads(),
            spec.layers(),
            spec.kvHeads(),
            scaling,
            Double.toString(spec.ropeTheta()),
            spec.tied(),
            switch (spec.dtype()) {
              case BF16 -> "bfloat16";
              case F16 -> "float16";
              case F32 -> "float32";
            },
            spec.vocab());
  }

  /**
   * {@return the weights of {@code spec} by name, before rounding to its dtype}: projections
   * uniform in ±0.5/sqrt(fan-in)·2, embeddings in ±1, norms around 1, so that logits are not flat
   */
  public static Map<String, float[]> weights(Spec spec) {
    SplittableRandom random = new SplittableRandom(spec.seed());
    Map<String, float[]> weights = new LinkedHashMap<>();
    Checkpoint.expectedShapes(ModelConfig.parse(configJson(spec), "spec"))
        .forEach(
            (name, shape) -> {
              long n = 1;
              for (long d : shape) {
                n *= d;
              }
              float[] w = new float[(int) n];
              boolean norm = shape.size() == 1;
              double scale =
                  norm ? 0.2 : name.contains("embed") ? 1.0 : 1.0 / Math.sqrt(shape.get(1));
              for (int i = 0; i < w.length; i++) {
                double u = random.nextDouble(-1, 1) * scale;
                w[i] = (float) (norm ? 1 + u : u * 1.7);
              }
              weights.put(name, w);
            });
    return weights;
  }

  /** A tensor to write: its values are rounded to {@code dtype}. */
  public record Entry(String name, DType dtype, List<Long> shape, float[] values) {}

  /** Writes {@code entries} as a safetensors file, the data 8-byte aligned like the reference. */
  public static void writeSafetensors(Path file, List<Entry> entries) {
    StringBuilder header = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"}");
    long offset = 0;
    for (Entry e : entries) {
      long end = offset + (long) e.values().length * e.dtype().bytes();
      header
          .append(",\"")
          .append(e.name())
          .append("\":{\"dtype\":\"")
          .append(e.dtype())
          .append("\",\"shape\":")
          .append(e.shape().toString().replace(" ", ""))
          .append(",\"data_offsets\":[")
          .append(offset)
          .append(',')
          .append(end)
          .append("]}");
      offset = end;
    }
    header.append('}');
    while (header.length() % 8 != 0) {
      header.append(' ');
    }
    byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
    ByteBuffer out =
        ByteBuffer.allocate((int) (8 + json.length + offset)).order(ByteOrder.LITTLE_ENDIAN);
    out.putLong(json.length).put(json);
    for (Entry e : entries) {
      for (float v : e.values()) {
        switch (e.dtype()) {
          case F32 -> out.putFloat(v);
          case F16 -> out.putShort(Float.floatToFloat16(v));
          case BF16 -> out.putShort(toBf16(v));
        }
      }
    }
    try {
      Files.write(file, out.array());
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** {@return {@code v} rounded to bfloat16, to nearest even, as torch rounds} */
  public static short toBf16(float v) {
    int bits = Float.floatToRawIntBits(v);
    if (Float.isNaN(v)) {
      return (short) 0x7fc0;
    }
    int rounded = bits + 0x7fff + ((bits >>> 16) & 1);
    return (short) (rounded >>> 16);
  }

  /**
   * {@return a byte-level BPE tokenizer.json}: the 256 byte symbols of GPT-2's byte-level mapping,
   * merges of a few frequent English pairs, and three special tokens ({@link #BOS}, {@link #EOS},
   * {@link #EOT}) after them; no post-processor adds a token
   */
  public static String tokenizerJson() {
    StringBuilder vocab = new StringBuilder();
    List<String> symbols = byteSymbols();
    for (int i = 0; i < 256; i++) {
      vocab.append(i == 0 ? "" : ",").append(jsonString(symbols.get(i))).append(':').append(i);
    }
    String[][] merges = {{"h", "e"}, {"Ġ", "t"}, {"Ġt", "he"}, {"l", "l"}};
    StringBuilder mergeList = new StringBuilder();
    for (int i = 0; i < merges.length; i++) {
      vocab.append(',').append(jsonString(merges[i][0] + merges[i][1])).append(':').append(256 + i);
      mergeList.append(i == 0 ? "" : ",").append(jsonString(merges[i][0] + " " + merges[i][1]));
    }
    String special =
        """
        {"id":%d,"content":"%s","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}\
        """;
    return """
    {"version":"1.0","truncation":null,"padding":null,
     "added_tokens":[%s,%s,%s],
     "normalizer":null,
     "pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true},
     "post_processor":null,
     "decoder":{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true},
     "model":{"type":"BPE","dropout":null,"unk_token":null,"continuing_subword_prefix":null,
       "end_of_word_suffix":null,"fuse_unk":false,"byte_fallback":false,"ignore_merges":false,
       "vocab":{%s},"merges":[%s]}}
    """
        .formatted(
            special.formatted(BOS, "<|begin_of_text|>"),
            special.formatted(EOS, "<|end_of_text|>"),
            special.formatted(EOT, "<|eot|>"),
            vocab,
            mergeList);
  }

  /** {@return a tokenizer_config.json with {@code template} as its chat_template} */
  public static String tokenizerConfigJson(String template) {
    return """
    {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot|>", "clean_up_tokenization_spaces": false,
     "model_max_length": 256, "tokenizer_class": "PreTrainedTokenizerFast",
     "chat_template": %s}
    """
        .formatted(jsonString(template));
  }

  /** GPT-2's byte-to-unicode mapping: printable bytes stand for themselves, others move up. */
  static List<String> byteSymbols() {
    List<String> symbols = new ArrayList<>();
    int next = 256;
    for (int b = 0; b < 256; b++) {
      boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
      symbols.add(Character.toString(printable ? b : next++));
    }
    return symbols;
  }

  static String jsonString(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
