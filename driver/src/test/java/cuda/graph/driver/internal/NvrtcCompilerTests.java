// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.spi.RuntimeCompiler;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * NVRTC needs no GPU, only the CUDA toolkit's library, which GPU hosts have and the CI machine does
 * not: tagged {@code gpu} so they run there, and skip with the search result where NVRTC does not
 * load.
 */
@Tag("gpu")
class NvrtcCompilerTests {

  private static final String SAXPY =
      """
      extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];
      }
      """;

  private RuntimeCompiler nvrtc;

  @BeforeEach
  void findNvrtc() {
    var found = new FfmCudaDriver().runtimeCompiler();
    assumeTrue(found.isPresent(), NvrtcCompiler.searchResult());
    nvrtc = found.get();
  }

  @Test
  void compilesToPtxWithTheKernelUnmangled() {
    String ptx = nvrtc.compileToPtx(SAXPY, "saxpy.cu", List.of("--gpu-architecture=compute_90"));
    assertTrue(ptx.contains(".entry saxpy"), ptx);
    assertTrue(ptx.contains(".target sm_90"), ptx);
    assertFalse(ptx.endsWith("\0"), "no trailing NUL");
  }

  @Test
  void aCompileErrorCarriesTheProgramLog() {
    RuntimeCompilationException failure =
        assertThrows(
            RuntimeCompilationException.class,
            () ->
                nvrtc.compileToPtx(
                    "extern \"C\" __global__ void k() { undefined_thing(); }",
                    "broken.cu",
                    List.of("--gpu-architecture=compute_90")));
    assertEquals(6, failure.nvrtcResult());
    assertEquals("NVRTC_ERROR_COMPILATION", failure.resultName());
    assertTrue(failure.log().contains("undefined_thing"), failure.log());
    assertTrue(failure.log().contains("broken.cu"), failure.log());
    assertTrue(failure.getMessage().contains("broken.cu"), failure.getMessage());
  }

  @Test
  void anUnknownOptionIsInvalidOption() {
    RuntimeCompilationException failure =
        assertThrows(
            RuntimeCompilationException.class,
            () -> nvrtc.compileToPtx(SAXPY, "saxpy.cu", List.of("--no-such-option")));
    assertEquals(5, failure.nvrtcResult());
    assertEquals("NVRTC_ERROR_INVALID_OPTION", failure.resultName());
  }

  @Test
  void reportsItsVersion() {
    assertTrue(nvrtc.version().matches("\\d+\\.\\d+"), nvrtc.version());
  }
}
