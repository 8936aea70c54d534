package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.nccl.NcclUnavailableException;
import org.junit.jupiter.api.Test;

/** Without native access NCCL is refused with the flag that fits how the module was loaded. */
class NativeAccessTests {

  @Test
  void aModuleOnTheClassPathIsToldToEnableAllUnnamed() {
    Module unnamed = new ClassLoader(null) {}.getUnnamedModule();
    NcclUnavailableException e =
        assertThrows(NcclUnavailableException.class, () -> NativeAccess.require(unnamed));
    assertEquals(
        "native access is not enabled for the NCCL binding, so it may not load libnccl.so.2: run"
            + " java with --enable-native-access=ALL-UNNAMED (the NCCL binding is on the class"
            + " path)",
        e.getMessage());
  }

  @Test
  void aNamedModuleIsToldToEnableItsOwnName() {
    Module module = NcclLibrary.class.getModule();
    assertEquals(
        "native access is not enabled for the NCCL binding, so it may not load libnccl.so.2: run"
            + " java with --enable-native-access=cuda.graph.nccl (module cuda.graph.nccl is on the"
            + " module path)",
        NativeAccess.refusal(module));
  }

  @Test
  void thisModuleRunsWithNativeAccessSoNothingIsRefused() {
    // The test JVM grants it (nccl/pom.xml); binding the fakes relies on this too.
    NativeAccess.require();
  }
}
