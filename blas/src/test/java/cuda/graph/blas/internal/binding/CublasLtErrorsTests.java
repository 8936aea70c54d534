// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.blas.BlasException;
import org.junit.jupiter.api.Test;

/** The one error funnel: every failed call names itself, its status and what to do, on one line. */
class CublasLtErrorsTests {

  @Test
  void aFailureNamesTheCallTheStatusItsNumberCublasLtsWordsTheProductAndTheAdvice() {
    BlasException e =
        CublasLtErrors.failure(
            CublasLtEntry.MATMUL,
            CublasLtStatus.NOT_SUPPORTED,
            "CUBLAS_STATUS_NOT_SUPPORTED",
            "the functionality requested is not supported.\n",
            "the column-major product D[8x8] = A[8x8] B[8x8]");

    assertEquals(
        "cublasLtMatmul failed: CUBLAS_STATUS_NOT_SUPPORTED (15), \"the functionality requested"
            + " is not supported\", for the column-major product D[8x8] = A[8x8] B[8x8]. "
            + CublasLtStatus.advice(CublasLtStatus.NOT_SUPPORTED),
        e.getMessage());
    assertEquals("cublasLtMatmul", e.function());
    assertEquals(15, e.status());
    assertEquals("CUBLAS_STATUS_NOT_SUPPORTED", e.statusName());
  }

  @Test
  void aStatusThisModuleDoesNotKnowTakesTheLibrarysNameAndKeepsItsNumber() {
    BlasException named =
        CublasLtErrors.failure(CublasLtEntry.CREATE, 99, "CUBLAS_STATUS_NEWER", null, null);
    BlasException unnamed = CublasLtErrors.failure(CublasLtEntry.CREATE, 99, null, null, null);

    assertTrue(
        named.getMessage().startsWith("cublasLtCreate failed: CUBLAS_STATUS_NEWER (99). "),
        named.getMessage());
    assertEquals("CUBLAS_STATUS_NEWER", named.statusName());
    assertTrue(
        unnamed.getMessage().startsWith("cublasLtCreate failed: cublasStatus 99. A status"),
        unnamed.getMessage());
  }

  @Test
  void everyKnownStatusHasANameAndAdviceAndTheCodesBetweenAreUnknown() {
    int[] known = {0, 1, 3, 7, 8, 11, 13, 14, 15, 16};
    for (int status : known) {
      assertTrue(CublasLtStatus.isKnown(status), "status " + status);
      assertTrue(CublasLtStatus.name(status).startsWith("CUBLAS_STATUS_"), "status " + status);
      assertFalse(CublasLtStatus.advice(status).startsWith("A status this module"), "" + status);
    }
    for (int status : new int[] {2, 4, 5, 6, 9, 10, 12, 17, -1}) {
      assertFalse(CublasLtStatus.isKnown(status), "status " + status);
      assertEquals("cublasStatus " + status, CublasLtStatus.name(status));
    }
    assertEquals("CUBLAS_STATUS_INVALID_VALUE", CublasLtStatus.name(7));
    assertEquals("CUBLAS_STATUS_EXECUTION_FAILED", CublasLtStatus.name(13));
  }
}
