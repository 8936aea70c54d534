// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.ModuleImage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Module images and functions: spec §6.1 and the simulator's image validation rules. */
@Timeout(20)
class ModuleTests {

  private static final byte[] ELF = {0x7F, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  private static final byte[] FATBIN = {0x50, (byte) 0xED, 0x55, (byte) 0xBA, 1, 0, 0x10, 0};

  @AutoClose final SimFixture f = SimFixture.start();

  private static String ptxWithHeader(String header) {
    return header + ".visible .entry k(.param .u64 p)\n{\n ret;\n}\n";
  }

  @Test
  void ptxEntriesAndJavaKernelsAreTheModulesFunctions() {
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.ptx(SimFixture.ptx("first", "second")).withJavaKernel("javaOnly", l -> {}));
    CuFunction first = f.driver.moduleGetFunction(m, "first");
    CuFunction second = f.driver.moduleGetFunction(m, "second");
    assertNotEquals(first, second);
    assertDoesNotThrow(() -> f.driver.moduleGetFunction(m, "javaOnly"));
  }

  @Test
  void moduleGetFunctionOfAnUnknownNameReturnsNotFound() {
    CuModule m = f.driver.moduleLoadData(ModuleImage.ptx(SimFixture.ptx("k")));
    assertStatus(500, () -> f.driver.moduleGetFunction(m, "missing"));
  }

  @Test
  void entryWithoutVisibleIsAFunctionButADeviceFuncIsNot() {
    String text =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".func helper()\n{\n ret;\n}\n"
            + ".entry plain()\n{\n ret;\n}\n";
    CuModule m = f.driver.moduleLoadData(ModuleImage.ptx(text));
    assertDoesNotThrow(() -> f.driver.moduleGetFunction(m, "plain"));
    assertStatus(500, () -> f.driver.moduleGetFunction(m, "helper"));
  }

  @Test
  void ptxWithoutVersionDirectiveReturnsInvalidPtx() {
    assertStatus(
        218,
        () ->
            f.driver.moduleLoadData(
                ModuleImage.ptx(ptxWithHeader(".target sm_90\n.address_size 64\n"))));
  }

  @Test
  void ptxWithoutTargetDirectiveReturnsInvalidPtx() {
    assertStatus(
        218,
        () ->
            f.driver.moduleLoadData(
                ModuleImage.ptx(ptxWithHeader(".version 8.0\n.address_size 64\n"))));
  }

  @Test
  void textThatIsNotPtxReturnsInvalidPtx() {
    assertStatus(218, () -> f.driver.moduleLoadData(ModuleImage.ptx("this is not ptx")));
  }

  @Test
  void ptxVersionWithMajorAboveNineReturnsUnsupportedPtxVersion() {
    assertStatus(
        222,
        () ->
            f.driver.moduleLoadData(
                ModuleImage.ptx(
                    ptxWithHeader(".version 99.0\n.target sm_90\n.address_size 64\n"))));
    assertStatus(
        222,
        () ->
            f.driver.moduleLoadData(
                ModuleImage.ptx(
                    ptxWithHeader(".version 10.0\n.target sm_90\n.address_size 64\n"))));
  }

  @Test
  void ptxVersionNineLoads() {
    assertDoesNotThrow(
        () ->
            f.driver.moduleLoadData(
                ModuleImage.ptx(ptxWithHeader(".version 9.0\n.target sm_90\n.address_size 64\n"))));
  }

  @Test
  void cubinWithElfMagicLoadsAndOffersItsJavaKernels() {
    long p = f.allocInt();
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.of(ImageFormat.CUBIN, ELF)
                .withJavaKernel("seven", l -> SimFixture.at(l, 0).set(SimFixture.INT, 0, 7)));
    CuFunction seven = f.driver.moduleGetFunction(m, "seven");
    f.driver.launchKernel(seven, 1, 1, 1, 1, 1, 1, 0, f.stream, f.ptrArg(p));
    f.driver.streamSynchronize(f.stream);
    assertEquals(7, f.readInt(p));
    assertStatus(500, () -> f.driver.moduleGetFunction(m, "other"));
  }

  @Test
  void aCubinsKernelsAreItsFunctionsAndOneWithoutAJavaKernelCannotRun() {
    CuModule m = f.driver.moduleLoadData(ModuleImage.of(ImageFormat.CUBIN, ParamInfoTests.cubin()));
    CuFunction saxpy = f.driver.moduleGetFunction(m, "saxpy");
    CudaDriverException e =
        assertStatus(
            801, () -> f.driver.launchKernel(saxpy, 1, 1, 1, 1, 1, 1, 0, f.stream, f.ptrArg(0)));
    assertTrue(e.getMessage().contains("'saxpy' has no Java reference"), e.getMessage());
    assertStatus(500, () -> f.driver.moduleGetFunction(m, "saxpy_helper"));
  }

  @Test
  void aCubinCutShortOfItsSectionHeadersReturnsInvalidImage() {
    byte[] cubin = ParamInfoTests.cubin();
    // e_shoff: where the section header table starts; keep one header of it.
    long sectionHeaders = ByteBuffer.wrap(cubin).order(ByteOrder.LITTLE_ENDIAN).getLong(0x28);
    byte[] cut = Arrays.copyOf(cubin, Math.toIntExact(sectionHeaders + 64));
    CudaDriverException e =
        assertStatus(200, () -> f.driver.moduleLoadData(ModuleImage.of(ImageFormat.CUBIN, cut)));
    assertTrue(e.getMessage().contains("section headers"), e.getMessage());
  }

  @Test
  void cubinWithoutElfMagicReturnsInvalidImage() {
    assertStatus(
        200,
        () ->
            f.driver.moduleLoadData(
                ModuleImage.of(ImageFormat.CUBIN, new byte[] {1, 2, 3, 4, 5, 6, 7, 8})));
  }

  @Test
  void fatbinWithItsMagicLoads() {
    assertDoesNotThrow(() -> f.driver.moduleLoadData(ModuleImage.of(ImageFormat.FATBIN, FATBIN)));
  }

  @Test
  void fatbinWithoutItsMagicReturnsInvalidImage() {
    assertStatus(200, () -> f.driver.moduleLoadData(ModuleImage.of(ImageFormat.FATBIN, ELF)));
  }

  @Test
  void fatbinMagicIsLittleEndian() {
    byte[] bigEndian = {(byte) 0xBA, 0x55, (byte) 0xED, 0x50, 1, 0, 0x10, 0};
    assertStatus(200, () -> f.driver.moduleLoadData(ModuleImage.of(ImageFormat.FATBIN, bigEndian)));
  }
}
