// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static cuda.graph.architecture.RepositoryFiles.ROOT;
import static cuda.graph.architecture.RepositoryFiles.files;
import static cuda.graph.architecture.RepositoryFiles.name;
import static cuda.graph.architecture.RepositoryFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every source file says its licence in its first lines: {@code SPDX-License-Identifier:
 * Apache-2.0} and the copyright line, as comments of its language. Spotless adds and checks the
 * header ({@code ./mvnw spotless:apply}, configured in the root pom) where its includes reach; this
 * test holds every kind wherever it is. Generated PTX, test data and Markdown carry no header.
 */
class LicenseHeaderTests {

  static final String SPDX = "SPDX-License-Identifier: Apache-2.0";
  static final String COPYRIGHT = "Copyright 2026 the cuda-graph authors";

  /** File name endings of source files; {@code pom.xml} and {@code .ci/run} are named below. */
  private static final Set<String> SOURCE_ENDINGS =
      Set.of(".java", ".kt", ".kts", ".cu", ".cuh", ".c", ".proto", ".sh", ".py");

  @Test
  void everySourceFileStartsWithTheSpdxLineAndTheCopyright() {
    List<Path> sources = files(LicenseHeaderTests::isSource);
    assertTrue(
        sources.size() > 100, "found only " + sources.size() + " source files under " + ROOT);
    List<String> missing =
        sources.stream().filter(f -> !hasHeader(text(f))).map(RepositoryFiles::name).toList();
    assertEquals(
        List.of(),
        missing,
        "source files without the licence header in their first three lines (after a #! or <?xml"
            + " line): run ./mvnw spotless:apply, or, for a file outside its includes (root"
            + " pom.xml), start the file with the two comment lines '"
            + SPDX
            + "' and '"
            + COPYRIGHT
            + "'");
  }

  @Test
  void theCheckTellsAHeaderFromItsAbsenceInEachCommentStyle() {
    assertTrue(hasHeader("// " + SPDX + "\n// " + COPYRIGHT + "\npackage a;\n"));
    assertTrue(hasHeader("#!/usr/bin/env bash\n# " + SPDX + "\n# " + COPYRIGHT + "\nset -e\n"));
    assertTrue(
        hasHeader("<?xml version=\"1.0\"?>\n<!-- " + SPDX + "\n     " + COPYRIGHT + " -->\n"));
    assertFalse(hasHeader("package a;\n\n// " + SPDX + "\n// " + COPYRIGHT + "\n"), "too late");
    assertFalse(hasHeader("// " + SPDX + "\npackage a;\n"), "no copyright");
    assertFalse(hasHeader("// Copyright 2026 someone else\n// " + SPDX + "\n"), "whose copyright");
  }

  /** Whether the SPDX line and the copyright line are among the first three lines. */
  static boolean hasHeader(String text) {
    List<String> first = text.lines().limit(3).toList();
    return first.stream().anyMatch(l -> l.contains(SPDX))
        && first.stream().anyMatch(l -> l.contains(COPYRIGHT));
  }

  private static boolean isSource(Path path) {
    String file = path.getFileName().toString();
    return file.equals("pom.xml")
        || name(path).equals(".ci/run")
        || SOURCE_ENDINGS.stream().anyMatch(file::endsWith);
  }
}
