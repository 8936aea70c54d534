// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The main classes of every module of the reactor, read once from the class path: the library
 * modules, the test kit, the Kotlin layer, the examples ({@code example}, {@code example.saxpy} and
 * {@code cuda.graph.examples..}) and the benchmarks. Tests are left out: they may use what main
 * code may not (the test kit above all).
 */
final class ProjectClasses {

  static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("cuda.graph", "example");

  private ProjectClasses() {}

  /** {@return whether {@code c} is one of the project's classes, not the JDK's or a library's} */
  static boolean inProject(JavaClass c) {
    String pkg = c.getPackageName();
    return pkg.equals("cuda.graph")
        || pkg.startsWith("cuda.graph.")
        || pkg.equals("example")
        || pkg.startsWith("example.");
  }
}
