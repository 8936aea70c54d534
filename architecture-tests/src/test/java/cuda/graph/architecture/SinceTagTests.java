// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static cuda.graph.architecture.RepositoryFiles.name;
import static cuda.graph.architecture.RepositoryFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import java.lang.module.ModuleDescriptor;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every public type of a package a library module exports says, with {@code @since} in its Javadoc,
 * the version that first shipped it: the stability marker users read before they depend on a type.
 * Nested public types count too (members of interfaces are public without the word). The types come
 * from the compiled classes; their Javadoc from the sources beside them.
 */
class SinceTagTests {

  private static final Pattern SINCE = Pattern.compile("(?m)^\\s*\\*?\\s*@since\\s+\\S");

  @Test
  void everyPublicTypeOfAnExportedPackageSaysSinceWhenInItsJavadoc() {
    Set<String> exported = new TreeSet<>();
    for (ModuleDescriptor module : LibraryModules.descriptors()) {
      module.exports().stream()
          .filter(e -> !e.isQualified())
          .forEach(e -> exported.add(e.source()));
    }
    Map<Path, TypeJavadocs> sources = new HashMap<>();
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (JavaClass type : ProjectClasses.MAIN) {
      if (!exported.contains(type.getPackageName()) || !isPublicApi(type)) {
        continue;
      }
      checked++;
      Path file = sourceOf(type);
      TypeJavadocs.Declaration declaration =
          sources.computeIfAbsent(file, f -> new TypeJavadocs(text(f))).find(namePath(type));
      String where = name(file) + ":" + declaration.line() + " " + type.getName();
      Optional<String> javadoc = declaration.javadoc();
      if (javadoc.isEmpty()) {
        problems.add(where + " has no Javadoc");
      } else if (!SINCE.matcher(javadoc.get()).find()) {
        problems.add(where + " has no @since");
      }
    }
    assertTrue(checked > 50, "found only " + checked + " public types in " + exported);
    problems.sort(null);
    assertEquals(
        List.of(),
        problems,
        "public types of exported packages must end their Javadoc with '@since VERSION', the"
            + " release that first shipped them (0.1.0 for the first)");
  }

  @Test
  void theJavadocOfEachDeclarationIsFoundAndAMissingSinceShows() {
    var source =
        new TypeJavadocs(
            """
            package p;

            import java.util.List;

            /**
             * Outer.
             *
             * @since 0.1.0
             */
            @Deprecated(since = "x")
            public final class Outer {
              /** A string with "class Inner" and a comment: class Inner. */
              static final String S = "class Inner {";

              /** Mid, without the tag. */
              public interface Mid {
                /**
                 * The Inner of Mid.
                 *
                 * @since 0.2.0
                 */
                record Inner(int a) {}
              }

              public enum Inner { A }
            }
            """);

    var outer = source.find(List.of("Outer"));
    var mid = source.find(List.of("Outer", "Mid"));
    var midInner = source.find(List.of("Outer", "Mid", "Inner"));
    var outerInner = source.find(List.of("Outer", "Inner"));

    assertEquals(11, outer.line());
    assertTrue(SINCE.matcher(outer.javadoc().orElseThrow()).find(), "Outer says @since");
    assertFalse(SINCE.matcher(mid.javadoc().orElseThrow()).find(), "Mid does not");
    assertTrue(midInner.javadoc().orElseThrow().contains("@since 0.2.0"), midInner.toString());
    assertEquals(25, outerInner.line(), "the enum, not the record nested deeper or the string");
    assertEquals(Optional.empty(), outerInner.javadoc());
    assertThrows(AssertionError.class, () -> source.find(List.of("Outer", "Missing")));
  }

  /** Public, and so are the types around it; not anonymous, local or synthetic. */
  private static boolean isPublicApi(JavaClass type) {
    if (type.isAnonymousClass() || type.isLocalClass() || type.getSimpleName().isEmpty()) {
      return false;
    }
    for (JavaClass c = type; c != null; c = c.getEnclosingClass().orElse(null)) {
      if (!c.getModifiers().contains(JavaModifier.PUBLIC)
          || c.getModifiers().contains(JavaModifier.SYNTHETIC)) {
        return false;
      }
    }
    return true;
  }

  /** The simple names from the top-level type down to {@code type}. */
  private static List<String> namePath(JavaClass type) {
    List<String> path = new ArrayList<>();
    for (JavaClass c = type; c != null; c = c.getEnclosingClass().orElse(null)) {
      path.addFirst(c.getSimpleName());
    }
    return path;
  }

  /**
   * The source of {@code type}: its module's {@code src/main/java}, found from its class file or
   * jar, which are in the module's {@code target}.
   */
  private static Path sourceOf(JavaClass type) {
    URI classFile =
        type.getSource()
            .orElseThrow(() -> new AssertionError("no class file for " + type.getName()))
            .getUri();
    if (classFile.getScheme().equals("jar")) {
      // In a reactor build past package the classes come from the module's jar: jar:file:...!/...
      String jar = classFile.getRawSchemeSpecificPart();
      classFile = URI.create(jar.substring(0, jar.indexOf("!/")));
    }
    Path module = Path.of(classFile);
    while (module != null && !module.getFileName().toString().equals("target")) {
      module = module.getParent();
    }
    if (module == null) {
      throw new AssertionError(type.getName() + " was not read from a module's target folder");
    }
    Path file =
        module
            .getParent()
            .resolve("src/main/java")
            .resolve(type.getPackageName().replace('.', '/'))
            .resolve(type.getSourceCodeLocation().getSourceFileName());
    assertTrue(Files.isRegularFile(file), "no source " + file + " for " + type.getName());
    return file;
  }
}
