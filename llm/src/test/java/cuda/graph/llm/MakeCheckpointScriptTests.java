// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The transformers anchor (reference/make_checkpoint.py, run by the lead on the GPU host, where
 * PyTorch is) is held here to what runs without PyTorch: its plan (reference/checkpoint_plan.py:
 * the configs, the prompts, left padding, the top-two gap) and that the script compiles. The tests
 * need the standard library only; where python3 is missing they are skipped with the reason, and in
 * CI ({@code CI=true}) they fail.
 */
class MakeCheckpointScriptTests {

  @Test
  void theCheckpointPlanPassesItsTestsAndTheScriptCompiles() {
    String output = ReferenceScripts.unitTests("test_checkpoint_plan", "the plan is untested");
    assertTrue(output.contains("test_make_checkpoint_compiles"), output);
  }
}
