// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What each package of the project may depend on, as its {@code package-info.java} says in one
 * sentence: "May depend on {@code cuda.graph}, {@code cuda.graph.spi}, {@code .ops} and {@code
 * .runtime}." A name that starts with a dot is a sibling package (here {@code
 * cuda.graph.internal.ops}); a name outside {@code cuda.graph} (a JDK module such as {@code
 * jdk.jfr}) constrains nothing here; a sentence that names no package of the project allows none.
 * The sentence is the allow-list: a rule generated from it holds the package's classes to it.
 */
final class PackageAllowLists {

  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern JAVADOC = Pattern.compile("(?s)/\\*\\*(.*?)\\*/");
  private static final Pattern SENTENCE = Pattern.compile("(?s)May depend on\\b(.*?)\\.(?=\\s|$)");
  private static final Pattern CODE = Pattern.compile("\\{@code\\s+([^}]*?)\\s*}");

  private PackageAllowLists() {}

  /**
   * {@return the allow-list of every package whose package-info has the sentence, by package} read
   * from the main sources of every module of the reactor
   */
  static Map<String, Set<String>> read() {
    Path root = Path.of("").toAbsolutePath().getParent();
    Map<String, Set<String>> lists = new TreeMap<>();
    for (Path source : packageInfos(root)) {
      String text = readString(source);
      Matcher pkg = PACKAGE.matcher(text);
      if (!pkg.find()) {
        throw new AssertionError(source + " declares no package");
      }
      parse(pkg.group(1), text).ifPresent(allowed -> lists.put(pkg.group(1), allowed));
    }
    return lists;
  }

  /**
   * {@return the project packages the Javadoc of package {@code pkg} allows it to depend on, or
   * empty if its Javadoc has no "May depend on" sentence}
   *
   * @param pkg the package the package-info declares
   * @param source the text of its package-info.java
   */
  static Optional<Set<String>> parse(String pkg, String source) {
    Matcher doc = JAVADOC.matcher(source);
    if (!doc.find()) {
      return Optional.empty();
    }
    String text = doc.group(1).replaceAll("(?m)^\\s*\\*", " ").replaceAll("\\s+", " ");
    Matcher sentence = SENTENCE.matcher(text);
    if (!sentence.find()) {
      return Optional.empty();
    }
    Set<String> allowed = new TreeSet<>();
    Matcher code = CODE.matcher(sentence.group(1));
    while (code.find()) {
      String name = code.group(1);
      if (name.startsWith(".")) {
        allowed.add(pkg.substring(0, pkg.lastIndexOf('.')) + name);
      } else if (name.equals("cuda.graph") || name.startsWith("cuda.graph.")) {
        allowed.add(name);
      }
    }
    return Optional.of(allowed);
  }

  private static Iterable<Path> packageInfos(Path root) {
    try (Stream<Path> modules = Files.list(root)) {
      var found = new ArrayList<Path>();
      for (Path sources : modules.map(m -> m.resolve("src/main/java")).toList()) {
        if (Files.isDirectory(sources)) {
          try (Stream<Path> files = Files.walk(sources)) {
            files
                .filter(f -> f.getFileName().toString().equals("package-info.java"))
                .forEach(found::add);
          }
        }
      }
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
