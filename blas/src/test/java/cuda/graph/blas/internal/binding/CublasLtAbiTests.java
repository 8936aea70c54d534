// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.ElementType;
import java.lang.foreign.MemoryLayout.PathElement;
import org.junit.jupiter.api.Test;

/**
 * The structs' layouts against the sizes their C declarations give (cuBLAS 12 and 13): an algorithm
 * is eight 64-bit words; a heuristic result is the algorithm, a size_t, an int status, a float
 * waves count and four reserved ints, with no padding.
 */
class CublasLtAbiTests {

  @Test
  void anAlgorithmIsSixtyFourBytesAlignedToEight() {
    assertEquals(64, CublasLtAbi.ALGO.byteSize());
    assertEquals(8, CublasLtAbi.ALGO.byteAlignment());
  }

  @Test
  void aHeuristicResultIsNinetySixBytesWithItsFieldsWhereCPutsThem() {
    assertEquals(96, CublasLtAbi.HEURISTIC_RESULT.byteSize());
    assertEquals(0, CublasLtAbi.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("algo")));
    assertEquals(64, CublasLtAbi.RESULT_WORKSPACE_SIZE);
    assertEquals(72, CublasLtAbi.RESULT_STATE);
    assertEquals(76, CublasLtAbi.RESULT_WAVES_COUNT);
    assertEquals(80, CublasLtAbi.HEURISTIC_RESULT.byteOffset(PathElement.groupElement("reserved")));
  }

  @Test
  void theThreeElementTypesMapToTheirCudaDataTypesAndOthersAreRefused() {
    assertEquals(0, CublasLtAbi.dataType(ElementType.F32));
    assertEquals(2, CublasLtAbi.dataType(ElementType.F16));
    assertEquals(14, CublasLtAbi.dataType(ElementType.BF16));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CublasLtAbi.dataType(ElementType.I8));
    assertEquals(
        "the cuBLASLt backend multiplies f32, f16 and bf16 matrices, not i8", e.getMessage());
  }

  @Test
  void everyEntryPointIsDescribedOnceWithTheRightNumberOfParameters() {
    assertEquals(1, CublasLtEntry.CREATE.descriptor().argumentLayouts().size());
    assertEquals(0, CublasLtEntry.GET_VERSION.descriptor().argumentLayouts().size());
    assertEquals(10, CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC.descriptor().argumentLayouts().size());
    assertEquals(16, CublasLtEntry.MATMUL.descriptor().argumentLayouts().size());
    assertEquals(
        CublasLtEntry.values().length,
        java.util.Arrays.stream(CublasLtEntry.values())
            .map(CublasLtEntry::symbol)
            .distinct()
            .count());
  }
}
