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
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The layout of the library, as rules that fail the build: the public API alone in {@code
 * cuda.graph}, no internal package exported or exposed, no package cycle, and the api independent
 * of the providers. docs/DESIGN.md describes the layout these rules keep.
 */
class LayoutRulesTests {

  private static final JavaClasses LIBRARY =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("cuda.graph");

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
            "cuda.graph.nccl",
            "cuda.graph.simulator",
            "cuda.graph.spi",
            "cuda.graph.spi.support"),
        List.copyOf(EXPORTED));
  }
}
