// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.ModuleImage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The image and JIT options handed to cuModuleLoadDataEx, without a driver. */
class ModuleImagesTests {

  @Test
  void ptxGetsTheTrailingNulTheDriverNeeds() {
    String ptx = ".version 8.0\n.target sm_90\n.address_size 64\n";
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment image = ModuleImages.nativeImage(arena, ModuleImage.ptx(ptx));
      byte[] text = ptx.getBytes(StandardCharsets.UTF_8);
      assertEquals(text.length + 1, image.byteSize());
      assertEquals(0, image.get(ValueLayout.JAVA_BYTE, text.length));
      assertEquals(ptx, image.getString(0));
      assertEquals(0, image.address() % 16, "aligned");
    }
  }

  @Test
  void binaryImagesAreCopiedAsTheyAre() {
    byte[] cubin = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment image =
          ModuleImages.nativeImage(arena, ModuleImage.of(ImageFormat.CUBIN, cubin));
      assertTrue(Arrays.equals(cubin, image.toArray(ValueLayout.JAVA_BYTE)));
    }
  }

  @Test
  void theErrorLogOptionsAreTheParallelArraysTheDriverReads() {
    try (Arena arena = Arena.ofConfined()) {
      ModuleImages.ErrorLog log = ModuleImages.ErrorLog.allocate(arena);
      assertEquals(
          ModuleImages.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
          log.options().getAtIndex(ValueLayout.JAVA_INT, 0));
      assertEquals(ModuleImages.ERROR_LOG_BYTES, log.values().getAtIndex(ValueLayout.JAVA_LONG, 0));
      assertEquals(
          ModuleImages.CU_JIT_ERROR_LOG_BUFFER, log.options().getAtIndex(ValueLayout.JAVA_INT, 1));
      assertEquals(log.buffer().address(), log.values().getAtIndex(ValueLayout.JAVA_LONG, 1));
      assertEquals(8192, log.buffer().byteSize());
      assertEquals("", log.log());
    }
  }

  @Test
  void theLogReadsWhatTheDriverWroteEvenWhenItFillsTheBuffer() {
    try (Arena arena = Arena.ofConfined()) {
      ModuleImages.ErrorLog log = ModuleImages.ErrorLog.allocate(arena);
      log.buffer().setString(0, "ptxas application ptx input, line 4; fatal : Parsing error\n");
      assertEquals("ptxas application ptx input, line 4; fatal : Parsing error", log.log());
      log.buffer().fill((byte) 'x'); // no NUL anywhere
      assertEquals(ModuleImages.ERROR_LOG_BYTES - 1, log.log().length());
    }
  }

  @Test
  void failureDetailsCarryTheLogAndAHintWhereTheCauseIsTheToolchain() {
    assertEquals(
        "JIT log:\nptxas fatal",
        ModuleImages.failureDetail(CuResult.INVALID_PTX, ImageFormat.PTX, "ptxas fatal"));
    String tooNew =
        ModuleImages.failureDetail(CuResult.UNSUPPORTED_PTX_VERSION, ImageFormat.PTX, "");
    assertTrue(tooNew.contains("update the NVIDIA driver"), tooNew);
    assertEquals("", ModuleImages.failureDetail(CuResult.OUT_OF_MEMORY, ImageFormat.PTX, ""));
  }
}
