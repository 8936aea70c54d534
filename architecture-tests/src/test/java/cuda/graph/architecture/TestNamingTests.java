// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One test naming convention in every module, Java and Kotlin: a class that declares tests is named
 * for what it tests and ends in {@code Tests}.
 */
class TestNamingTests {

  private static final List<String> TEST_ANNOTATIONS =
      List.of(
          "org.junit.jupiter.api.Test",
          "org.junit.jupiter.params.ParameterizedTest",
          "net.jqwik.api.Property",
          "net.jqwik.api.Example");

  @Test
  void everyTopLevelClassThatDeclaresTestsEndsInTests() {
    classes()
        .that(declareTests())
        .and()
        .areTopLevelClasses()
        .should()
        .haveSimpleNameEndingWith("Tests")
        .check(compiledTests());
  }

  private static DescribedPredicate<JavaClass> declareTests() {
    return DescribedPredicate.describe(
        "declare tests",
        c ->
            c.getMethods().stream()
                .anyMatch(m -> TEST_ANNOTATIONS.stream().anyMatch(m::isAnnotatedWith)));
  }

  /** The compiled tests of every module of the reactor that has run its tests before this one. */
  private static JavaClasses compiledTests() {
    Path root = Path.of("").toAbsolutePath().getParent();
    try (Stream<Path> modules = Files.list(root)) {
      List<Path> dirs =
          modules.map(m -> m.resolve("target/test-classes")).filter(Files::isDirectory).toList();
      return new ClassFileImporter().importPaths(dirs);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
