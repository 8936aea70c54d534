// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.KernelArguments;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the writers of {@link DriverStructs} put where: every field they write, by its C name, and
 * zero everywhere else (the driver reads unused fields and reserved bytes as "none").
 */
class DriverStructsTests {

  @Test
  void aKernelNodeNamesItsFunctionShapeAndArgumentsAndNothingElse() {
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments arguments = KernelArguments.allocate(arena, 8, 4);
      MemorySegment params = Scratch.get().zeroedStruct();
      DriverStructs.writeKernelNodeParams(
          params, 0xF00DL, new Dim3(3, 4, 5), new Dim3(128, 2, 1), 96, arguments.pointerArray());
      assertWritten(
          params,
          DriverStructs.KERNEL_NODE_PARAMS,
          Map.of(
              "func", 0xF00DL,
              "gridDimX", 3L,
              "gridDimY", 4L,
              "gridDimZ", 5L,
              "blockDimX", 128L,
              "blockDimY", 2L,
              "blockDimZ", 1L,
              "sharedMemBytes", 96L,
              "kernelParams", arguments.pointerArray().address()));
    }
  }

  @Test
  void aHostToDeviceCopyIsOneRowOfOneSlice() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(4096);
      MemorySegment params = Scratch.get().zeroedStruct();
      DriverStructs.writeMemcpy1D(
          params, new CopyEndpoint.Device(0x7000_0000L), new CopyEndpoint.Host(host), 4096);
      assertWritten(
          params,
          DriverStructs.MEMCPY3D,
          Map.ofEntries(
              Map.entry("srcMemoryType", (long) DriverStructs.MEMORYTYPE_HOST),
              Map.entry("srcHost", host.address()),
              Map.entry("srcPitch", 4096L),
              Map.entry("srcHeight", 1L),
              Map.entry("dstMemoryType", (long) DriverStructs.MEMORYTYPE_DEVICE),
              Map.entry("dstDevice", 0x7000_0000L),
              Map.entry("dstPitch", 4096L),
              Map.entry("dstHeight", 1L),
              Map.entry("WidthInBytes", 4096L),
              Map.entry("Height", 1L),
              Map.entry("Depth", 1L)));
    }
  }

  @Test
  void aDeviceToHostCopyPutsEachEndpointOnItsSide() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(64);
      MemorySegment params = Scratch.get().zeroedStruct();
      DriverStructs.writeMemcpy1D(
          params, new CopyEndpoint.Host(host), new CopyEndpoint.Device(0x1234_5600L), 64);
      assertEquals(DriverStructs.MEMORYTYPE_DEVICE, readInt(params, "srcMemoryType"));
      assertEquals(0x1234_5600L, read(params, DriverStructs.MEMCPY3D, "srcDevice"));
      assertEquals(0L, read(params, DriverStructs.MEMCPY3D, "srcHost"));
      assertEquals(DriverStructs.MEMORYTYPE_HOST, readInt(params, "dstMemoryType"));
      assertEquals(host.address(), read(params, DriverStructs.MEMCPY3D, "dstHost"));
      assertEquals(0L, read(params, DriverStructs.MEMCPY3D, "dstDevice"));
    }
  }

  @Test
  void aFillIsOneRowWhoseValueIsCutToTheElementSize() {
    MemorySegment params = Scratch.get().zeroedStruct();
    DriverStructs.writeMemset1D(params, 0x9000L, 1, 0x1234_56AB, 100);
    assertWritten(
        params,
        DriverStructs.MEMSET_NODE_PARAMS,
        Map.of("dst", 0x9000L, "value", 0xABL, "elementSize", 1L, "width", 100L, "height", 1L));
    DriverStructs.writeMemset1D(params, 0x9000L, 2, 0x1234_56AB, 100);
    assertEquals(0x56AB, params.get(JAVA_INT, offset(DriverStructs.MEMSET_NODE_PARAMS, "value")));
    DriverStructs.writeMemset1D(params, 0x9000L, 4, 0xFEDC_BA98, 100);
    assertEquals(
        0xFEDC_BA98, params.get(JAVA_INT, offset(DriverStructs.MEMSET_NODE_PARAMS, "value")));
  }

  @Test
  void aConditionalNodeHasItsTypeHandleBodiesAndContext() {
    MemorySegment params = Scratch.get().zeroedStruct();
    DriverStructs.writeConditionalNodeParams(params, 0xC0DEL, 1, 1, 0xC7CL);
    assertWritten(
        params,
        DriverStructs.NODE_PARAMS,
        Map.of(
            "type", (long) DriverStructs.NODE_TYPE_CONDITIONAL,
            "conditional.handle", 0xC0DEL,
            "conditional.type", 1L,
            "conditional.size", 1L,
            "conditional.ctx", 0xC7CL));
    // The driver answers through phGraph_out, inside the struct it was given.
    params.set(JAVA_LONG, offset(DriverStructs.NODE_PARAMS, "conditional.phGraph_out"), 0xB0D1L);
    assertEquals(0xB0D1L, DriverStructs.conditionalBodies(params));
  }

  /**
   * Checks that {@code params} holds {@code written} in those fields of {@code layout} (ints and
   * longs alike, read at their own width) and zero in every other byte of the scratch area.
   */
  private static void assertWritten(
      MemorySegment params, GroupLayout layout, Map<String, Long> written) {
    // A heap copy of what the area should hold: heap bytes are unaligned, hence the layouts.
    MemorySegment expected = MemorySegment.ofArray(new byte[(int) params.byteSize()]);
    for (Map.Entry<String, Long> field : written.entrySet()) {
      long at = offset(layout, field.getKey());
      long size = DriverStructs.field(layout, field.getKey()).byteSize();
      if (size == 4) {
        expected.set(JAVA_INT_UNALIGNED, at, field.getValue().intValue());
      } else {
        assertEquals(8, size, field.getKey());
        expected.set(JAVA_LONG_UNALIGNED, at, field.getValue());
      }
    }
    Map<Long, String> differences = new TreeMap<>();
    for (long i = 0; i < params.byteSize(); i++) {
      int actual = params.get(JAVA_BYTE, i) & 0xFF;
      int wanted = expected.get(JAVA_BYTE, i) & 0xFF;
      if (actual != wanted) {
        differences.put(
            i, "0x" + Integer.toHexString(actual) + ", not 0x" + Integer.toHexString(wanted));
      }
    }
    assertEquals(Map.of(), differences, layout.name().orElseThrow() + " byte by byte");
  }

  private static long offset(GroupLayout layout, String field) {
    return DriverStructs.offset(layout, field);
  }

  private static long read(MemorySegment params, GroupLayout layout, String field) {
    return params.get(JAVA_LONG, offset(layout, field));
  }

  private static int readInt(MemorySegment params, String field) {
    return params.get(JAVA_INT, offset(DriverStructs.MEMCPY3D, field));
  }
}
