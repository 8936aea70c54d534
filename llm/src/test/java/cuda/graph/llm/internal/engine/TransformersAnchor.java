// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import cuda.graph.llm.internal.checkpoint.DType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A transformers anchor as llm/reference/make_checkpoint.py writes it: a model directory and its
 * {@code expected.json}, of which this reads what the check needs: the weights' dtype, the prompts
 * (token ids), and {@code generate(do_sample=False)}'s tokens and top-two logit gaps of every step,
 * for the left-padded batch and for each prompt alone. {@link #write} writes the same keys, for the
 * check's own tests on the simulator.
 *
 * @param directory the model directory
 * @param dtype the weights' dtype
 * @param prompts the prompts' token ids
 * @param batch the batch's generation, one per prompt
 * @param alone each prompt's generation alone
 * @param versions what made it (torch, transformers, device), as expected.json records it
 */
record TransformersAnchor(
    Path directory,
    DType dtype,
    List<int[]> prompts,
    List<Generated> batch,
    List<Generated> alone,
    String versions) {

  /** The file in the model directory. */
  static final String EXPECTED = "expected.json";

  /**
   * One prompt's greedy generation.
   *
   * @param tokens the generated tokens
   * @param gaps per step, the largest logit minus the second largest
   */
  record Generated(int[] tokens, double[] gaps) {}

  /** {@return the tokens generated for each prompt} */
  int newTokens() {
    return batch.getFirst().tokens().length;
  }

  /** {@return the dtype expected.json names: float32, bfloat16 or float16} */
  static DType dtypeOf(String name, String where) {
    return switch (name) {
      case "float32" -> DType.F32;
      case "bfloat16" -> DType.BF16;
      case "float16" -> DType.F16;
      default ->
          throw new IllegalArgumentException(
              where + ": dtype \"" + name + "\"; expected float32, bfloat16 or float16");
    };
  }

  private static String nameOf(DType type) {
    return switch (type) {
      case F32 -> "float32";
      case BF16 -> "bfloat16";
      case F16 -> "float16";
    };
  }

  /**
   * Reads {@code directory/expected.json}.
   *
   * @throws IllegalArgumentException naming the file and the key that is missing or malformed
   * @throws UncheckedIOException when the file cannot be read
   */
  static TransformersAnchor read(Path directory) {
    Path file = directory.resolve(EXPECTED);
    String where = "TransformersAnchor.read(" + file + ")";
    JsonObject o;
    try {
      o = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
    } catch (IOException e) {
      throw new UncheckedIOException(
          where + ": cannot read it (make it with llm/reference/make_checkpoint.py): " + e, e);
    } catch (JsonParseException | IllegalStateException e) {
      throw new IllegalArgumentException(where + ": not a JSON object: " + e, e);
    }
    try {
      DType dtype = dtypeOf(o.get("dtype").getAsString(), where);
      List<int[]> prompts = new ArrayList<>();
      for (JsonElement p : o.getAsJsonArray("prompts")) {
        prompts.add(ints(p.getAsJsonArray()));
      }
      int newTokens = o.get("new_tokens").getAsInt();
      List<Generated> batch = generations(o.getAsJsonObject("batch"), prompts.size(), newTokens);
      List<Generated> alone = generations(o.getAsJsonObject("alone"), prompts.size(), newTokens);
      if (prompts.isEmpty() || newTokens < 1) {
        throw new IllegalArgumentException(
            prompts.size() + " prompts and new_tokens " + newTokens + "; expected at least 1 each");
      }
      JsonElement versions = o.get("versions");
      return new TransformersAnchor(
          directory,
          dtype,
          List.copyOf(prompts),
          batch,
          alone,
          versions == null ? "(no versions)" : versions.toString());
    } catch (RuntimeException e) {
      // A missing key reads as null (NullPointerException), a wrong type as another exception.
      throw new IllegalArgumentException(
          where
              + ": not the expected.json of make_checkpoint.py (dtype, prompts, new_tokens,"
              + " batch and alone with tokens and top_two_gaps of every prompt): "
              + e.getMessage(),
          e);
    }
  }

  private static List<Generated> generations(JsonObject o, int prompts, int newTokens) {
    JsonArray tokens = o.getAsJsonArray("tokens");
    JsonArray gaps = o.getAsJsonArray("top_two_gaps");
    if (tokens.size() != prompts || gaps.size() != prompts) {
      throw new IllegalArgumentException(
          tokens.size()
              + " token lists and "
              + gaps.size()
              + " gap lists for "
              + prompts
              + " prompts");
    }
    List<Generated> out = new ArrayList<>();
    for (int s = 0; s < prompts; s++) {
      int[] t = ints(tokens.get(s).getAsJsonArray());
      JsonArray g = gaps.get(s).getAsJsonArray();
      if (t.length != newTokens || g.size() != newTokens) {
        throw new IllegalArgumentException(
            "prompt "
                + s
                + " has "
                + t.length
                + " tokens and "
                + g.size()
                + " gaps; new_tokens is "
                + newTokens);
      }
      double[] d = new double[newTokens];
      for (int k = 0; k < newTokens; k++) {
        d[k] = g.get(k).getAsDouble();
      }
      out.add(new Generated(t, d));
    }
    return List.copyOf(out);
  }

  private static int[] ints(JsonArray a) {
    int[] out = new int[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).getAsInt();
    }
    return out;
  }

  /**
   * Writes {@code expected.json} into {@code directory} with make_checkpoint.py's keys (those
   * {@link #read} reads), for the check's tests: an anchor whose expectations come from elsewhere
   * than transformers.
   */
  static void write(
      Path directory,
      DType dtype,
      List<int[]> prompts,
      List<Generated> batch,
      List<Generated> alone,
      String madeBy) {
    Map<String, Object> expected =
        Map.of(
            "dtype", nameOf(dtype),
            "new_tokens", batch.getFirst().tokens().length,
            "prompts", prompts,
            "batch", part(batch),
            "alone", part(alone),
            "versions", Map.of("made_by", madeBy));
    Gson gson = new GsonBuilder().serializeSpecialFloatingPointValues().create();
    try {
      Files.writeString(directory.resolve(EXPECTED), gson.toJson(expected), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Object> part(List<Generated> g) {
    return Map.of(
        "tokens", g.stream().map(Generated::tokens).toList(),
        "top_two_gaps", g.stream().map(Generated::gaps).toList());
  }
}
