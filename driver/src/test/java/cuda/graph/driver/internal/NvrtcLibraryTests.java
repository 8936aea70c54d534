// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where NVRTC is looked for. */
class NvrtcLibraryTests {

  @Test
  void thePropertyReplacesTheDefaultCandidates() {
    String previous = System.getProperty(NvrtcLibrary.LIBRARY_PROPERTY);
    System.setProperty(NvrtcLibrary.LIBRARY_PROPERTY, " /opt/cuda/lib64/libnvrtc.so.13 ");
    try {
      assertEquals(List.of("/opt/cuda/lib64/libnvrtc.so.13"), NvrtcLibrary.candidates());
    } finally {
      if (previous == null) {
        System.clearProperty(NvrtcLibrary.LIBRARY_PROPERTY);
      } else {
        System.setProperty(NvrtcLibrary.LIBRARY_PROPERTY, previous);
      }
    }
  }

  @Test
  void theDefaultsAreTheSonamesThenTheToolkitPaths() {
    assertEquals(
        List.of(
            "libnvrtc.so.13",
            "libnvrtc.so.12",
            "/usr/local/cuda/lib64/libnvrtc.so",
            "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so"),
        NvrtcLibrary.DEFAULT_CANDIDATES);
  }

  @Test
  void theSearchResultIsOneLineThatSaysWhatToDoWhenNothingLoads() {
    NvrtcLibrary.Found found = NvrtcLibrary.found();
    assertFalse(found.reason().contains("\n"), found.reason());
    if (found.lookup().isEmpty()) {
      assertTrue(found.reason().contains("-D" + NvrtcLibrary.LIBRARY_PROPERTY), found.reason());
    } else {
      assertTrue(found.reason().startsWith("loaded "), found.reason());
    }
  }
}
