// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code cuFuncGetParamInfo} on the simulator: read from the {@code .entry} of a PTX module, laid
 * out as the driver lays parameters out, and from the {@code .nv.info.<kernel>} section of a cubin,
 * as the driver reads it; NOT_SUPPORTED where the simulator does not know them.
 */
@Timeout(20)
class ParamInfoTests {

  private static final byte[] ELF = {0x7F, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  private static final String HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n";

  @AutoClose final SimFixture f = SimFixture.start();

  /** {@return parameters.cubin, nvcc's cubin of parameters.cu} */
  static byte[] cubin() {
    try (InputStream in = ParamInfoTests.class.getResourceAsStream("parameters.cubin")) {
      return Objects.requireNonNull(in, "parameters.cubin").readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private CuFunction load(String ptx, String name) {
    CuModule module = f.driver.moduleLoadData(ModuleImage.ptx(HEADER + ptx));
    return f.driver.moduleGetFunction(module, name);
  }

  private List<ParamInfo> parameters(CuFunction function) {
    List<ParamInfo> parameters = new ArrayList<>();
    for (Optional<ParamInfo> p = f.driver.funcGetParamInfo(function, 0);
        p.isPresent();
        p = f.driver.funcGetParamInfo(function, parameters.size())) {
      parameters.add(p.get());
    }
    return parameters;
  }

  @Test
  void eachParameterLiesAtTheNextOffsetItsAlignmentAllows() {
    // saxpy(float a, const float* x, float* y, int n), as nvcc writes it.
    CuFunction saxpy =
        load(
            ".visible .entry saxpy(\n\t.param .f32 saxpy_param_0,\n\t.param .u64 saxpy_param_1,\n"
                + "\t.param .u64 saxpy_param_2,\n\t.param .u32 saxpy_param_3\n)\n{\n\tret;\n}\n",
            "saxpy");
    assertEquals(
        List.of(
            new ParamInfo(0, 4), new ParamInfo(8, 8), new ParamInfo(16, 8), new ParamInfo(24, 4)),
        parameters(saxpy));
  }

  @Test
  void explicitAlignmentsArraysAndPointerAttributesAreRead() {
    CuFunction kinds =
        load(
            ".visible .entry kinds(.param .u8 c, .param .b16 s, .param .align 8 .b8 v[8],"
                + " .param .u64 .ptr .global .align 4 p, .param .align 16 .b8 q[16], .param .u32 n)"
                + "\n{\n\tret;\n}\n",
            "kinds");
    assertEquals(
        List.of(
            new ParamInfo(0, 1),
            new ParamInfo(2, 2),
            new ParamInfo(8, 8),
            new ParamInfo(16, 8),
            new ParamInfo(32, 16),
            new ParamInfo(48, 4)),
        parameters(kinds));
  }

  @Test
  void pastTheLastParameterTheAnswerIsEmpty() {
    CuFunction k = load(".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n", "k");
    assertEquals(Optional.of(new ParamInfo(0, 8)), f.driver.funcGetParamInfo(k, 0));
    assertEquals(Optional.empty(), f.driver.funcGetParamInfo(k, 1));
    assertEquals(Optional.empty(), f.driver.funcGetParamInfo(k, -1));
    CuFunction none = load(".visible .entry none()\n{\n\tret;\n}\n", "none");
    assertEquals(List.of(), parameters(none));
  }

  @Test
  void aCubinKernelsParametersAreReadFromItsNvInfoSectionAsTheDriverReadsThem() {
    // parameters.cu: saxpy(int n, float a, const float *x, float *y), compiled by nvcc 13.0.
    CuModule m = f.driver.moduleLoadData(ModuleImage.of(ImageFormat.CUBIN, cubin()));
    assertEquals(
        List.of(
            new ParamInfo(0, 4), new ParamInfo(4, 4), new ParamInfo(8, 8), new ParamInfo(16, 8)),
        parameters(f.driver.moduleGetFunction(m, "saxpy")));
    assertEquals(List.of(), parameters(f.driver.moduleGetFunction(m, "none")));
    assertEquals(
        Optional.empty(), f.driver.funcGetParamInfo(f.driver.moduleGetFunction(m, "saxpy"), 4));
  }

  @Test
  void parametersPastFourKibibytesAreReadFromTheSecondVersionOfTheRecords() {
    // mixed(char, short, double, struct of 1100 ints, int *): ptxas writes KPARAM_INFO_V2 records.
    CuModule m = f.driver.moduleLoadData(ModuleImage.of(ImageFormat.CUBIN, cubin()));
    assertEquals(
        List.of(
            new ParamInfo(0, 1),
            new ParamInfo(2, 2),
            new ParamInfo(8, 8),
            new ParamInfo(16, 4400),
            new ParamInfo(4416, 8)),
        parameters(f.driver.moduleGetFunction(m, "mixed")));
  }

  @Test
  void aCubinWithoutSectionHeadersLeavesItsKernelsParametersUnknown() {
    // Sixteen bytes of ELF identification: the stand-in for a cubin that tests of Java kernels use.
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.of(ImageFormat.CUBIN, ELF).withJavaKernel("k", l -> {}));
    CuFunction k = f.driver.moduleGetFunction(m, "k");
    CudaDriverException e = assertStatus(801, () -> f.driver.funcGetParamInfo(k, 0));
    assertEquals(DriverCall.FUNC_GET_PARAM_INFO, e.call());
    assertTrue(e.getMessage().contains("the .nv.info.k section of a cubin"), e.getMessage());
  }

  @Test
  void aJavaKernelTheCubinDoesNotDefineHasUnknownParameters() {
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.of(ImageFormat.CUBIN, cubin()).withJavaKernel("javaOnly", l -> {}));
    assertStatus(
        801, () -> f.driver.funcGetParamInfo(f.driver.moduleGetFunction(m, "javaOnly"), 0));
  }

  @Test
  void aJavaKernelWithoutAnEntryIsNotKnownEither() {
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.ptx(SimFixture.ptx("k")).withJavaKernel("javaOnly", l -> {}));
    assertStatus(
        801, () -> f.driver.funcGetParamInfo(f.driver.moduleGetFunction(m, "javaOnly"), 0));
  }

  @Test
  void aParameterOfATypeTheSimulatorCannotSizeMakesTheListUnknown() {
    CuFunction k = load(".visible .entry k(.param .u32 n, .param .unsized s)\n{\n\tret;\n}\n", "k");
    assertStatus(801, () -> f.driver.funcGetParamInfo(k, 0));
  }

  @Test
  void askingAboutTheFunctionOfAnUnloadedModuleIsUndefinedBehaviour() {
    CuModule m = f.driver.moduleLoadData(ModuleImage.ptx(SimFixture.ptx("gone")));
    CuFunction gone = f.driver.moduleGetFunction(m, "gone");
    f.driver.moduleUnload(m);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.funcGetParamInfo(gone, 0));
  }
}
