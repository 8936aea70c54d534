// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CheckpointTests {

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(DType.class)
  void eachDtypeReadsBackTheWeightsRoundedAsTorchRoundsThem(DType dtype) {
    TinyCheckpoints.Spec spec = TinyCheckpoints.Spec.tiny(7).withDtype(dtype);
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), spec);
    float[] written = TinyCheckpoints.weights(spec).get("model.layers.1.mlp.down_proj.weight");

    try (Checkpoint c = Checkpoint.open(dir)) {
      Tensor t = c.layer(1, "mlp.down_proj.weight");
      float[] read = t.toFloats();

      assertEquals(dtype, t.dtype());
      assertEquals(List.of(32L, 48L), t.shape());
      assertEquals(written.length, read.length);
      for (int i = 0; i < read.length; i++) {
        float expected =
            switch (dtype) {
              case F32 -> written[i];
              case F16 -> Float.float16ToFloat(Float.floatToFloat16(written[i]));
              case BF16 -> Float.intBitsToFloat(TinyCheckpoints.toBf16(written[i]) << 16);
            };
        assertEquals(expected, read[i], "element " + i);
      }
    }
  }

  @Test
  void bf16RoundsToNearestEvenLikeTorch() {
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1. 1 + 3·2^-8 is halfway up to even.
    assertEquals(1.0f, Float.intBitsToFloat(TinyCheckpoints.toBf16(1 + 0x1p-8f) << 16));
    assertEquals(1 + 0x1p-6f, Float.intBitsToFloat(TinyCheckpoints.toBf16(1 + 3 * 0x1p-8f) << 16));
  }

  @Test
  void aShardedCheckpointHoldsTheSameTensorsAsOneFile() {
    TinyCheckpoints.Spec spec = TinyCheckpoints.Spec.tiny(3).withDtype(DType.BF16);
    Path one = TinyCheckpoints.write(tmp.resolve("one"), spec);
    Path sharded = TinyCheckpoints.write(tmp.resolve("sharded"), spec.withShards(3));

    try (Checkpoint a = Checkpoint.open(one);
        Checkpoint b = Checkpoint.open(sharded)) {
      assertTrue(Files.exists(sharded.resolve("model-00003-of-00003.safetensors")));
      assertEquals(a.names(), b.names());
      for (String name : a.names()) {
        assertArrayEquals(a.tensor(name).toFloats(), b.tensor(name).toFloats(), name);
      }
      assertTrue(b.tensor("model.norm.weight").file().endsWith("model-00003-of-00003.safetensors"));
    }
  }

  @Test
  void anUntiedCheckpointHasItsHeadAndATiedOneUsesTheEmbedding() {
    Path untied =
        TinyCheckpoints.write(tmp.resolve("untied"), TinyCheckpoints.Spec.tiny(1).withTied(false));
    Path tied = TinyCheckpoints.write(tmp.resolve("tied"), TinyCheckpoints.Spec.tiny(1));

    try (Checkpoint u = Checkpoint.open(untied);
        Checkpoint t = Checkpoint.open(tied)) {
      assertEquals("lm_head.weight", u.lmHead().name());
      assertEquals("model.embed_tokens.weight", t.lmHead().name());
      assertTrue(!t.names().contains("lm_head.weight"));
    }
  }

  @Test
  void aMissingTensorIsRefusedByName() {
    TinyCheckpoints.Spec spec = TinyCheckpoints.Spec.tiny(1);
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), spec);
    rewrite(dir, spec, Map.of("model.layers.1.self_attn.k_proj.weight", List.of()));

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(
        e.getMessage()
            .contains(
                "the weights lack 1 tensor(s) config.json implies:"
                    + " model.layers.1.self_attn.k_proj.weight"),
        e.getMessage());
  }

  @Test
  void anUnexpectedTensorIsRefusedByNameAndRotaryBuffersAreIgnored() {
    TinyCheckpoints.Spec spec = TinyCheckpoints.Spec.tiny(1);
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), spec);
    rewrite(
        dir,
        spec,
        Map.of(
            "model.layers.0.self_attn.q_proj.bias",
            List.of(32L),
            "model.layers.0.self_attn.rotary_emb.inv_freq",
            List.of(4L)));

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(
        e.getMessage().contains("does not have: model.layers.0.self_attn.q_proj.bias (a bias"),
        e.getMessage());
  }

  @Test
  void aShapeOtherThanTheConfigsIsRefusedWithBoth() {
    TinyCheckpoints.Spec spec = TinyCheckpoints.Spec.tiny(1);
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), spec);
    rewrite(dir, spec, Map.of("model.norm.weight", List.of(31L)));

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(e.getMessage().contains("model.norm.weight F32[31]"), e.getMessage());
    assertTrue(
        e.getMessage().contains("has shape [31] but config.json implies [32]"), e.getMessage());
  }

  @Test
  void anUnsupportedDtypeIsRefusedByName() throws IOException {
    Path dir =
        withRawWeights(
            "{\"model.norm.weight\":{\"dtype\":\"I8\",\"shape\":[4],\"data_offsets\":[0,4]}}", 4);

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(
        e.getMessage()
            .contains(
                "tensor model.norm.weight: dtype \"I8\" is not supported; supported are BF16, F16,"
                    + " F32"),
        e.getMessage());
  }

  @Test
  void corruptHeadersAreRefusedBeforeAByteIsTrusted() throws IOException {
    assertCorrupt(
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}",
        8,
        "outside the 8 bytes of data");
    assertCorrupt(
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,12]}}",
        16,
        "hold 12 bytes, but F32 of shape [4] needs 16");
    assertCorrupt(
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
        16,
        "tensors a and b overlap (bytes 4 to 8)");
    assertCorrupt(
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
        8,
        "names a twice");
    assertCorrupt(
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}",
        4,
        "-1 is not a non-negative integer");
    assertCorrupt(
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}} x",
        4,
        "data after the safetensors header");
    assertCorrupt("[1]", 4, "the safetensors header is not a JSON object");
  }

  @Test
  void aHeaderLengthBeyondTheFileIsRefused() throws IOException {
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(1));
    ByteBuffer b =
        ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 40).putLong(0);
    Files.write(dir.resolve(Checkpoint.WEIGHTS), b.array());

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(
        e.getMessage()
            .contains("not a safetensors file: header length 1099511627776 for a file of 16 bytes"),
        e.getMessage());
  }

  @Test
  void anIndexNamingAFileOutsideTheDirectoryIsRefused() throws IOException {
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(1).withShards(2));
    Path index = dir.resolve(Checkpoint.INDEX);
    String text = Files.readString(index);
    Files.copy(dir.resolve("model-00001-of-00002.safetensors"), tmp.resolve("outside.safetensors"));

    for (String name :
        List.of("../outside.safetensors", tmp.resolve("outside.safetensors").toString(), "..")) {
      Files.writeString(index, text.replace("model-00001-of-00002.safetensors", name));
      var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));
      assertTrue(
          e.getMessage()
              .contains("\"" + name + "\" is not a plain file name inside the model directory"),
          e.getMessage());
    }

    Files.delete(dir.resolve("model-00001-of-00002.safetensors"));
    Files.createSymbolicLink(
        dir.resolve("model-00001-of-00002.safetensors"), tmp.resolve("outside.safetensors"));
    Files.writeString(index, text);
    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));
    assertTrue(e.getMessage().contains("outside the model directory"), e.getMessage());
  }

  @Test
  void anIndexThatDisagreesWithItsShardsIsRefused() throws IOException {
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(1).withShards(2));
    Path index = dir.resolve(Checkpoint.INDEX);
    Files.writeString(
        index,
        Files.readString(index)
            .replace(
                "\"model.norm.weight\": \"model-00002-of-00002",
                "\"model.norm.weight\": \"model-00001-of-00002"));

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(e.getMessage().contains("model.norm.weight"), e.getMessage());
    assertTrue(
        e.getMessage().contains("disagree") || e.getMessage().contains("does not hold it"),
        e.getMessage());
  }

  @Test
  void aDirectoryWithoutWeightsSaysWhichFilesItLooksFor() {
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(1));
    assertTrue(dir.resolve(Checkpoint.WEIGHTS).toFile().delete());

    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir));

    assertTrue(
        e.getMessage()
            .endsWith("no model.safetensors and no model.safetensors.index.json in the directory"),
        e.getMessage());
  }

  @Test
  void aClosedCheckpointsTensorsCannotBeRead() {
    Path dir = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(1));
    Tensor t;
    try (Checkpoint c = Checkpoint.open(dir)) {
      t = c.tensor("model.norm.weight");
    }

    assertThrows(IllegalStateException.class, t::toFloats);
  }

  /** Rewrites the weights with the tensors of {@code changes}: an empty shape removes one. */
  private static void rewrite(
      Path dir, TinyCheckpoints.Spec spec, Map<String, List<Long>> changes) {
    Map<String, float[]> weights = TinyCheckpoints.weights(spec);
    var shapes =
        new java.util.LinkedHashMap<>(
            Checkpoint.expectedShapes(ModelConfig.parse(TinyCheckpoints.configJson(spec), "spec")));
    shapes.putAll(changes);
    var entries = new java.util.ArrayList<TinyCheckpoints.Entry>();
    shapes.forEach(
        (name, shape) -> {
          if (shape.isEmpty()) {
            return;
          }
          long n = shape.stream().reduce(1L, (x, y) -> x * y);
          float[] w = weights.getOrDefault(name, new float[(int) n]);
          entries.add(
              new TinyCheckpoints.Entry(
                  name, spec.dtype(), shape, java.util.Arrays.copyOf(w, (int) n)));
        });
    TinyCheckpoints.writeSafetensors(dir.resolve(Checkpoint.WEIGHTS), entries);
  }

  private Path withRawWeights(String header, int dataBytes) throws IOException {
    Path dir =
        TinyCheckpoints.write(tmp.resolve("raw" + System.nanoTime()), TinyCheckpoints.Spec.tiny(1));
    byte[] json = header.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 + json.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(json.length).put(json);
    Files.write(dir.resolve(Checkpoint.WEIGHTS), b.array());
    return dir;
  }

  private void assertCorrupt(String header, int dataBytes, String expected) throws IOException {
    Path dir = withRawWeights(header, dataBytes);
    var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.open(dir), header);
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertTrue(e.getMessage().contains(Checkpoint.WEIGHTS), e.getMessage());
  }
}
