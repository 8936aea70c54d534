// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.FunctionAttribute;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.ModuleImage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A kernel's static shared memory on the simulator: read from the {@code .shared} declarations of a
 * PTX module ({@code cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)}), and counted against
 * the block's shared memory as the driver counts it: a launch may ask for 48 KiB less it without
 * opting in, and {@code cuFuncSetAttribute} may raise that to the opt-in limit less it.
 */
@Timeout(20)
class StaticSharedMemoryTests {

  private static final String HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n";
  private static final int PER_BLOCK = 49152;
  private static final int OPTIN = 232448;

  @AutoClose final SimFixture f = SimFixture.start();
  private final AtomicInteger runs = new AtomicInteger();

  private CuModule load(String ptx, String... javaKernels) {
    ModuleImage image = ModuleImage.ptx(HEADER + ptx);
    for (String name : javaKernels) {
      image = image.withJavaKernel(name, l -> runs.incrementAndGet());
    }
    return f.driver.moduleLoadData(image);
  }

  private int staticShared(CuModule module, String name) {
    return f.driver.funcGetAttribute(
        f.driver.moduleGetFunction(module, name), FunctionAttribute.SHARED_SIZE_BYTES);
  }

  private int maxDynamic(CuFunction function) {
    return f.driver.funcGetAttribute(function, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES);
  }

  private void launch(CuFunction function, int dynamicBytes) {
    f.driver.launchKernel(function, 1, 1, 1, 32, 1, 1, dynamicBytes, f.stream, f.noArgs());
  }

  /** A kernel as nvcc writes one with a {@code __shared__ int s[160]}: 640 bytes in its body. */
  private static final String STAGED =
      """
      .visible .entry staged(
      \t.param .u64 staged_param_0
      )
      {
      \t// demoted variable
      \t.shared .align 4 .b8 _ZZ6stagedE1s[640];
      \t.reg .b32 %r<3>;
      \tmov.u32 %r1, _ZZ6stagedE1s;
      \tst.shared.u32 [%r1], %r2;
      \tbar.sync 0;
      \tret;
      }
      .visible .entry plain()
      {
      \tret;
      }
      """;

  @Test
  void theSharedArraysAKernelDeclaresAreItsStaticSharedMemory() {
    CuModule m = load(STAGED);
    assertEquals(640, staticShared(m, "staged"));
    assertEquals(0, staticShared(m, "plain"));
  }

  @Test
  void moduleScopeVariablesCountForTheKernelsThatNameThemDirectlyOrThroughAFunction() {
    CuModule m =
        load(
            """
            .shared .align 4 .b8 scratch[32];
            .shared .align 8 .b8 unused[4096];
            // .shared .align 4 .b8 commented[100000];
            .extern .shared .align 16 .b8 dynamic[];
            .func helper()
            {
            \t.reg .b32 %r<2>;
            \tmov.u32 %r1, scratch;
            \tret;
            }
            .visible .entry direct()
            {
            \t.reg .b32 %r<2>;
            \tmov.u32 %r1, scratch;
            \tmov.u32 %r1, dynamic;
            \tret;
            }
            .visible .entry viaCall()
            {
            \t.shared .align 8 .b8 own[8];
            \t{
            \t.reg .b32 temp;
            \tcall.uni helper, ();
            \t}
            \tret;
            }
            .visible .entry neither()
            {
            \tmov.u32 %r1, dynamic;
            \tret;
            }
            """);
    assertEquals(32, staticShared(m, "direct"), "scratch; the dynamic array counts nothing");
    assertEquals(32 + 8, staticShared(m, "viaCall"), "scratch through helper, and its own");
    assertEquals(0, staticShared(m, "neither"));
  }

  @Test
  void eachVariableLiesAtTheNextOffsetItsAlignmentAllows() {
    CuModule m =
        load(
            """
            .visible .entry k()
            {
            \t.shared .align 2 .b8 a[6];
            \t.shared .align 8 .b8 b[8];
            \t.shared .u32 c, d[3];
            \t.shared .v4 .f32 v[2];
            \t.shared .f16x2 h;
            \tret;
            }
            """);
    // a at 0 (6), b at 8 (8), c at 16 (4), d at 20 (12), v at 32 (32), h at 64 (4).
    assertEquals(68, staticShared(m, "k"));
  }

  @Test
  void theDefaultDynamicLimitIs48KiBLessTheStaticSharedMemory() {
    CuModule m = load(STAGED, "staged", "plain");
    CuFunction staged = f.driver.moduleGetFunction(m, "staged");
    CuFunction plain = f.driver.moduleGetFunction(m, "plain");
    assertEquals(PER_BLOCK - 640, maxDynamic(staged));
    assertEquals(PER_BLOCK, maxDynamic(plain));
    assertEquals(
        PER_BLOCK,
        f.driver.deviceGetAttribute(DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK, 0),
        "the device's own default");

    CudaDriverException refused = assertStatus(1, () -> launch(staged, PER_BLOCK));
    assertEquals(DriverCall.LAUNCH_KERNEL, refused.call());
    assertTrue(
        refused.getMessage().contains("may ask for 48512 without opt-in (49152 less its 640 bytes"),
        refused.getMessage());
    assertDoesNotThrow(() -> launch(staged, PER_BLOCK - 640));
    assertDoesNotThrow(() -> launch(plain, PER_BLOCK));

    f.driver.funcSetAttribute(staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, PER_BLOCK);
    assertEquals(PER_BLOCK, maxDynamic(staged));
    assertDoesNotThrow(() -> launch(staged, PER_BLOCK));
    f.driver.streamSynchronize(f.stream);
    assertEquals(3, runs.get(), "the refused launch ran nothing");
  }

  @Test
  void anOptInMayRaiseTheDynamicLimitToTheOptInLimitLessTheStaticSharedMemory() {
    CuModule m = load(STAGED, "staged");
    CuFunction staged = f.driver.moduleGetFunction(m, "staged");
    CudaDriverException over =
        assertStatus(
            1,
            () ->
                f.driver.funcSetAttribute(
                    staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, OPTIN - 640 + 1));
    assertEquals(DriverCall.FUNC_SET_ATTRIBUTE, over.call());
    assertTrue(over.getMessage().contains("640 bytes of static shared memory leave 231808"));
    assertEquals(PER_BLOCK - 640, maxDynamic(staged), "unchanged by the refusal");
    f.driver.funcSetAttribute(staged, FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, OPTIN - 640);
    assertDoesNotThrow(() -> launch(staged, OPTIN - 640));
    assertStatus(1, () -> launch(staged, OPTIN - 640 + 1));
  }

  @Test
  void moreStaticSharedMemoryThanTheDefaultLeavesNoDynamicWithoutOptIn() {
    CuModule m =
        load(".visible .entry big()\n{\n\t.shared .align 4 .b8 s[50000];\n\tret;\n}\n", "big");
    CuFunction big = f.driver.moduleGetFunction(m, "big");
    assertEquals(50000, staticShared(m, "big"));
    assertEquals(0, maxDynamic(big));
    assertDoesNotThrow(() -> launch(big, 0));
    assertStatus(1, () -> launch(big, 4));
  }

  @Test
  void whereTheSimulatorCannotReadTheStaticSharedMemoryItSaysSo() {
    CuModule cubin =
        f.driver.moduleLoadData(
            ModuleImage.of(ImageFormat.CUBIN, ParamInfoTests.cubin())
                .withJavaKernel("saxpy", l -> {}));
    CudaDriverException e = assertStatus(801, () -> staticShared(cubin, "saxpy"));
    assertEquals(DriverCall.FUNC_GET_ATTRIBUTE, e.call());
    assertTrue(e.getMessage().contains("static shared memory of kernel 'saxpy'"), e.getMessage());
    CuModule javaOnly = load(STAGED, "javaOnly");
    assertStatus(801, () -> staticShared(javaOnly, "javaOnly"));
    CuModule unsized = load(".visible .entry k()\n{\n\t.shared .pred p;\n\tret;\n}\n");
    assertStatus(801, () -> staticShared(unsized, "k"));
    assertEquals(
        PER_BLOCK,
        maxDynamic(f.driver.moduleGetFunction(cubin, "saxpy")),
        "its limits count no static shared memory");
  }

  @Test
  void anAttributeTheSimulatorDoesNotModelIsAnInvalidValue() {
    CuFunction plain = f.driver.moduleGetFunction(load(STAGED), "plain");
    CudaDriverException e = assertStatus(1, () -> f.driver.funcGetAttribute(plain, 0));
    assertEquals(DriverCall.FUNC_GET_ATTRIBUTE, e.call());
    assertTrue(e.getMessage().contains("not attribute 0"), e.getMessage());
  }
}
