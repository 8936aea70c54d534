// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.llm.ReferenceScripts;
import org.junit.jupiter.api.Test;

/**
 * LlmBench's transformers anchor (reference/llm_torch.py, run by the lead on the GPU host, where
 * PyTorch is) is held here to what runs without PyTorch: its pure parts (the bytes a step reads,
 * the prompts, a round's figures, the line in LlmBench's keys, the per-configuration limit) and
 * that the script compiles. Where python3 is missing the test is skipped with the reason, and in CI
 * ({@code CI=true}) it fails.
 */
class LlmTorchScriptTests {

  @Test
  void theAnchorsPurePartsPassTheirTestsAndTheScriptCompiles() {
    String output = ReferenceScripts.unitTests("test_llm_torch", "llm_torch.py is untested");
    assertTrue(output.contains("test_llm_torch_compiles"), output);
  }
}
