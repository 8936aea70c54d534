// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.nccl.NcclUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which library is opened, and what the user is told when it cannot be: the file the system
 * property names, exactly, or the soname wherever the dynamic loader finds it. Each test loads
 * afresh, never through the process-wide {@link NcclLibrary#load()}, so none sees another's
 * outcome.
 */
class NcclLoaderTests {

  @Test
  void aMissingLibraryIsReportedWithThePropertyThatNamesIt(@TempDir Path dir) {
    Path missing = dir.resolve("no-such/libnccl.so.2");
    String before = System.getProperty(NcclLibrary.LIBRARY_PROPERTY);
    System.setProperty(NcclLibrary.LIBRARY_PROPERTY, missing.toString());
    NcclUnavailableException e;
    try {
      e = assertThrows(NcclUnavailableException.class, NcclLoader::loadConfigured);
    } finally {
      if (before == null) {
        System.clearProperty(NcclLibrary.LIBRARY_PROPERTY);
      } else {
        System.setProperty(NcclLibrary.LIBRARY_PROPERTY, before);
      }
    }
    String message = String.valueOf(e.getMessage());
    assertTrue(message.contains(missing.toString()), message);
    assertTrue(message.contains("which does not exist"), message);
    assertTrue(message.contains("system property cuda.graph.nccl.library"), message);
    assertTrue(message.contains("pip install nvidia-nccl-cu13"), message);
    assertTrue(message.contains("site-packages/nvidia/nccl/lib"), message);
  }

  @Test
  void aFileThatIsNoLibraryIsReportedAsOneTheLoaderCannotOpen(@TempDir Path dir)
      throws IOException {
    Path text = Files.writeString(dir.resolve("libnccl.so.2"), "not an ELF file");
    NcclUnavailableException e =
        assertThrows(NcclUnavailableException.class, () -> NcclLoader.load(text.toString()));
    String message = String.valueOf(e.getMessage());
    assertTrue(
        message.contains("names " + text + ", which the dynamic loader cannot open"), message);
    assertTrue(e.getCause() instanceof IllegalArgumentException, "the loader's refusal is kept");
  }

  @Test
  void aDirectoryIsReportedAsNotAFile(@TempDir Path dir) {
    NcclUnavailableException e =
        assertThrows(NcclUnavailableException.class, () -> NcclLoader.load(dir.toString()));
    assertTrue(String.valueOf(e.getMessage()).contains(dir + ", which is not a file"));
  }

  @Test
  void withoutThePropertyTheLoaderSearchIsTriedAndNamedWithThePropertyAndTheFix() {
    // Where NCCL is installed the search succeeds, and binding has then checked its version.
    NcclLibrary found;
    try {
      found = NcclLoader.load("  ");
    } catch (NcclUnavailableException e) {
      String message = String.valueOf(e.getMessage());
      assertTrue(message.startsWith("cannot load NCCL: the dynamic loader finds no libnccl.so.2"));
      assertTrue(message.contains("LD_LIBRARY_PATH and the ldconfig cache"), message);
      assertTrue(message.contains("system property cuda.graph.nccl.library is not set"), message);
      assertTrue(
          message.contains(
              "install NCCL (on a host with Python: pip install nvidia-nccl-cu13, whose library is"
                  + " in site-packages/nvidia/nccl/lib) and put its directory on LD_LIBRARY_PATH,"
                  + " or run java with -Dcuda.graph.nccl.library=/path/to/libnccl.so.2"),
          message);
      return;
    }
    assertEquals(NcclLoader.SONAME, found.library());
    assertTrue(found.version() >= NcclLibrary.MINIMUM_VERSION);
  }
}
