// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The repository's files, for the conventions checked on the sources rather than the classes. */
final class RepositoryFiles {

  /** Repository root: the parent of this module's folder, where Maven runs the tests. */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  private RepositoryFiles() {}

  /**
   * Files under the root that {@code wanted} accepts, sorted; build output ({@code target}) and
   * folders whose name starts with a dot are left out, except {@code .ci}.
   */
  static List<Path> files(Predicate<Path> wanted) {
    List<Path> found = new ArrayList<>();
    try {
      Files.walkFileTree(
          ROOT,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
              String name = dir.getFileName().toString();
              boolean skipped =
                  name.equals("target") || (name.startsWith(".") && !name.equals(".ci"));
              return !dir.equals(ROOT) && skipped
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile() && wanted.test(file)) {
                found.add(file);
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    found.sort(null);
    return found;
  }

  /** Files under the root whose name ends with {@code suffix}. */
  static List<Path> filesEndingWith(String suffix) {
    return files(p -> p.getFileName().toString().endsWith(suffix));
  }

  static String text(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The path relative to the root, as messages show it. */
  static String name(Path path) {
    return ROOT.relativize(path).toString();
  }
}
