// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The library's JPMS modules, read from their compiled {@code module-info} on the class path, and
 * the library modules without one ({@link #AUTOMATIC}), described by the package that is their API.
 */
final class LibraryModules {

  /** One class of each library module with a module-info, to find where its classes are. */
  private static final List<String> ANCHORS =
      List.of(
          "cuda.graph.CudaPlatform",
          "cuda.graph.spi.CudaDriver",
          "cuda.graph.testkit.InstrumentedDriver",
          "cuda.graph.simulator.Simulator",
          "cuda.graph.driver.internal.CudaProvider",
          "cuda.graph.conformance.ConformanceContract",
          "cuda.graph.nccl.Nccl",
          "cuda.graph.blas.Blas",
          "cuda.graph.embeddings.Embedder",
          "cuda.graph.llm.LlmEngine");

  /**
   * A published library module that is an automatic module, named in its jar's manifest ({@code
   * Automatic-Module-Name}, set in its pom), because it requires a jar that names no module.
   *
   * @param directory the Maven module's directory
   * @param name its module name
   * @param api the one package that is its API (the rules hold it as exported; an automatic module
   *     exports every package, so the rest is held to the layout by the rules alone)
   */
  record Automatic(String directory, String name, String api) {}

  /** The library modules without a module-info: the jars they require name no module. */
  static final List<Automatic> AUTOMATIC =
      List.of(
          new Automatic("langchain4j", "cuda.graph.langchain4j", "cuda.graph.langchain4j"),
          new Automatic("spring-ai", "cuda.graph.spring.ai", "cuda.graph.spring.ai"));

  private LibraryModules() {}

  /**
   * {@return the descriptors of the library modules}: compiled ones, and for each {@link
   * #AUTOMATIC} module one that exports its API package
   */
  static Set<ModuleDescriptor> descriptors() {
    Set<ModuleDescriptor> all = new java.util.LinkedHashSet<>();
    for (String anchor : ANCHORS) {
      ModuleReference module =
          ModuleFinder.of(locationOf(anchor)).findAll().stream()
              .findFirst()
              .orElseThrow(() -> new AssertionError("no module-info next to " + anchor));
      all.add(module.descriptor());
    }
    for (Automatic module : AUTOMATIC) {
      all.add(ModuleDescriptor.newModule(module.name()).exports(module.api()).build());
    }
    return all;
  }

  /** {@return every package a library module exports, sorted} */
  static Set<String> exportedPackages() {
    Set<String> exported = new TreeSet<>();
    descriptors().forEach(d -> d.exports().forEach(e -> exported.add(e.source())));
    return exported;
  }

  /** {@return the packages module {@code name} exports} */
  static Set<String> exportsOf(String name) {
    return descriptors().stream()
        .filter(d -> d.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no library module " + name))
        .exports()
        .stream()
        .map(ModuleDescriptor.Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Path locationOf(String className) {
    try {
      Class<?> c = Class.forName(className, false, LibraryModules.class.getClassLoader());
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (ClassNotFoundException | URISyntaxException e) {
      throw new AssertionError("cannot locate " + className, e);
    }
  }
}
