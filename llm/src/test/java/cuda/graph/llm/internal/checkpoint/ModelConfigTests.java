// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ModelConfigTests {

  /** Llama-3.2-1B's config.json, as published. */
  static final String LLAMA_32_1B =
      """
      {
        "architectures": ["LlamaForCausalLM"],
        "attention_bias": false,
        "attention_dropout": 0.0,
        "bos_token_id": 128000,
        "eos_token_id": 128001,
        "head_dim": 64,
        "hidden_act": "silu",
        "hidden_size": 2048,
        "initializer_range": 0.02,
        "intermediate_size": 8192,
        "max_position_embeddings": 131072,
        "mlp_bias": false,
        "model_type": "llama",
        "num_attention_heads": 32,
        "num_hidden_layers": 16,
        "num_key_value_heads": 8,
        "pretraining_tp": 1,
        "rms_norm_eps": 1e-05,
        "rope_scaling": {
          "factor": 32.0,
          "high_freq_factor": 4.0,
          "low_freq_factor": 1.0,
          "original_max_position_embeddings": 8192,
          "rope_type": "llama3"
        },
        "rope_theta": 500000.0,
        "tie_word_embeddings": true,
        "torch_dtype": "bfloat16",
        "transformers_version": "4.45.0.dev0",
        "use_cache": true,
        "vocab_size": 128256
      }
      """;

  /** TinyLlama-1.1B-Chat's, abridged: no head_dim, no rope_scaling, an untied head. */
  static final String TINY_LLAMA =
      """
      {"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2,
       "hidden_act": "silu", "hidden_size": 2048, "intermediate_size": 5632,
       "max_position_embeddings": 2048, "model_type": "llama", "num_attention_heads": 32,
       "num_hidden_layers": 22, "num_key_value_heads": 4, "rms_norm_eps": 1e-05,
       "rope_scaling": null, "rope_theta": 10000.0, "tie_word_embeddings": false,
       "torch_dtype": "bfloat16", "vocab_size": 32000}
      """;

  @Test
  void llama32OneBillionReadsWithItsRopeScalingAndTiedEmbeddings() {
    ModelConfig c = ModelConfig.parse(LLAMA_32_1B, "config.json");

    assertEquals(2048, c.hiddenSize());
    assertEquals(8192, c.intermediateSize());
    assertEquals(16, c.numHiddenLayers());
    assertEquals(32, c.numAttentionHeads());
    assertEquals(8, c.numKeyValueHeads());
    assertEquals(64, c.headDim());
    assertEquals(128256, c.vocabSize());
    assertEquals(1e-5, c.rmsNormEps());
    assertEquals(500000.0, c.ropeTheta());
    assertEquals(new ModelConfig.RopeScaling(32.0, 1.0, 4.0, 8192), c.ropeScaling());
    assertEquals(131072, c.maxPositionEmbeddings());
    assertTrue(c.tieWordEmbeddings());
    assertEquals("bfloat16", c.torchDtype());
    assertEquals(128000, c.bosTokenId());
    assertEquals(List.of(128001), c.eosTokenIds());
  }

  @Test
  void tinyLlamaDerivesTheHeadWidthAndHasNoScaling() {
    ModelConfig c = ModelConfig.parse(TINY_LLAMA, "config.json");

    assertEquals(64, c.headDim());
    assertNull(c.ropeScaling());
    assertEquals(4, c.numKeyValueHeads());
    assertEquals(false, c.tieWordEmbeddings());
    assertEquals(2048, c.qDim());
    assertEquals(256, c.kvDim());
  }

  @Test
  void keyValueHeadsDefaultToTheQueryHeadsAndEosMayBeAList() {
    String json =
        TINY_LLAMA
            .replace("\"num_key_value_heads\": 4,", "")
            .replace("\"eos_token_id\": 2", "\"eos_token_id\": [2, 7]");

    ModelConfig c = ModelConfig.parse(json, "config.json");

    assertEquals(32, c.numKeyValueHeads());
    assertEquals(List.of(2, 7), c.eosTokenIds());
  }

  @Test
  void transformersFiveRopeParametersCarryTheThetaAndTheScaling() {
    String json =
        TINY_LLAMA
            .replace("\"rope_scaling\": null, \"rope_theta\": 10000.0,", "")
            .replace(
                "\"vocab_size\"",
                "\"rope_parameters\": {\"rope_type\": \"llama3\", \"rope_theta\": 500000.0,"
                    + " \"factor\": 32.0, \"low_freq_factor\": 1.0, \"high_freq_factor\": 4.0,"
                    + " \"original_max_position_embeddings\": 8192}, \"vocab_size\"");

    ModelConfig c = ModelConfig.parse(json, "config.json");

    assertEquals(500000.0, c.ropeTheta());
    assertEquals(new ModelConfig.RopeScaling(32.0, 1.0, 4.0, 8192), c.ropeScaling());
  }

  @Test
  void anotherArchitectureIsRefusedNamingTheFileTheKeyTheValueAndWhatIsSupported() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ModelConfig.parse(
                    LLAMA_32_1B.replace("LlamaForCausalLM", "MistralForCausalLM"),
                    "/models/m/config.json"));

    assertEquals(
        "/models/m/config.json: architectures is [\"MistralForCausalLM\"]; supported:"
            + " [\"LlamaForCausalLM\"] (this module serves Llama-architecture checkpoints)",
        e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"linear", "dynamic", "yarn", "longrope"})
  void otherRopeScalingsAreRefusedByName(String type) {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ModelConfig.parse(
                    LLAMA_32_1B.replace(
                        "\"rope_type\": \"llama3\"", "\"rope_type\": \"" + type + "\""),
                    "config.json"));

    assertTrue(
        e.getMessage().contains("rope_scaling.rope_type is \"" + type + "\""), e.getMessage());
    assertTrue(e.getMessage().contains("supported: \"llama3\""), e.getMessage());
  }

  @Test
  void theOldTypeKeyOfRopeScalingIsRead() {
    ModelConfig c =
        ModelConfig.parse(LLAMA_32_1B.replace("\"rope_type\"", "\"type\""), "config.json");

    assertEquals(32.0, c.ropeScaling().factor());
  }

  @Test
  void unsupportedFeaturesAreRefusedByKeyAndValue() {
    assertRefused(
        LLAMA_32_1B.replace("\"silu\"", "\"gelu\""), "hidden_act is \"gelu\"; supported: \"silu\"");
    assertRefused(
        LLAMA_32_1B.replace("\"attention_bias\": false", "\"attention_bias\": true"),
        "attention_bias is true; supported: false");
    assertRefused(
        LLAMA_32_1B.replace("\"mlp_bias\": false", "\"mlp_bias\": true"),
        "mlp_bias is true; supported: false");
    assertRefused(
        LLAMA_32_1B.replace("\"model_type\": \"llama\"", "\"model_type\": \"mistral\""),
        "model_type is \"mistral\"; supported: \"llama\"");
    assertRefused(
        LLAMA_32_1B.replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 5"),
        "num_key_value_heads 5 does not divide num_attention_heads 32");
    assertRefused(
        LLAMA_32_1B.replace("\"hidden_size\": 2048", "\"hidden_size\": 20.5"),
        "hidden_size is 20.5; supported: an integer");
    assertRefused(
        LLAMA_32_1B.replace("\"vocab_size\": 128256", "\"vocab_size\": 0"),
        "vocab_size is 0; supported: a positive integer");
    assertRefused(
        LLAMA_32_1B.replace("\"eos_token_id\": 128001", "\"eos_token_id\": 200000"),
        "eos_token_id is 200000; supported: a token id below vocab_size 128256");
    assertRefused(
        LLAMA_32_1B.replace("\"low_freq_factor\": 1.0", "\"low_freq_factor\": 4.0"),
        "rope_scaling.high_freq_factor 4.0 is not above low_freq_factor 4.0");
    assertRefused("[1, 2]", "config.json is not a JSON object");
    assertRefused("{", "config.json is not valid JSON");
  }

  private static void assertRefused(String json, String expected) {
    var e = assertThrows(IllegalArgumentException.class, () -> ModelConfig.parse(json, "cfg.json"));
    assertTrue(e.getMessage().startsWith("cfg.json: "), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
