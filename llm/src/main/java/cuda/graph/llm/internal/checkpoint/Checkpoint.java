// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Hugging Face Llama model directory, opened: its checked {@link ModelConfig} and its weights,
 * memory-mapped read-only from {@code model.safetensors} or from the shards that {@code
 * model.safetensors.index.json} names, every expected tensor present with the shape the config
 * implies and no other. The mappings live until {@link #close()}; a {@link Tensor}'s data is
 * invalid after it.
 */
public final class Checkpoint implements AutoCloseable {

  /** The single-file weights. */
  public static final String WEIGHTS = "model.safetensors";

  /** The index of sharded weights: {@code weight_map} from tensor name to shard file. */
  public static final String INDEX = "model.safetensors.index.json";

  private final Path directory;
  private final ModelConfig config;
  private final Arena arena;
  private final Map<String, Tensor> tensors;

  private Checkpoint(Path directory, ModelConfig config, Arena arena, Map<String, Tensor> tensors) {
    this.directory = directory;
    this.config = config;
    this.arena = arena;
    this.tensors = Collections.unmodifiableMap(tensors);
  }

  /**
   * Opens the model directory {@code directory}: reads config.json, maps the weights and checks
   * them against it.
   *
   * @param directory a Hugging Face model directory of the Llama architecture
   * @return the open checkpoint, to be closed
   * @throws IllegalArgumentException naming the file and what is wrong or unsupported in it
   * @throws UncheckedIOException when a file cannot be read
   */
  public static Checkpoint open(Path directory) {
    String call = "Checkpoint.open(" + directory + ")";
    Path dir;
    try {
      if (!Files.isDirectory(directory)) {
        throw new IllegalArgumentException(
            call + ": not a directory; give a Hugging Face model directory (config.json, weights)");
      }
      dir = directory.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(call + ": cannot resolve the directory: " + e, e);
    }
    ModelConfig config = ModelConfig.read(dir.resolve("config.json"));
    Arena arena = Arena.ofShared();
    try {
      Map<String, Tensor> tensors = mapWeights(dir, call, arena);
      check(config, tensors, call);
      return new Checkpoint(dir, config, arena, tensors);
    } catch (IOException e) {
      arena.close();
      throw new UncheckedIOException(call + ": cannot read the weights: " + e, e);
    } catch (RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  /** {@return the directory, its real path} */
  public Path directory() {
    return directory;
  }

  /** {@return the checked configuration} */
  public ModelConfig config() {
    return config;
  }

  /** {@return the names of the tensors the model uses, in the order of the files} */
  public Set<String> names() {
    return tensors.keySet();
  }

  /**
   * {@return the tensor named {@code name}}
   *
   * @throws IllegalArgumentException when the checkpoint has no such tensor
   */
  public Tensor tensor(String name) {
    Tensor t = tensors.get(name);
    if (t == null) {
      throw new IllegalArgumentException(
          "Checkpoint.tensor(" + name + "): no such tensor in " + directory);
    }
    return t;
  }

  /**
   * {@return the tensor {@code model.layers.LAYER.SUFFIX}, e.g. suffix "self_attn.q_proj.weight"}
   */
  public Tensor layer(int layer, String suffix) {
    return tensor("model.layers." + layer + "." + suffix);
  }

  /** {@return the output projection: {@code lm_head.weight}, or the embedding when tied} */
  public Tensor lmHead() {
    return config.tieWordEmbeddings()
        ? tensor("model.embed_tokens.weight")
        : tensor("lm_head.weight");
  }

  /** Unmaps the weights; every {@link Tensor#data()} of this checkpoint becomes invalid. */
  @Override
  public void close() {
    arena.close();
  }

  /**
   * {@return the expected tensors and their shapes, in the model's order}
   *
   * @param config the configuration that implies them
   */
  public static Map<String, List<Long>> expectedShapes(ModelConfig config) {
    long hidden = config.hiddenSize();
    long inter = config.intermediateSize();
    Map<String, List<Long>> shapes = new LinkedHashMap<>();
    shapes.put("model.embed_tokens.weight", List.of((long) config.vocabSize(), hidden));
    for (int i = 0; i < config.numHiddenLayers(); i++) {
      String p = "model.layers." + i + ".";
      shapes.put(p + "input_layernorm.weight", List.of(hidden));
      shapes.put(p + "self_attn.q_proj.weight", List.of((long) config.qDim(), hidden));
      shapes.put(p + "self_attn.k_proj.weight", List.of((long) config.kvDim(), hidden));
      shapes.put(p + "self_attn.v_proj.weight", List.of((long) config.kvDim(), hidden));
      shapes.put(p + "self_attn.o_proj.weight", List.of(hidden, (long) config.qDim()));
      shapes.put(p + "post_attention_layernorm.weight", List.of(hidden));
      shapes.put(p + "mlp.gate_proj.weight", List.of(inter, hidden));
      shapes.put(p + "mlp.up_proj.weight", List.of(inter, hidden));
      shapes.put(p + "mlp.down_proj.weight", List.of(hidden, inter));
    }
    shapes.put("model.norm.weight", List.of(hidden));
    if (!config.tieWordEmbeddings()) {
      shapes.put("lm_head.weight", List.of((long) config.vocabSize(), hidden));
    }
    return shapes;
  }

  private static void check(ModelConfig config, Map<String, Tensor> tensors, String call) {
    Map<String, List<Long>> expected = expectedShapes(config);
    Set<String> missing = new TreeSet<>(expected.keySet());
    missing.removeAll(tensors.keySet());
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          call
              + ": the weights lack "
              + missing.size()
              + " tensor(s) config.json implies: "
              + abbreviate(missing)
              + " (is the checkpoint complete and of the Llama architecture?)");
    }
    Set<String> unexpected = new TreeSet<>();
    for (String name : tensors.keySet()) {
      if (!expected.containsKey(name)
          && !name.endsWith(".rotary_emb.inv_freq")
          // A tied checkpoint may still carry the head: the embedding is used, the head ignored.
          && !(config.tieWordEmbeddings() && name.equals("lm_head.weight"))) {
        unexpected.add(name);
      }
    }
    if (!unexpected.isEmpty()) {
      throw new IllegalArgumentException(
          call
              + ": the weights hold "
              + unexpected.size()
              + " tensor(s) a Llama model of this config.json does not have: "
              + abbreviate(unexpected)
              + " (a bias, an adapter, or another architecture are not supported)");
    }
    for (Map.Entry<String, List<Long>> e : expected.entrySet()) {
      Tensor t = tensors.get(e.getKey());
      if (!t.shape().equals(e.getValue())) {
        throw new IllegalArgumentException(
            call
                + ": tensor "
                + t
                + " has shape "
                + t.shape()
                + " but config.json implies "
                + e.getValue());
      }
    }
    if (config.tieWordEmbeddings() && tensors.containsKey("lm_head.weight")) {
      Tensor head = tensors.get("lm_head.weight");
      if (!head.shape().equals(List.of((long) config.vocabSize(), (long) config.hiddenSize()))) {
        throw new IllegalArgumentException(
            call + ": tensor " + head + " has shape " + head.shape() + ", not the embedding's");
      }
    }
  }

  private static String abbreviate(Set<String> names) {
    List<String> list = new ArrayList<>(names);
    return list.size() <= 8
        ? String.join(", ", list)
        : String.join(", ", list.subList(0, 8)) + " and " + (list.size() - 8) + " more";
  }

  private static Map<String, Tensor> mapWeights(Path dir, String call, Arena arena)
      throws IOException {
    if (Files.exists(dir.resolve(WEIGHTS))) {
      return SafetensorsFile.read(inside(dir, WEIGHTS, call), arena);
    }
    Path index = dir.resolve(INDEX);
    if (!Files.exists(index)) {
      throw new IllegalArgumentException(
          call + ": no " + WEIGHTS + " and no " + INDEX + " in the directory");
    }
    Map<String, String> weightMap = weightMap(inside(dir, INDEX, call));
    Map<String, Tensor> all = new LinkedHashMap<>();
    for (String shard : new LinkedHashSet<>(weightMap.values())) {
      Map<String, Tensor> tensors = SafetensorsFile.read(inside(dir, shard, call), arena);
      for (Tensor t : tensors.values()) {
        String named = weightMap.get(t.name());
        if (!shard.equals(named)) {
          throw new IllegalArgumentException(
              call
                  + ": "
                  + INDEX
                  + " puts tensor "
                  + t.name()
                  + " in "
                  + named
                  + ", but shard "
                  + shard
                  + " holds it; the index and the shards disagree");
        }
        all.put(t.name(), t);
      }
    }
    for (Map.Entry<String, String> e : weightMap.entrySet()) {
      if (!all.containsKey(e.getKey())) {
        throw new IllegalArgumentException(
            call
                + ": "
                + INDEX
                + " puts tensor "
                + e.getKey()
                + " in "
                + e.getValue()
                + ", which does not hold it");
      }
    }
    return all;
  }

  private static Map<String, String> weightMap(Path index) throws IOException {
    String where = index.toString();
    JsonElement map;
    try {
      JsonElement root = JsonParser.parseString(Files.readString(index, StandardCharsets.UTF_8));
      map = root.isJsonObject() ? root.getAsJsonObject().get("weight_map") : null;
    } catch (JsonParseException e) {
      throw new IllegalArgumentException(where + ": not valid JSON: " + e.getMessage(), e);
    }
    if (map == null || !map.isJsonObject()) {
      throw new IllegalArgumentException(
          where + ": no weight_map object (tensor name -> shard file)");
    }
    Map<String, String> weightMap = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> e : ((JsonObject) map).entrySet()) {
      if (!e.getValue().isJsonPrimitive() || !e.getValue().getAsJsonPrimitive().isString()) {
        throw new IllegalArgumentException(
            where + ": weight_map." + e.getKey() + " is " + e.getValue() + ", not a file name");
      }
      weightMap.put(e.getKey(), e.getValue().getAsString());
    }
    return weightMap;
  }

  /**
   * {@return the file {@code name} of directory {@code dir}}, refusing a name that is not a plain
   * file name, and a file that is a link leading out of the directory: a model directory reads
   * nothing beside it.
   */
  static Path inside(Path dir, String name, String call) throws IOException {
    boolean plain =
        !name.isEmpty()
            && !name.equals(".")
            && !name.equals("..")
            && name.indexOf('/') < 0
            && name.indexOf('\\') < 0
            && name.indexOf('\0') < 0
            && !name.contains(":");
    if (!plain) {
      throw new IllegalArgumentException(
          call + ": \"" + name + "\" is not a plain file name inside the model directory");
    }
    Path file = dir.resolve(name);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(call + ": " + file + " is missing or not a regular file");
    }
    Path real = file.toRealPath();
    if (!dir.equals(real.getParent())) {
      throw new IllegalArgumentException(
          call
              + ": "
              + file
              + " is a link to "
              + real
              + ", outside the model directory; copy the file into it");
    }
    return real;
  }
}
