// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * The reference scripts' runner where the interpreter cannot start: a developer's build skips with
 * the reason, CI's fails naming what to do, so that a CI machine without python3 cannot pass while
 * the scripts go untested.
 */
class ReferenceScriptsTests {

  private static final String MISSING = "python3-that-is-not-installed";

  @Test
  void withoutAnInterpreterADevelopersBuildSkipsNamingWhatGoesUntested() {
    TestAbortedException e =
        assertThrows(
            TestAbortedException.class,
            () ->
                ReferenceScripts.unitTests(
                    MISSING, "test_llm_torch", "the plan is untested", false));
    assertTrue(e.getMessage().contains(MISSING + " cannot run here"), e.getMessage());
    assertTrue(e.getMessage().contains("the plan is untested"), e.getMessage());
  }

  @Test
  void withoutAnInterpreterCiFailsAndSaysToGiveItAPython() {
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () ->
                ReferenceScripts.unitTests(
                    MISSING, "test_llm_torch", "the plan is untested", true));
    assertTrue(e.getMessage().contains("CI=true: give CI a python3"), e.getMessage());
    assertTrue(e.getMessage().contains("the plan is untested"), e.getMessage());
  }
}
