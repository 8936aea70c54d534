// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.nccl.NcclUnavailableException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A load is attempted once; its failure is given to every caller afresh, its library shared. */
class LoadOutcomeTests {

  @Test
  void aFailedLoadIsRememberedAndRethrownAsANewExceptionWithTheSameMessageAndCause() {
    AtomicInteger attempts = new AtomicInteger();
    IllegalArgumentException underneath = new IllegalArgumentException("dlopen said no");
    LoadOutcome outcome =
        LoadOutcome.of(
            () -> {
              attempts.incrementAndGet();
              throw new NcclUnavailableException("cannot load NCCL: reasons", underneath);
            });
    NcclUnavailableException first = assertThrows(NcclUnavailableException.class, outcome::get);
    NcclUnavailableException second = assertThrows(NcclUnavailableException.class, outcome::get);
    assertNotSame(first, second);
    assertEquals("cannot load NCCL: reasons", first.getMessage());
    assertEquals(first.getMessage(), second.getMessage());
    assertSame(underneath, second.getCause());
    assertEquals(1, attempts.get());
  }

  @Test
  void aSuccessfulLoadGivesEveryCallerTheSameLibrary() {
    try (FakeNccl fake = FakeNccl.recording()) {
      AtomicInteger attempts = new AtomicInteger();
      LoadOutcome outcome =
          LoadOutcome.of(
              () -> {
                attempts.incrementAndGet();
                return fake.bind();
              });
      assertSame(outcome.get(), outcome.get());
      assertEquals(1, attempts.get());
    }
  }
}
