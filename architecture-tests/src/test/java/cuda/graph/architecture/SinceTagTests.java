// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static cuda.graph.architecture.RepositoryFiles.ROOT;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Every public type of a package a library module exports says, with {@code @since} in its Javadoc,
 * the version that first shipped it: the stability marker users read before they depend on a type.
 * Nested public types count too (members of interfaces are public without the word). The types come
 * from the compiled classes; their Javadoc from the sources beside them.
 *
 * <p>Every {@code @since} in those sources, on members too, names a release that CHANGELOG.md
 * records or the version this build makes (the root pom's, less {@code -SNAPSHOT}: the release that
 * will first ship what is added now), so a typo, a snapshot or a version still to come fails.
 */
class SinceTagTests {

  private static final Pattern SINCE = Pattern.compile("(?m)^\\s*\\*?\\s*@since\\s+\\S");

  /** A {@code @since} line of a Javadoc comment (a one-line comment too), and its version. */
  static final Pattern SINCE_VERSION =
      Pattern.compile("(?m)^\\s*(?:/\\*\\*|\\*)?\\s*@since\\s+(\\S+)");

  /** MAJOR.MINOR.PATCH, the form of a release's version. */
  private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

  /** A release's heading in CHANGELOG.md: {@code ## [0.1.0] - 2026-12-04}. */
  private static final Pattern CHANGELOG_RELEASE =
      Pattern.compile("(?m)^## \\[(\\d+\\.\\d+\\.\\d+)\\] - \\d{4}-\\d{2}-\\d{2}$");

  @Test
  void everyPublicTypeOfAnExportedPackageSaysSinceWhenInItsJavadoc() {
    Set<String> exported = new TreeSet<>();
    for (ModuleDescriptor module : LibraryModules.descriptors()) {
      module.exports().stream()
          .filter(e -> !e.isQualified())
          .forEach(e -> exported.add(e.source()));
    }
    Set<String> versions = sinceVersions(buildVersion(), text(ROOT.resolve("CHANGELOG.md")));
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
    for (Path file : sources.keySet()) {
      for (String tag : unknownSinceVersions(text(file), versions)) {
        problems.add(name(file) + ":" + tag);
      }
    }
    problems.sort(null);
    assertEquals(
        List.of(),
        problems,
        "public types of exported packages must end their Javadoc with '@since VERSION', the"
            + " release that first shipped them (0.1.0 for the first), one of "
            + versions);
  }

  @Test
  void sinceMayNameAReleaseOrTheVersionBeingBuiltAndNothingElse() {
    String changelog =
        """
        ## [Unreleased]

        ## [0.2.0] - 2027-01-10

        ## [0.1.0] - 2026-12-04

        [0.1.0]: https://github.com/cudagraph/cuda-graph/releases/tag/v0.1.0
        """;
    Set<String> versions = sinceVersions("0.3.0-SNAPSHOT", changelog);
    assertEquals(Set.of("0.1.0", "0.2.0", "0.3.0"), versions);
    assertEquals(Set.of("0.1.0", "0.2.0"), sinceVersions("0.2.0", changelog), "at the release");

    String source =
        """
        /**
         * Released.
         *
         * @since 0.1.0
         */
        public interface A {
          /**
           * Added on the way to the next release.
           *
           * @since 0.3.0
           */
          void now();

          /** @since 0.4.0 */
          void future();

          /**
           * @since 0.3.0-SNAPSHOT
           * @since 0.1
           * @since TBD
           */
          void nonsense();
        }
        """;
    assertEquals(
        List.of(
            "14 @since 0.4.0 is neither a release of CHANGELOG.md nor this build's version",
            "18 @since 0.3.0-SNAPSHOT is neither a release of CHANGELOG.md nor this build's"
                + " version",
            "19 @since 0.1 is neither a release of CHANGELOG.md nor this build's version",
            "20 @since TBD is neither a release of CHANGELOG.md nor this build's version"),
        unknownSinceVersions(source, versions));
    assertEquals(List.of(), unknownSinceVersions("/** @since 0.2.0 */", versions));
    assertEquals(1, unknownSinceVersions("/** @since 9.9.9 */", versions).size(), "one-line");
  }

  @Test
  void aBuildVersionThatIsNoReleaseOrComesBeforeARecordedReleaseIsRefused() {
    String changelog = "## [0.2.0] - 2027-01-10\n";
    AssertionError before =
        assertThrows(AssertionError.class, () -> sinceVersions("0.1.0-SNAPSHOT", changelog));
    assertTrue(before.getMessage().contains("0.2.0"), before.getMessage());
    assertThrows(AssertionError.class, () -> sinceVersions("0.3-SNAPSHOT", changelog));
    assertThrows(AssertionError.class, () -> sinceVersions("latest", changelog));
  }

  /** {@return the root pom's own version}: the version the build makes */
  private static String buildVersion() {
    Element project = PinnedVersionsTests.parse(ROOT.resolve("pom.xml")).getDocumentElement();
    for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals("version")) {
        return e.getTextContent().strip();
      }
    }
    throw new AssertionError("the root pom.xml has no <version>");
  }

  /**
   * {@return the versions a {@code @since} may name}: the releases {@code changelog} records and
   * the version {@code pomVersion} makes, less {@code -SNAPSHOT}
   */
  static Set<String> sinceVersions(String pomVersion, String changelog) {
    String building = pomVersion.replaceFirst("-SNAPSHOT$", "");
    if (!RELEASE.matcher(building).matches()) {
      throw new AssertionError(
          "the build's version " + pomVersion + " is not MAJOR.MINOR.PATCH[-SNAPSHOT]");
    }
    Set<String> versions = new TreeSet<>();
    Matcher release = CHANGELOG_RELEASE.matcher(changelog);
    while (release.find()) {
      if (compareVersions(release.group(1), building) > 0) {
        throw new AssertionError(
            "CHANGELOG.md records release "
                + release.group(1)
                + ", later than the build's version "
                + pomVersion
                + ": set the poms' version past it");
      }
      versions.add(release.group(1));
    }
    versions.add(building);
    return versions;
  }

  /**
   * {@return "LINE @since VERSION ..." for each {@code @since} of {@code source} that names none of
   * {@code versions}}
   */
  static List<String> unknownSinceVersions(String source, Set<String> versions) {
    List<String> unknown = new ArrayList<>();
    Matcher since = SINCE_VERSION.matcher(source);
    while (since.find()) {
      if (!versions.contains(since.group(1))) {
        long line = source.substring(0, since.start(1)).lines().count();
        unknown.add(
            line
                + " @since "
                + since.group(1)
                + " is neither a release of CHANGELOG.md nor this build's version");
      }
    }
    return unknown;
  }

  private static int compareVersions(String a, String b) {
    Matcher x = RELEASE.matcher(a);
    Matcher y = RELEASE.matcher(b);
    if (!x.matches() || !y.matches()) {
      throw new AssertionError("not MAJOR.MINOR.PATCH: " + a + " or " + b);
    }
    for (int i = 1; i <= 3; i++) {
      int c = Integer.compare(Integer.parseInt(x.group(i)), Integer.parseInt(y.group(i)));
      if (c != 0) {
        return c;
      }
    }
    return 0;
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
  static boolean isPublicApi(JavaClass type) {
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
  static List<String> namePath(JavaClass type) {
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
  static Path sourceOf(JavaClass type) {
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
