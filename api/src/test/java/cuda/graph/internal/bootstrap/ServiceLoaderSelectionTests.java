// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.bootstrap.Fakes.RecordingLogger;
import cuda.graph.internal.bootstrap.ProviderSelector.Candidate;
import cuda.graph.internal.bootstrap.ProviderSelector.Selection;
import cuda.graph.spi.CudaDriverProvider;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Selection through the real {@link ServiceLoader}, with the simulator (a test dependency of this
 * module) as the only installed provider.
 */
class ServiceLoaderSelectionTests {

  @Test
  void theSimulatorIsDiscoveredAsAModuleAndChosenWhenNothingIsForced() {
    List<Candidate> candidates =
        ProviderSelector.discover(ServiceLoader.load(CudaDriverProvider.class));
    RecordingLogger logger = new RecordingLogger();

    Selection selection =
        assertInstanceOf(
            Selection.class, ProviderSelector.select(candidates, Optional.empty(), logger));

    assertEquals("simulator", selection.id());
    // Found through the descriptor's "provides", i.e. as a named module on the module path, not
    // through META-INF/services as a class-path class. No surefire configuration is needed for
    // this: surefire puts test-scoped dependencies that are modules on the test module path with
    // --add-modules ALL-MODULE-PATH (and service binding would resolve the module anyway, since
    // cuda.graph "uses" the service the simulator "provides"). This assertion keeps it that way.
    assertEquals("cuda.graph.simulator", selection.provider().getClass().getModule().getName());
    assertEquals(1, candidates.size(), () -> "discovered: " + candidates);
    assertEquals(1, selection.lines().size());
    String line = selection.lines().getFirst();
    assertTrue(
        line.startsWith(
            "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one found:"
                + " in-process CUDA driver simulator"),
        line);
  }

  @Test
  void aBrokenServiceEntryIsReportedAndDiscoveryGoesOn(@TempDir Path classes) throws IOException {
    Path services = classes.resolve("META-INF/services/cuda.graph.spi.CudaDriverProvider");
    Files.createDirectories(services.getParent());
    Files.writeString(services, "com.example.MissingProvider\n");
    RecordingLogger logger = new RecordingLogger();

    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      List<Candidate> candidates =
          ProviderSelector.discover(ServiceLoader.load(CudaDriverProvider.class, loader));
      Selection selection =
          assertInstanceOf(
              Selection.class, ProviderSelector.select(candidates, Optional.empty(), logger));

      assertEquals("simulator", selection.id());
      assertEquals(2, selection.lines().size(), () -> selection.lines().toString());
      assertEquals(
          "cuda.graph: skipped a CUDA driver provider, which failed to load:"
              + " java.util.ServiceConfigurationError: cuda.graph.spi.CudaDriverProvider: Provider"
              + " com.example.MissingProvider not found; fix or remove the jar that provides it",
          selection.lines().getFirst());
      assertTrue(
          selection
              .lines()
              .getLast()
              .startsWith(
                  "cuda.graph: using CUDA driver provider 'simulator' (priority 0), the only one"
                      + " that loaded:"),
          selection.lines().getLast());
    }
  }
}
