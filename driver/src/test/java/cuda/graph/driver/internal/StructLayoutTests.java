// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Java layouts of {@link DriverStructs} against what the C compiler makes of {@code cuda.h}:
 * {@code struct_layouts.txt}, printed by {@code src/test/c/struct_layouts.c} (regenerate it with
 * {@code src/test/c/regenerate.sh}). Every struct, and every field of each, must be in both, with
 * the same offset and size.
 */
class StructLayoutTests {

  /** A field's offset and size in bytes; a struct's own entry has offset 0 and its size. */
  record Extent(long offset, long size) {}

  private static final String WHOLE = "-";

  @Test
  void everyLayoutHasTheCCompilersSizeAndOffsets() {
    Map<String, Map<String, Extent>> expected = table();
    Map<String, StructLayout> java =
        DriverStructs.ALL.stream()
            .collect(
                Collectors.toMap(
                    layout -> layout.name().orElseThrow(),
                    layout -> layout,
                    (a, b) -> a,
                    LinkedHashMap::new));
    assertEquals(expected.keySet(), java.keySet(), "the structs laid out");
    for (Map.Entry<String, Map<String, Extent>> struct : expected.entrySet()) {
      String name = struct.getKey();
      StructLayout layout = java.get(name);
      Map<String, Extent> fields = new TreeMap<>(struct.getValue());
      assertEquals(fields.remove(WHOLE), new Extent(0, layout.byteSize()), name + " size");
      assertEquals(fields, javaFields(layout), name + ": offset and size of each field");
    }
  }

  @Test
  void theOffsetsTheWritersUseAreTheTablesToo() {
    Map<String, Map<String, Extent>> expected = table();
    for (StructLayout layout : DriverStructs.ALL) {
      String name = layout.name().orElseThrow();
      for (Map.Entry<String, Extent> field : expected.get(name).entrySet()) {
        if (!field.getKey().equals(WHOLE)) {
          assertEquals(
              field.getValue(),
              new Extent(
                  DriverStructs.offset(layout, field.getKey()),
                  DriverStructs.field(layout, field.getKey()).byteSize()),
              name + "." + field.getKey());
        }
      }
    }
  }

  @Test
  void theScratchStructAreaHoldsTheLargestStruct() {
    assertEquals(256, DriverStructs.LARGEST, "CUgraphNodeParams");
    assertEquals(DriverStructs.LARGEST, Scratch.STRUCT_BYTES);
    assertEquals(Scratch.STRUCT_BYTES, Scratch.get().zeroedStruct().byteSize());
    assertEquals(0, Scratch.get().zeroedStruct().address() % 16, "aligned like malloc");
  }

  @Test
  void anUnknownFieldIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> DriverStructs.offset(DriverStructs.NODE_PARAMS, "conditional.nothing"));
    assertThrows(
        IllegalArgumentException.class,
        () -> DriverStructs.offset(DriverStructs.NODE_PARAMS, "type.handle"));
  }

  /**
   * The named fields of a layout, as C names them: a named member struct's fields with a dot after
   * its name, the members of an unnamed union or struct as if they were the enclosing struct's.
   */
  private static Map<String, Extent> javaFields(GroupLayout layout) {
    Map<String, Extent> fields = new TreeMap<>();
    collect(layout, "", 0, fields);
    return fields;
  }

  private static void collect(
      GroupLayout group, String prefix, long base, Map<String, Extent> fields) {
    long offset = 0;
    for (MemoryLayout member : group.memberLayouts()) {
      long at = base + (group instanceof StructLayout ? offset : 0);
      if (member.name().isPresent()) {
        String name = prefix + member.name().get();
        fields.put(name, new Extent(at, member.byteSize()));
        if (member instanceof GroupLayout inner) {
          collect(inner, name + ".", at, fields);
        }
      } else if (member instanceof GroupLayout anonymous) {
        collect(anonymous, prefix, at, fields);
      } else {
        assertTrue(member instanceof PaddingLayout, "an unnamed field in " + group);
      }
      offset += member.byteSize();
    }
  }

  /** {@return the table: struct, then field (or {@value #WHOLE}), to offset and size} */
  private static Map<String, Map<String, Extent>> table() {
    String text;
    try (InputStream in = StructLayoutTests.class.getResourceAsStream("struct_layouts.txt")) {
      assertNotNull(in, "struct_layouts.txt is missing beside the tests");
      text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Map<String, Extent>> table = new LinkedHashMap<>();
    for (String line : text.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] columns = line.trim().split("\\s+");
      assertEquals(4, columns.length, "struct field offset size: " + line);
      table
          .computeIfAbsent(columns[0], struct -> new TreeMap<>())
          .put(columns[1], new Extent(Long.parseLong(columns[2]), Long.parseLong(columns[3])));
    }
    assertFalse(table.isEmpty(), "an empty table");
    return table;
  }
}
