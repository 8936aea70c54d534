// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.ElementType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Element types map to the {@code ncclDataType_t} values of nccl.h; the one NCCL lacks is refused.
 */
class NcclDataTypesTests {

  @Test
  void everyElementTypeButI16MapsToTheNcclTypeOfItsWidthAndKind() {
    Map<ElementType<?>, Integer> expected =
        Map.of(
            ElementType.I8, 0,
            ElementType.I32, 2,
            ElementType.I64, 4,
            ElementType.F16, 6,
            ElementType.F32, 7,
            ElementType.F64, 8,
            ElementType.BF16, 9);
    for (ElementType<?> type : ElementType.values()) {
      if (type != ElementType.I16) {
        assertEquals(expected.get(type), NcclDataTypes.of(type), type.name());
      }
    }
    assertEquals(ElementType.values().size() - 1, expected.size(), "a type is not checked");
  }

  @Test
  void i16IsRefusedWithWhatToUseInstead() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NcclDataTypes.of(ElementType.I16));
    String message = String.valueOf(e.getMessage());
    assertTrue(message.startsWith("NCCL has no 16-bit integer type"), message);
    assertTrue(message.contains("widen it to i32"), message);
    assertTrue(message.contains("as f16 or bf16; never reduce them"), message);
  }
}
