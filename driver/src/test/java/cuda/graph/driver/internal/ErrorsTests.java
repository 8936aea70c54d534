// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a failed call's detail is composed from the driver's own words and the SPI's table. */
class ErrorsTests {

  @Test
  void aKnownCodeIsDescribedByTheDriversString() {
    String detail =
        Errors.detail(
            2, Optional.of("CUDA_ERROR_OUT_OF_MEMORY"), Optional.of("out of memory"), null);
    assertEquals("out of memory", detail);
    assertEquals(
        "cuMemAlloc_v2 returned CUDA_ERROR_OUT_OF_MEMORY (2): out of memory",
        new CudaDriverException(2, DriverCall.MEM_ALLOC, detail).getMessage());
  }

  @Test
  void aCodeNewerThanTheTableGetsTheDriversNameToo() {
    String detail =
        Errors.detail(
            226, Optional.of("CUDA_ERROR_CONTAINED"), Optional.of("container error"), null);
    assertEquals("CUDA_ERROR_CONTAINED: container error", detail);
  }

  @Test
  void withoutTheDriversWordsTheTableDescribesTheCode() {
    assertEquals(
        "invalid resource handle", Errors.detail(400, Optional.empty(), Optional.empty(), null));
    assertNull(Errors.detail(12345, Optional.empty(), Optional.empty(), null));
  }

  @Test
  void extraDetailFollowsTheDescription() {
    assertEquals(
        "named symbol not found; kernel \"nope\"",
        Errors.detail(
            500, Optional.empty(), Optional.of("named symbol not found"), "kernel \"nope\""));
    assertEquals("JIT log", Errors.detail(12345, Optional.empty(), Optional.empty(), "JIT log"));
  }
}
