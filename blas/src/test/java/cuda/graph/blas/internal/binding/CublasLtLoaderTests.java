// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.blas.BlasException;
import cuda.graph.blas.BlasUnavailableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which library is opened, and what the user is told when it cannot be: the file the system
 * property names, exactly, or the first soname the dynamic loader finds. Each test loads afresh,
 * never through the process-wide {@link CublasLtLibrary#load()}, so none sees another's outcome.
 */
class CublasLtLoaderTests {

  @Test
  void aMissingLibraryIsReportedWithThePropertyThatNamesItAndWhereToGetOne(@TempDir Path dir) {
    Path missing = dir.resolve("no-such/libcublasLt.so.13");
    String before = System.getProperty(CublasLtLibrary.LIBRARY_PROPERTY);
    System.setProperty(CublasLtLibrary.LIBRARY_PROPERTY, missing.toString());
    BlasUnavailableException e;
    try {
      e = assertThrows(BlasUnavailableException.class, CublasLtLoader::loadConfigured);
    } finally {
      if (before == null) {
        System.clearProperty(CublasLtLibrary.LIBRARY_PROPERTY);
      } else {
        System.setProperty(CublasLtLibrary.LIBRARY_PROPERTY, before);
      }
    }
    String message = String.valueOf(e.getMessage());
    assertTrue(message.startsWith("cannot load cuBLASLt: system property"), message);
    assertTrue(message.contains(missing + ", which does not exist"), message);
    assertTrue(message.contains("system property cuda.graph.blas.library"), message);
    assertTrue(message.contains("point it at libcublasLt.so.13 or libcublasLt.so.12"), message);
    assertTrue(message.contains("site-packages/nvidia/cublas/lib"), message);
    assertTrue(message.contains("lib64"), message);
    assertEquals("CUBLAS_STATUS_NOT_INITIALIZED", step(e).statusName());
    assertEquals("dlopen(" + missing + ")", step(e).function());
    assertTrue(message.lines().count() == 1, "one line: " + message);
  }

  /**
   * {@return the bytes of an ELF relocatable object with no contents}: the dynamic loader refuses
   * it (it loads shared objects only), and its program header marks the stack not executable, so
   * the JVM, which reads that before it opens a library, does not warn about the stack guard
   */
  private static byte[] relocatableObject() {
    ByteBuffer elf = ByteBuffer.allocate(64 + 56).order(ByteOrder.LITTLE_ENDIAN);
    elf.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}).put(new byte[8]);
    elf.putShort((short) 1); // ET_REL
    elf.putShort((short) 0x3e); // x86-64
    elf.putInt(1).putLong(0).putLong(64).putLong(0).putInt(0);
    elf.putShort((short) 64).putShort((short) 56).putShort((short) 1);
    elf.putShort((short) 64).putShort((short) 0).putShort((short) 0);
    elf.putInt(0x6474e551).putInt(6); // PT_GNU_STACK, read and write only
    elf.putLong(0).putLong(0).putLong(0).putLong(0).putLong(0).putLong(16);
    return elf.array();
  }

  @Test
  void aFileThatIsNoLibraryIsReportedAsOneTheLoaderCannotOpen(@TempDir Path dir)
      throws IOException {
    Path text = Files.write(dir.resolve("libcublasLt.so.13"), relocatableObject());

    BlasUnavailableException e =
        assertThrows(BlasUnavailableException.class, () -> CublasLtLoader.load(text.toString()));

    String message = String.valueOf(e.getMessage());
    assertTrue(
        message.contains("names " + text + ", which the dynamic loader cannot open"), message);
    assertTrue(
        step(e).getCause() instanceof IllegalArgumentException, "the loader's refusal is kept");
  }

  @Test
  void aDirectoryIsReportedAsNotAFile(@TempDir Path dir) {
    BlasUnavailableException e =
        assertThrows(BlasUnavailableException.class, () -> CublasLtLoader.load(dir.toString()));

    assertTrue(String.valueOf(e.getMessage()).contains(dir + ", which is not a file"));
  }

  @Test
  void withoutThePropertyBothSonamesAreSearchedAndTheMessageSaysHowToProvideOne() {
    // Where cuBLASLt is installed the search succeeds, and binding has then checked its version.
    CublasLtLibrary found;
    try {
      found = CublasLtLoader.load("  ");
    } catch (BlasUnavailableException e) {
      String message = String.valueOf(e.getMessage());
      assertTrue(
          message.startsWith(
              "cannot load cuBLASLt: the dynamic loader finds neither libcublasLt.so.13 nor"
                  + " libcublasLt.so.12"),
          message);
      assertTrue(message.contains("LD_LIBRARY_PATH and the ldconfig cache"), message);
      assertTrue(message.contains("system property cuda.graph.blas.library is not set"), message);
      assertTrue(
          message.endsWith("run java with -Dcuda.graph.blas.library=/path/to/libcublasLt.so.13"),
          message);
      assertEquals(
          1, step(e).getCause().getSuppressed().length, "the second soname's refusal is kept");
      return;
    }
    assertTrue(CublasLtLoader.SONAMES.contains(found.library()), found.library());
    assertTrue(found.version() >= CublasLtLibrary.MINIMUM_VERSION);
  }

  @Test
  void aModuleWithoutNativeAccessIsToldTheFlagThatFitsHowItWasLoaded() {
    String unnamed = NativeAccess.refusal(getClass().getClassLoader().getUnnamedModule());
    // Patched into its module under Maven; on a class path (the GPU bundle) any named module does.
    Module module = CublasLtLibrary.class.getModule();
    Module namedModule = module.isNamed() ? module : String.class.getModule();
    String named = NativeAccess.refusal(namedModule);

    assertTrue(unnamed.contains("--enable-native-access=ALL-UNNAMED"), unnamed);
    assertTrue(unnamed.contains("on the class path"), unnamed);
    assertTrue(named.contains("--enable-native-access=" + namedModule.getName()), named);
    assertTrue(named.contains("module " + namedModule.getName() + " is on the module path"), named);
  }

  /** {@return the step that failed, which the unavailability names as its cause} */
  private static BlasException step(BlasUnavailableException e) {
    return assertInstanceOf(BlasException.class, e.getCause());
  }
}
