// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An op does nothing until it is executed, so a public method that builds one says so to the
 * compiler: Error Prone and IntelliJ IDEA flag a call of a {@code @CheckReturnValue} method used as
 * a statement ({@code y.fill(5f);}). This rule keeps every such method of every exported package
 * annotated, new ones included.
 */
class OpResultRulesTests {

  private static final JavaClasses LIBRARY =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("cuda.graph");

  private static final Set<String> EXPORTED = LibraryModules.exportedPackages();

  @Test
  void everyPublicMethodThatReturnsAnOpAsksForItsResultToBeUsed() {
    methods()
        .that(arePublicMethodsOfPublicTypesIn(EXPORTED))
        .and(returnAnOp())
        .should()
        .beAnnotatedWith("cuda.graph.CheckReturnValue")
        .because("an op built and dropped does nothing, and nothing says so at run time")
        .check(LIBRARY);
  }

  private static DescribedPredicate<JavaMethod> arePublicMethodsOfPublicTypesIn(
      Set<String> packages) {
    return DescribedPredicate.describe(
        "public methods of public types of exported packages",
        m ->
            m.getModifiers().contains(JavaModifier.PUBLIC)
                && !m.getModifiers().contains(JavaModifier.SYNTHETIC)
                && !m.getModifiers().contains(JavaModifier.BRIDGE)
                && m.getOwner().getModifiers().contains(JavaModifier.PUBLIC)
                && packages.contains(m.getOwner().getPackageName()));
  }

  private static DescribedPredicate<JavaMethod> returnAnOp() {
    return DescribedPredicate.describe(
        "return a cuda.graph.DeviceOp",
        m -> m.getRawReturnType().isAssignableTo("cuda.graph.DeviceOp"));
  }
}
