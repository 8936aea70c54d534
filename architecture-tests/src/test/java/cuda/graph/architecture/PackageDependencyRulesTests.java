// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Each package depends on no package of the project but those its package-info allows in its "May
 * depend on ..." sentence ({@link PackageAllowLists}): the rules are generated from the sentences,
 * so the text and the code cannot drift apart. Every internal package of a library module has the
 * sentence.
 */
class PackageDependencyRulesTests {

  private static final Map<String, Set<String>> ALLOW_LISTS = PackageAllowLists.read();

  @TestFactory
  Stream<DynamicTest> eachPackageDependsOnlyOnWhatItsPackageInfoAllows() {
    return ALLOW_LISTS.entrySet().stream()
        .map(
            e ->
                dynamicTest(
                    e.getKey() + " may depend on " + e.getValue(),
                    () -> rule(e.getKey(), e.getValue()).check(ProjectClasses.MAIN)));
  }

  @Test
  void everyInternalPackageSaysWhatItMayDependOn() {
    Set<String> silent = new TreeSet<>();
    for (JavaClass c : ProjectClasses.MAIN) {
      String pkg = c.getPackageName();
      if (pkg.contains(".internal") && !ALLOW_LISTS.containsKey(pkg)) {
        silent.add(pkg);
      }
    }
    assertEquals(Set.of(), silent, "internal packages whose package-info has no allow-list");
  }

  @Test
  void everyPackageAnAllowListNamesExists() {
    Set<String> existing = new TreeSet<>();
    ProjectClasses.MAIN.forEach(c -> existing.add(c.getPackageName()));
    ALLOW_LISTS.forEach(
        (pkg, allowed) -> {
          assertTrue(existing.contains(pkg), pkg + " has no classes");
          for (String name : allowed) {
            assertTrue(existing.contains(name), "the package-info of " + pkg + " names " + name);
          }
        });
  }

  @Test
  void aSentenceResolvesSiblingsAndLeavesJdkModulesOut() {
    String source =
        """
        /**
         * Execution of op trees. May depend on {@code cuda.graph}, {@code
         * cuda.graph.spi}, {@code .ops} and {@code jdk.jfr}. Used by {@code .graph}.
         */
        package cuda.graph.internal.exec;
        """;

    assertEquals(
        Optional.of(Set.of("cuda.graph", "cuda.graph.spi", "cuda.graph.internal.ops")),
        PackageAllowLists.parse("cuda.graph.internal.exec", source));
    assertEquals(
        Optional.empty(),
        PackageAllowLists.parse("cuda.graph.internal.exec", "/** Depends on {@code .ops}. */"),
        "only the one phrasing is read, so a package cannot state its list in a way no rule sees");
  }

  @Test
  void aGeneratedRuleFailsOnADependencyItsSentenceLeavesOut() {
    // exec's sentence once left out .events, which graph launches use: the rule would catch it.
    Set<String> withoutEvents = new TreeSet<>(ALLOW_LISTS.get("cuda.graph.internal.exec"));
    assertTrue(withoutEvents.remove("cuda.graph.internal.events"));

    var result = rule("cuda.graph.internal.exec", withoutEvents).evaluate(ProjectClasses.MAIN);

    assertTrue(result.hasViolation());
    assertTrue(
        result.getFailureReport().toString().contains("cuda.graph.internal.events."),
        result.getFailureReport().toString());
  }

  private static ArchRule rule(String pkg, Set<String> allowed) {
    return classes()
        .that()
        .resideInAPackage(pkg)
        .should()
        .onlyDependOnClassesThat(
            DescribedPredicate.describe(
                "are outside the project, or in " + pkg + " or " + allowed,
                c ->
                    !ProjectClasses.inProject(c)
                        || c.getPackageName().equals(pkg)
                        || allowed.contains(c.getPackageName())))
        .because("the package-info of " + pkg + " says what it may depend on");
  }
}
