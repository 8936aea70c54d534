// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The layout of the library, as rules that fail the build: the public API alone in {@code
 * cuda.graph}, no internal package exported or exposed, no package cycle, the api independent of
 * the providers and the providers of each other, and the examples and benchmarks on the published
 * API. docs/DESIGN.md describes the layout these rules keep.
 */
class LayoutRulesTests {

  private static final JavaClasses LIBRARY = ProjectClasses.MAIN;

  private static final Set<String> EXPORTED = LibraryModules.exportedPackages();

  @Test
  void theApiModuleExportsItsPublicPackageAlone() {
    assertEquals(Set.of("cuda.graph"), LibraryModules.exportsOf("cuda.graph"));
  }

  @Test
  void noLibraryModuleExportsAnInternalPackage() {
    Set<String> internal = new TreeSet<>();
    for (String pkg : EXPORTED) {
      if (pkg.contains(".internal")) {
        internal.add(pkg);
      }
    }
    assertTrue(internal.isEmpty(), "internal packages exported: " + internal);
  }

  @Test
  void thePublicApiPackageHoldsOnlyPublicTypes() {
    classes()
        .that()
        .resideInAPackage("cuda.graph")
        .and()
        .areTopLevelClasses()
        .and()
        .doNotHaveSimpleName("package-info")
        .should()
        .bePublic()
        .because("implementation lives in cuda.graph.internal.*, never beside the API")
        .check(LIBRARY);
  }

  @Test
  void publicSignaturesOfExportedPackagesExposeNoInternalType() {
    classes()
        .that(arePublicIn(EXPORTED))
        .should(ExposedTypes.exposeNoTypeFromPackagesMatching(".internal"))
        .check(LIBRARY);
  }

  @Test
  void packagesFormNoCycleBeyondASealedTypeAndTheImplementationItPermits() {
    slices()
        .matching("cuda.(**)")
        .should()
        .beFreeOfCycles()
        // A public sealed type permits, and its static factories create, its implementation in
        // the module's internal packages, which implement it: that loop is the design.
        .ignoreDependency(
            arePublicIn(EXPORTED),
            DescribedPredicate.describe("an internal class", LayoutRulesTests::isInternal))
        .check(LIBRARY);
  }

  @Test
  void theApiAndTheSpiDependOnNoProvider() {
    ArchRule rule =
        noClasses()
            .that()
            .resideInAnyPackage("cuda.graph", "cuda.graph.internal..", "cuda.graph.spi..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "cuda.graph.simulator..", "cuda.graph.driver..", "cuda.graph.conformance..");
    rule.check(LIBRARY);
  }

  @Test
  void theSpiAndTheProvidersDependOnNoApiClass() {
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.spi..", "cuda.graph.simulator..", "cuda.graph.driver..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("cuda.graph", "cuda.graph.internal..")
        .check(LIBRARY);
  }

  @Test
  void theNcclModuleUsesOnlyThePublicApiAndNoProvider() {
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.nccl..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph.internal..",
            "cuda.graph.spi..",
            "cuda.graph.simulator..",
            "cuda.graph.driver..",
            "cuda.graph.conformance..")
        .check(LIBRARY);
  }

  @Test
  void theBlasModuleUsesOnlyThePublicApiAndNoProvider() {
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.blas..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph.internal..",
            "cuda.graph.spi..",
            "cuda.graph.simulator..",
            "cuda.graph.driver..",
            "cuda.graph.conformance..",
            "cuda.graph.nccl..")
        .check(LIBRARY);
  }

  @Test
  void theEmbeddingsModuleUsesOnlyThePublicApisOfTheLibraryAndBlas() {
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.embeddings..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph.internal..",
            "cuda.graph.blas.internal..",
            "cuda.graph.spi..",
            "cuda.graph.simulator..",
            "cuda.graph.driver..",
            "cuda.graph.conformance..",
            "cuda.graph.nccl..")
        .because("an optional module is built on the public API, so it works on every provider")
        .check(LIBRARY);
  }

  @Test
  void theLlmModuleUsesOnlyThePublicApisOfTheLibraryAndBlas() {
    assertTrue(
        LIBRARY.containPackage("cuda.graph.llm.internal.checkpoint"),
        "the module's classes are read");
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.llm..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph.internal..",
            "cuda.graph.blas.internal..",
            "cuda.graph.spi..",
            "cuda.graph.simulator..",
            "cuda.graph.driver..",
            "cuda.graph.conformance..",
            "cuda.graph.testkit..",
            "cuda.graph.nccl..",
            "cuda.graph.embeddings..",
            "cuda.graph.langchain4j..",
            "cuda.graph.spring.ai..")
        .because("an optional module is built on the public API, so it works on every provider")
        .check(LIBRARY);
  }

  @Test
  void theLangChain4jModuleUsesOnlyThePublicApisOfTheLibraryAndTheEmbeddingsModule() {
    assertTrue(LIBRARY.containPackage("cuda.graph.langchain4j"), "the module's classes are read");
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.langchain4j..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph..internal..",
            "cuda.graph.spi..",
            "cuda.graph.simulator..",
            "cuda.graph.driver..",
            "cuda.graph.conformance..",
            "cuda.graph.testkit..",
            "cuda.graph.nccl..",
            "cuda.graph.blas..")
        .because("the adapter is LangChain4j's interface over the embeddings module's public API")
        .check(LIBRARY);
  }

  @Test
  void theSpringAiModuleUsesOnlyThePublicApisOfTheLibraryAndTheEmbeddingsModule() {
    assertTrue(LIBRARY.containPackage("cuda.graph.spring.ai"), "the module's classes are read");
    noClasses()
        .that()
        .resideInAnyPackage("cuda.graph.spring.ai..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph..internal..",
            "cuda.graph.spi..",
            "cuda.graph.simulator..",
            "cuda.graph.driver..",
            "cuda.graph.conformance..",
            "cuda.graph.testkit..",
            "cuda.graph.nccl..",
            "cuda.graph.blas..",
            "cuda.graph.langchain4j..")
        .because(
            "the Spring AI model is Spring's interface over the embeddings module's public API")
        .check(LIBRARY);
  }

  @Test
  void anAutomaticLibraryModuleNamesItselfInItsManifestAndHasNoModuleInfo() {
    for (LibraryModules.Automatic module : LibraryModules.AUTOMATIC) {
      java.nio.file.Path dir = RepositoryFiles.ROOT.resolve(module.directory());
      assertTrue(
          RepositoryFiles.text(dir.resolve("pom.xml"))
              .contains("<Automatic-Module-Name>" + module.name() + "</Automatic-Module-Name>"),
          module.directory() + "/pom.xml names the jar's module " + module.name());
      assertTrue(
          !java.nio.file.Files.exists(dir.resolve("src/main/java/module-info.java")),
          module.directory() + " is an automatic module: a module-info would make it another");
      assertTrue(LIBRARY.containPackage(module.api()), module.api() + " has classes");
    }
  }

  @Test
  void theBlasBackendContractDependsOnNothingElseOfTheModule() {
    noClasses()
        .that()
        .resideInAPackage("cuda.graph.blas.internal.plan")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph.blas.internal.matmul..", "cuda.graph.blas.internal.simulated..")
        .because("both backends code against the contract, which must not pull either in")
        .check(LIBRARY);
  }

  @Test
  void theBlasSimulatorModelDependsOnTheContractNotOnTheApiImplementation() {
    noClasses()
        .that()
        .resideInAPackage("cuda.graph.blas.internal.simulated..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("cuda.graph.blas.internal.matmul..")
        .check(LIBRARY);
  }

  /** The providers of the SPI, and the optional modules that bring providers of their own. */
  private static final List<String> PROVIDERS =
      List.of(
          "cuda.graph.simulator..",
          "cuda.graph.driver..",
          "cuda.graph.blas..",
          "cuda.graph.nccl..");

  @Test
  void theProvidersAndTheOptionalModulesDependOnNoneOfEachOther() {
    for (String provider : PROVIDERS) {
      String[] others = PROVIDERS.stream().filter(p -> !p.equals(provider)).toArray(String[]::new);
      noClasses()
          .that()
          .resideInAPackage(provider)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(others)
          .because("each provider, and each optional module, works without the others")
          .check(LIBRARY);
    }
  }

  @Test
  void theBackendsOfTheOptionalModulesDependOnNoneOfEachOther() {
    for (String module : List.of("cuda.graph.blas.internal", "cuda.graph.nccl.internal")) {
      for (List<String> pair :
          List.of(List.of("binding", "simulated"), List.of("simulated", "binding"))) {
        noClasses()
            .that()
            .resideInAPackage(module + "." + pair.get(0) + "..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage(module + "." + pair.get(1) + "..")
            .because("the backend for the cuda provider and the one for the simulator are apart")
            .check(LIBRARY);
      }
    }
  }

  @Test
  void theExamplesUseOnlyWhatTheLibraryExports() {
    noClasses()
        .that()
        .resideInAnyPackage("example..", "cuda.graph.examples..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "cuda.graph..internal..",
            "cuda.graph.spi..",
            "cuda.graph.testkit..",
            "cuda.graph.conformance..")
        .because("an example shows what an application writes: the public API and providers")
        .check(LIBRARY);
  }

  @Test
  void theBenchmarksUseNoInternalPackage() {
    noClasses()
        .that()
        .resideInAPackage("cuda.graph.benchmarks..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("cuda.graph..internal..")
        .because("a benchmark measures what users can reach (the SPI included), nothing hidden")
        .check(LIBRARY);
  }

  @Test
  void theExamplesAndBenchmarksAreAmongTheCheckedClasses() {
    for (String pkg :
        List.of(
            "example",
            "example.saxpy",
            "cuda.graph.examples",
            "cuda.graph.examples.decode",
            "cuda.graph.examples.embed",
            "cuda.graph.examples.embed.measure",
            "cuda.graph.benchmarks",
            "cuda.graph.benchmarks.jmh",
            "cuda.graph.kotlin",
            "cuda.graph.testkit")) {
      assertTrue(LIBRARY.containPackage(pkg), pkg + " is missing from the checked classes");
    }
  }

  private static DescribedPredicate<JavaClass> arePublicIn(Set<String> packages) {
    return DescribedPredicate.describe(
        "public classes of exported packages",
        c ->
            c.getModifiers().contains(JavaModifier.PUBLIC)
                && packages.contains(c.getPackageName()));
  }

  private static boolean isInternal(JavaClass c) {
    return c.getPackageName().contains(".internal");
  }

  /** Keeps the list of exported packages visible in a failure message. */
  @Test
  void theExportedPackagesAreTheOnesDesignMdNames() {
    assertEquals(
        List.of(
            "cuda.graph",
            "cuda.graph.blas",
            "cuda.graph.conformance",
            "cuda.graph.conformance.arbitraries",
            "cuda.graph.conformance.kernels",
            "cuda.graph.embeddings",
            "cuda.graph.langchain4j",
            "cuda.graph.llm",
            "cuda.graph.nccl",
            "cuda.graph.simulator",
            "cuda.graph.spi",
            "cuda.graph.spi.support",
            "cuda.graph.spring.ai",
            "cuda.graph.testkit"),
        List.copyOf(EXPORTED));
  }
}
