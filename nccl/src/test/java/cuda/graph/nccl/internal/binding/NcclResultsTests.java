// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The names of the {@code ncclResult_t} codes, as nccl.h spells them, and what to do about each.
 */
class NcclResultsTests {

  @Test
  void everyCodeOfNcclHIsNamedAsTheHeaderSpellsIt() {
    List<String> names =
        List.of(
            "ncclSuccess",
            "ncclUnhandledCudaError",
            "ncclSystemError",
            "ncclInternalError",
            "ncclInvalidArgument",
            "ncclInvalidUsage",
            "ncclRemoteError",
            "ncclInProgress");
    for (int code = 0; code < names.size(); code++) {
      assertEquals(names.get(code), NcclResults.name(code));
      assertTrue(NcclResults.isKnown(code));
    }
    assertEquals(7, NcclResults.IN_PROGRESS);
  }

  @Test
  void anUnknownCodeIsNamedByItsNumber() {
    assertEquals("ncclResult 42", NcclResults.name(42));
    assertEquals("ncclResult -1", NcclResults.name(-1));
    assertFalse(NcclResults.isKnown(8));
  }

  @Test
  void everyCodeHasItsOwnSentenceOnWhatToDo() {
    Set<String> seen = new HashSet<>();
    for (int code = 0; code <= 8; code++) {
      String advice = NcclResults.advice(code);
      assertTrue(Character.isUpperCase(advice.charAt(0)) && advice.endsWith("."), advice);
      assertTrue(seen.add(advice), "advice repeated: " + advice);
    }
    assertTrue(NcclResults.advice(5).contains("same collectives in the same order"));
    assertTrue(NcclResults.advice(1).contains("NCCL_DEBUG=WARN"));
    assertTrue(NcclResults.advice(3).contains("NCCL_DEBUG=INFO"));
    assertTrue(NcclResults.advice(6).contains("Another rank failed or went away"));
  }
}
