// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.blas.BlasException;
import cuda.graph.blas.BlasUnavailableException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Binding a library: its version and symbols are checked, and its failures named, on a fake. */
class CublasLtLibraryTests {

  private final FakeCublasLt fake = new FakeCublasLt();

  @AfterEach
  void close() {
    fake.close();
  }

  @Test
  void aLibraryOlderThanTwelveIsRefusedNamingItsVersionAndWhatToDo() {
    fake.version(11801);

    BlasUnavailableException e = assertThrows(BlasUnavailableException.class, fake::bind);

    assertEquals(
        FakeCublasLt.NAME
            + " is cuBLASLt 11.8.1, and this module needs cuBLASLt 12.0.0 or later (CUDA 12 or 13);"
            + " "
            + CublasLtLoader.WHERE_TO_GET_IT
            + "; put its directory on LD_LIBRARY_PATH, or run java with"
            + " -Dcuda.graph.blas.library=/path/to/libcublasLt.so.13",
        e.getMessage());
    assertEquals("cublasLtGetVersion", step(e).function());
  }

  @Test
  void theVersionIsReadWhenTheLibraryBinds() {
    CublasLtLibrary lt = fake.version(120205).bind();

    assertEquals(120205, lt.version());
    assertEquals("12.2.5", lt.versionString());
    assertEquals("13.1.0", CublasLtLibrary.versionString(130100));
  }

  @Test
  void aMissingEntryPointIsRefusedByName() {
    fake.without("cublasLtMatmulAlgoGetHeuristic");

    BlasUnavailableException e = assertThrows(BlasUnavailableException.class, fake::bind);

    assertTrue(
        e.getMessage()
            .startsWith(FakeCublasLt.NAME + " has no symbol cublasLtMatmulAlgoGetHeuristic: it is"),
        e.getMessage());
  }

  @Test
  void withoutTheStatusTextsALibraryStillBindsAndItsFailuresStillNameTheStatus() {
    fake.without("cublasLtGetStatusName").without("cublasLtGetStatusString");
    CublasLtLibrary lt = fake.bind();
    fake.returning(CublasLtEntry.CREATE, CublasLtStatus.NOT_INITIALIZED);

    BlasException e = assertThrows(BlasException.class, lt::create);

    assertNull(lt.statusString(1));
    assertTrue(
        e.getMessage().startsWith("cublasLtCreate failed: CUBLAS_STATUS_NOT_INITIALIZED (1). "),
        e.getMessage());
  }

  @Test
  void aFailedCallCarriesCublasLtsDescriptionAndWhatItWasFor() {
    CublasLtLibrary lt = fake.bind();
    fake.returning(CublasLtEntry.MATRIX_LAYOUT_CREATE, CublasLtStatus.INVALID_VALUE);

    BlasException e =
        assertThrows(
            BlasException.class, () -> lt.matrixLayoutCreate(0, 4, 4, 2, "a product, layout of A"));

    assertTrue(
        e.getMessage()
            .startsWith(
                "cublasLtMatrixLayoutCreate failed: CUBLAS_STATUS_INVALID_VALUE (7), \"fake"
                    + " description of 7\", for a product, layout of A. "),
        e.getMessage());
  }

  @Test
  void anAttributeIsPassedAsTheSizeOfItsCType() {
    CublasLtLibrary lt = fake.bind();

    lt.setAttribute(CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE, 0x42, 7, 36, 4, null);
    lt.setAttribute(CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE, 0x43, 6, 1L << 40, 8, null);

    assertEquals(
        List.of(0x42L, 7, 36L, 4L),
        fake.calls(CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE).getFirst().arguments());
    assertEquals(
        List.of(0x43L, 6, 1L << 40, 8L),
        fake.calls(CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE).getFirst().arguments());
    assertThrows(
        IllegalArgumentException.class,
        () -> lt.setAttribute(CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE, 0x42, 7, 1, 2, null));
  }

  /** {@return the step that failed, which the unavailability names as its cause} */
  private static BlasException step(BlasUnavailableException e) {
    return assertInstanceOf(BlasException.class, e.getCause());
  }
}
