// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The flag the provider names when native access is missing, for each way it can be loaded. */
class NativeAccessAdviceTests {

  @Test
  void onTheModulePathTheFlagNamesTheModule() {
    Module named = Object.class.getModule(); // any named module: java.base
    assertEquals("--enable-native-access=java.base", NativeAccessAdvice.flagFor(named));
    assertEquals("on the module path", NativeAccessAdvice.placeOf(named));
  }

  @Test
  void onTheClassPathTheFlagIsAllUnnamed() {
    Module unnamed = ClassLoader.getSystemClassLoader().getUnnamedModule();
    assertEquals("--enable-native-access=ALL-UNNAMED", NativeAccessAdvice.flagFor(unnamed));
    assertEquals("on the class path", NativeAccessAdvice.placeOf(unnamed));
  }

  @Test
  void theProviderGetsTheFlagForWhereItRuns() {
    Module module = CudaProvider.class.getModule();
    String expected =
        module.isNamed()
            ? "--enable-native-access=cuda.graph.driver"
            : "--enable-native-access=ALL-UNNAMED";
    String advice = NativeAccessAdvice.advice(module, "it may not load libcuda.so.1");
    assertTrue(advice.contains("run java with " + expected), advice);
    assertTrue(advice.contains("it may not load libcuda.so.1"), advice);
  }

  @Test
  void thisBuildGrantsNativeAccess() {
    // The build (and the GPU bundle) pass the flag; without it the provider would log a warning.
    assertTrue(CudaProvider.class.getModule().isNativeAccessEnabled());
  }
}
