// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Without native access NCCL is refused with the flag that fits how the module was loaded. The
 * messages are checked for a named and an unnamed module whatever way this test itself runs
 * (patched into the module by Maven, on the class path in the GPU bundle).
 */
class NativeAccessTests {

  @Test
  void aModuleOnTheClassPathIsToldToEnableAllUnnamed() {
    Module unnamed = new ClassLoader(null) {}.getUnnamedModule();
    assertEquals(
        "native access is not enabled for the NCCL binding, so it may not load libnccl.so.2: run"
            + " java with --enable-native-access=ALL-UNNAMED (the NCCL binding is on the class"
            + " path)",
        NativeAccess.refusal(unnamed));
  }

  @Test
  void aNamedModuleIsToldToEnableItsOwnName() {
    Module module = Object.class.getModule();
    assertEquals(
        "native access is not enabled for the NCCL binding, so it may not load libnccl.so.2: run"
            + " java with --enable-native-access=java.base (module java.base is on the module"
            + " path)",
        NativeAccess.refusal(module));
  }

  @Test
  void thisModuleRunsWithNativeAccessSoNothingIsRefused() {
    // The test JVMs grant it (nccl/pom.xml, the bundle's launcher); binding the fakes relies on it.
    NativeAccess.require();
  }
}
