// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A Llama model's {@code config.json}, checked: what the reference model and the engine need, each
 * value in range, and everything this module does not implement refused by name (another
 * architecture, an activation other than SiLU, biases, a RoPE scaling other than Llama 3's).
 *
 * @param hiddenSize the width of the residual stream
 * @param intermediateSize the width of the MLP
 * @param numHiddenLayers the number of decoder layers
 * @param numAttentionHeads query heads per layer
 * @param numKeyValueHeads key/value heads per layer (grouped-query attention), dividing the query
 *     heads
 * @param headDim the width of one head
 * @param vocabSize the rows of the embedding and of the output projection
 * @param rmsNormEps the epsilon of every RMSNorm
 * @param ropeTheta the base of the rotary frequencies
 * @param ropeScaling Llama 3's scaling of the rotary frequencies, or null for none
 * @param maxPositionEmbeddings the context length the model was trained for
 * @param tieWordEmbeddings whether the output projection is the embedding ({@code lm_head.weight}
 *     absent)
 * @param torchDtype the dtype the checkpoint was saved in, as config.json names it, or null when it
 *     names none
 * @param bosTokenId the beginning-of-sequence token, or null
 * @param eosTokenIds the end-of-sequence tokens (config.json gives one or a list), possibly empty
 */
public record ModelConfig(
    int hiddenSize,
    int intermediateSize,
    int numHiddenLayers,
    int numAttentionHeads,
    int numKeyValueHeads,
    int headDim,
    int vocabSize,
    double rmsNormEps,
    double ropeTheta,
    @Nullable RopeScaling ropeScaling,
    int maxPositionEmbeddings,
    boolean tieWordEmbeddings,
    @Nullable String torchDtype,
    @Nullable Integer bosTokenId,
    List<Integer> eosTokenIds) {

  /**
   * Llama 3's scaling of the rotary frequencies ({@code rope_type} "llama3"): wavelengths longer
   * than {@code originalMaxPositionEmbeddings / lowFreqFactor} are divided by {@code factor}, those
   * shorter than {@code originalMaxPositionEmbeddings / highFreqFactor} kept, and those between
   * interpolated.
   *
   * @param factor the division of the low frequencies
   * @param lowFreqFactor where the low frequencies start
   * @param highFreqFactor where the high frequencies start
   * @param originalMaxPositionEmbeddings the context length before scaling
   */
  public record RopeScaling(
      double factor,
      double lowFreqFactor,
      double highFreqFactor,
      int originalMaxPositionEmbeddings) {}

  /** The architecture and model type this module serves. */
  static final String ARCHITECTURE = "LlamaForCausalLM";

  public ModelConfig {
    eosTokenIds = List.copyOf(eosTokenIds);
  }

  /** {@return the width of all query heads together, {@code numAttentionHeads * headDim}} */
  public int qDim() {
    return numAttentionHeads * headDim;
  }

  /**
   * {@return the width of all key (or value) heads together, {@code numKeyValueHeads * headDim}}
   */
  public int kvDim() {
    return numKeyValueHeads * headDim;
  }

  /**
   * Reads and checks {@code config.json}.
   *
   * @param file the config.json of a model directory
   * @return the checked configuration
   * @throws IllegalArgumentException naming the file, the key, the value and what is supported
   * @throws UncheckedIOException when the file cannot be read
   */
  public static ModelConfig read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "ModelConfig.read(" + file + "): cannot read the model's config.json: " + e, e);
    }
    return parse(text, file.toString());
  }

  /**
   * Parses and checks the text of a config.json.
   *
   * @param json the file's text
   * @param where the file's name, for errors
   * @return the checked configuration
   * @throws IllegalArgumentException naming the file, the key, the value and what is supported
   */
  public static ModelConfig parse(String json, String where) {
    JsonObject o;
    try {
      JsonElement root = JsonParser.parseString(json);
      if (!root.isJsonObject()) {
        throw new IllegalArgumentException(where + ": config.json is not a JSON object");
      }
      o = root.getAsJsonObject();
    } catch (JsonParseException e) {
      throw new IllegalArgumentException(where + ": config.json is not valid JSON: " + e, e);
    }
    Reader r = new Reader(o, where);

    JsonElement architectures = o.get("architectures");
    if (architectures == null
        || !architectures.isJsonArray()
        || architectures.getAsJsonArray().size() != 1
        || !architectures.getAsJsonArray().get(0).isJsonPrimitive()
        || !ARCHITECTURE.equals(architectures.getAsJsonArray().get(0).getAsString())) {
      throw r.unsupported("architectures", architectures, "[\"" + ARCHITECTURE + "\"]");
    }
    r.requireString("model_type", "llama");
    r.requireString("hidden_act", "silu");
    r.requireFalse("attention_bias");
    r.requireFalse("mlp_bias");

    int hidden = r.positiveInt("hidden_size");
    int heads = r.positiveInt("num_attention_heads");
    int kvHeads = o.has("num_key_value_heads") ? r.positiveInt("num_key_value_heads") : heads;
    if (heads % kvHeads != 0) {
      throw new IllegalArgumentException(
          where
              + ": num_key_value_heads "
              + kvHeads
              + " does not divide num_attention_heads "
              + heads
              + "; grouped-query attention needs each key/value head shared by as many query"
              + " heads");
    }
    int headDim;
    if (r.present("head_dim")) {
      headDim = r.positiveInt("head_dim");
    } else {
      if (hidden % heads != 0) {
        throw new IllegalArgumentException(
            where
                + ": no head_dim, and hidden_size "
                + hidden
                + " is not a multiple of num_attention_heads "
                + heads
                + "; give head_dim");
      }
      headDim = hidden / heads;
    }
    if (headDim % 2 != 0) {
      throw r.unsupported("head_dim", new JsonPrimitive(headDim), "an even head_dim (RoPE pairs)");
    }
    double theta = r.positiveDouble("rope_theta", 10000.0);
    RopeScaling scaling = null;
    JsonElement ropeParameters = o.get("rope_parameters");
    if (ropeParameters != null && !ropeParameters.isJsonNull()) {
      // transformers 5 keeps rope_theta and the scaling together here.
      if (!ropeParameters.isJsonObject()) {
        throw r.unsupported("rope_parameters", ropeParameters, "an object");
      }
      Reader p = new Reader(ropeParameters.getAsJsonObject(), where + " (rope_parameters)");
      theta = p.positiveDouble("rope_theta", theta);
      scaling = ropeScaling(p, "rope_parameters");
    }
    JsonElement ropeScaling = o.get("rope_scaling");
    if (ropeScaling != null && !ropeScaling.isJsonNull()) {
      if (!ropeScaling.isJsonObject()) {
        throw r.unsupported("rope_scaling", ropeScaling, "null or an object");
      }
      scaling = ropeScaling(new Reader(ropeScaling.getAsJsonObject(), where), "rope_scaling");
    }

    JsonElement eos = o.get("eos_token_id");
    List<Integer> eosIds = new ArrayList<>();
    if (eos != null && !eos.isJsonNull()) {
      if (eos.isJsonArray()) {
        for (JsonElement e : eos.getAsJsonArray()) {
          eosIds.add(r.tokenId("eos_token_id", e));
        }
      } else {
        eosIds.add(r.tokenId("eos_token_id", eos));
      }
    }
    JsonElement bos = o.get("bos_token_id");
    Integer bosId = bos == null || bos.isJsonNull() ? null : r.tokenId("bos_token_id", bos);
    JsonElement dtype = o.has("torch_dtype") ? o.get("torch_dtype") : o.get("dtype");
    String torchDtype =
        dtype == null || dtype.isJsonNull() || !dtype.isJsonPrimitive()
            ? null
            : dtype.getAsString();

    int vocab = r.positiveInt("vocab_size");
    for (int id : eosIds) {
      r.belowVocab("eos_token_id", id, vocab);
    }
    if (bosId != null) {
      r.belowVocab("bos_token_id", bosId, vocab);
    }
    return new ModelConfig(
        hidden,
        r.positiveInt("intermediate_size"),
        r.positiveInt("num_hidden_layers"),
        heads,
        kvHeads,
        headDim,
        vocab,
        r.positiveDouble("rms_norm_eps", 1e-6),
        theta,
        scaling,
        r.positiveInt("max_position_embeddings"),
        r.bool("tie_word_embeddings", false),
        torchDtype,
        bosId,
        eosIds);
  }

  private static @Nullable RopeScaling ropeScaling(Reader r, String key) {
    String type = r.string("rope_type");
    if (type == null) {
      type = r.string("type");
    }
    if (type == null || type.equals("default")) {
      if (type == null && key.equals("rope_scaling")) {
        throw r.unsupported(key + ".rope_type", null, "\"llama3\" (or rope_scaling null)");
      }
      return null;
    }
    if (!type.equals("llama3")) {
      throw r.unsupported(
          key + ".rope_type",
          new JsonPrimitive(type),
          "\"llama3\" or none (\"linear\", \"dynamic\", \"yarn\", \"longrope\" and the others"
              + " are not supported)");
    }
    double factor = r.positiveDouble("factor", Double.NaN);
    double low = r.positiveDouble("low_freq_factor", Double.NaN);
    double high = r.positiveDouble("high_freq_factor", Double.NaN);
    if (!(high > low)) {
      throw new IllegalArgumentException(
          r.where
              + ": "
              + key
              + ".high_freq_factor "
              + high
              + " is not above low_freq_factor "
              + low
              + "; Llama 3's scaling interpolates between them");
    }
    return new RopeScaling(factor, low, high, r.positiveInt("original_max_position_embeddings"));
  }

  /** Typed access to the keys of one JSON object, each failure naming the file and the key. */
  private static final class Reader {
    final JsonObject o;
    final String where;

    Reader(JsonObject o, String where) {
      this.o = o;
      this.where = where;
    }

    boolean present(String key) {
      return o.has(key) && !o.get(key).isJsonNull();
    }

    IllegalArgumentException unsupported(String key, @Nullable JsonElement value, String what) {
      return new IllegalArgumentException(
          where
              + ": "
              + key
              + " is "
              + (value == null ? "absent" : value.toString())
              + "; supported: "
              + what
              + " (this module serves Llama-architecture checkpoints)");
    }

    void requireString(String key, String expected) {
      JsonElement v = o.get(key);
      if (v == null || !v.isJsonPrimitive() || !expected.equals(v.getAsString())) {
        throw unsupported(key, v, "\"" + expected + "\"");
      }
    }

    void requireFalse(String key) {
      JsonElement v = o.get(key);
      if (v != null
          && !v.isJsonNull()
          && !(v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean() && !v.getAsBoolean())) {
        throw unsupported(key, v, "false (biases are not supported)");
      }
    }

    @Nullable String string(String key) {
      JsonElement v = o.get(key);
      if (v == null || v.isJsonNull()) {
        return null;
      }
      if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isString()) {
        throw unsupported(key, v, "a string");
      }
      return v.getAsString();
    }

    boolean bool(String key, boolean absent) {
      JsonElement v = o.get(key);
      if (v == null || v.isJsonNull()) {
        return absent;
      }
      if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isBoolean()) {
        throw unsupported(key, v, "true or false");
      }
      return v.getAsBoolean();
    }

    int positiveInt(String key) {
      JsonElement v = o.get(key);
      if (v == null || v.isJsonNull()) {
        throw unsupported(key, null, "a positive integer");
      }
      return positiveInt(key, v);
    }

    int positiveInt(String key, JsonElement v) {
      long value = integer(key, v);
      if (value <= 0 || value > Integer.MAX_VALUE) {
        throw unsupported(key, v, "a positive integer up to " + Integer.MAX_VALUE);
      }
      return (int) value;
    }

    int tokenId(String key, JsonElement v) {
      long value = integer(key, v);
      if (value < 0 || value > Integer.MAX_VALUE) {
        throw unsupported(key, v, "a token id (a non-negative integer) or a list of them");
      }
      return (int) value;
    }

    void belowVocab(String key, int id, int vocab) {
      if (id >= vocab) {
        throw unsupported(key, new JsonPrimitive(id), "a token id below vocab_size " + vocab);
      }
    }

    private long integer(String key, JsonElement v) {
      if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
        throw unsupported(key, v, "an integer");
      }
      java.math.BigDecimal d = v.getAsBigDecimal();
      try {
        return d.longValueExact();
      } catch (ArithmeticException e) {
        throw unsupported(key, v, "an integer");
      }
    }

    double positiveDouble(String key, double absent) {
      JsonElement v = o.get(key);
      if (v == null || v.isJsonNull()) {
        if (Double.isNaN(absent)) {
          throw unsupported(key, null, "a positive number");
        }
        return absent;
      }
      if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
        throw unsupported(key, v, "a positive number");
      }
      double d = v.getAsDouble();
      if (!(d > 0) || Double.isInfinite(d)) {
        throw unsupported(key, v, "a positive finite number");
      }
      return d;
    }
  }
}
