// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import cuda.graph.architecture.planted.PlantedTestKitUser;
import cuda.graph.testkit.InstrumentedDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The test kit ({@code cuda-graph-testkit}, package {@code cuda.graph.testkit}) is for tests and
 * the conformance kit only: no other main class uses it, no other module requires it, and no other
 * pom takes it at a scope other than {@code test}, so no application or provider ever loads it.
 */
class TestKitRulesTests {

  static final ArchRule ONLY_THE_CONFORMANCE_KIT_USES_THE_TEST_KIT =
      noClasses()
          .that()
          .resideOutsideOfPackages("cuda.graph.testkit..", "cuda.graph.conformance..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("cuda.graph.testkit..")
          .because(
              "the test kit is for tests, at test scope, and the conformance kit built on it; the"
                  + " library, the providers and applications never load it");

  @Test
  void noMainClassOutsideTheConformanceKitUsesTheTestKit() {
    ONLY_THE_CONFORMANCE_KIT_USES_THE_TEST_KIT.check(ProjectClasses.MAIN);
  }

  @Test
  void theRuleFailsOnAPlantedDependencyOnTheTestKit() {
    var planted = new ClassFileImporter().importClasses(PlantedTestKitUser.class);

    EvaluationResult result = ONLY_THE_CONFORMANCE_KIT_USES_THE_TEST_KIT.evaluate(planted);

    assertTrue(result.hasViolation(), "the planted use of the test kit was not found");
    String report = result.getFailureReport().toString();
    assertTrue(
        report.contains(PlantedTestKitUser.class.getName())
            && report.contains(InstrumentedDriver.class.getName()),
        report);
    assertThrows(
        AssertionError.class,
        () -> ONLY_THE_CONFORMANCE_KIT_USES_THE_TEST_KIT.check(planted),
        "and the build would fail");
  }

  @Test
  void onlyTheConformanceModuleRequiresTheTestKit() {
    Set<String> requiring =
        LibraryModules.descriptors().stream()
            .filter(d -> d.requires().stream().anyMatch(r -> r.name().equals("cuda.graph.testkit")))
            .map(ModuleDescriptor::name)
            .collect(Collectors.toCollection(TreeSet::new));

    assertEquals(Set.of("cuda.graph.conformance"), requiring);
  }

  @Test
  void everyPomButTheConformanceKitTakesTheTestKitAtTestScope() {
    Map<String, String> scopes = testKitScopes();

    assertTrue(scopes.size() > 5, "the test kit's users: " + scopes);
    scopes.forEach(
        (module, scope) ->
            assertEquals(
                module.equals("conformance-tests") ? "compile" : "test",
                scope,
                module + "/pom.xml takes cuda-graph-testkit at scope " + scope));
  }

  private static final Pattern DEPENDENCY = Pattern.compile("(?s)<dependency>(.*?)</dependency>");

  /**
   * {@return the scope at which each module's pom takes the test kit, by module directory} Managed
   * versions (the parent's dependencyManagement, the bom) are not dependencies and are left out.
   */
  private static Map<String, String> testKitScopes() {
    Path root = Path.of("").toAbsolutePath().getParent();
    Map<String, String> scopes = new TreeMap<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path pom :
          modules.map(m -> m.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
        String text = Files.readString(pom).replaceAll("(?s)<!--.*?-->", "");
        text = text.replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "");
        Matcher dependency = DEPENDENCY.matcher(text);
        while (dependency.find()) {
          String body = dependency.group(1);
          if (body.contains("<artifactId>cuda-graph-testkit</artifactId>")) {
            Matcher scope = Pattern.compile("<scope>(\\w+)</scope>").matcher(body);
            scopes.put(
                pom.getParent().getFileName().toString(),
                scope.find() ? scope.group(1) : "compile");
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return scopes;
  }
}
