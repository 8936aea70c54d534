// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a release bundle (repository layout, as the release profile lays it out in
 * target/central-bundle) against what Maven Central requires and what this project publishes; run
 * by scripts/release-check.sh, which also verifies the signatures with gpg.
 *
 * <p>Checked: the bundle holds exactly the artifacts of the BOM and the BOM itself, and those are
 * exactly the modules whose POM sets {@code publication.skip} to false (so an unpublished module
 * never reaches it, and a published one is never left out); each jar artifact has its POM, jar,
 * sources and javadoc jars and Gradle module metadata, the BOM its POM; every file has an {@code
 * .asc}, an {@code .md5} and a {@code .sha1} that match; each POM has the coordinates of its path,
 * the name, description, URL, licence, developer and SCM Central asks for, and no parent, build,
 * profiles, repositories, properties or unresolved expression (the BOM keeps its dependency
 * management, whose versions are {@code ${project.version}}); each jar POM carries Gradle's marker
 * and its module file says {@code org.gradle.jvm.version} 25 in its library variants and lists the
 * files with their sizes and hashes; the jars are not empty, the sources jar holds sources, the
 * javadoc jar an index.html.
 *
 * <p>Usage: {@code java CheckBundle.java ROOT BUNDLE}: ROOT the repository (its pom.xml and
 * bom/pom.xml), BUNDLE the bundle's directory. Prints one line per artifact and the problems;
 * exits 1 if there is any.
 */
public class CheckBundle {

  static final List<String> problems = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: java CheckBundle.java ROOT BUNDLE");
      System.exit(2);
    }
    Path root = Path.of(args[0]);
    Path bundle = Path.of(args[1]);
    Element bom = parse(root.resolve("bom/pom.xml"));
    String group = text(bom, "groupId");
    String version = text(bom, "version");

    Set<String> inBom = new TreeSet<>();
    for (Element d : all(child(child(bom, "dependencyManagement"), "dependencies"), "dependency")) {
      if (text(d, "groupId").equals(group)) {
        inBom.add(text(d, "artifactId"));
      }
    }
    Set<String> publishedModules = new TreeSet<>();
    Set<String> unpublishedModules = new TreeSet<>();
    for (Element m : all(child(parse(root.resolve("pom.xml")), "modules"), "module")) {
      Element pom = parse(root.resolve(m.getTextContent().strip()).resolve("pom.xml"));
      Element properties = child(pom, "properties");
      Element skip = properties == null ? null : child(properties, "publication.skip");
      String artifact = text(pom, "artifactId");
      if (artifact.equals(text(bom, "artifactId"))) {
        continue;
      }
      if (skip != null && skip.getTextContent().strip().equals("false")) {
        publishedModules.add(artifact);
      } else {
        unpublishedModules.add(artifact);
      }
    }
    if (!publishedModules.equals(inBom)) {
      problem(
          "the modules that set publication.skip to false "
              + publishedModules
              + " are not the BOM's artifacts "
              + inBom
              + ": add a published module to bom/pom.xml, or publish what the BOM lists");
    }

    Path dir = bundle.resolve(group.replace('.', '/'));
    Set<String> bundled = new TreeSet<>();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> s = Files.list(dir)) {
        s.forEach(p -> bundled.add(p.getFileName().toString()));
      }
    }
    Set<String> expected = new TreeSet<>(inBom);
    expected.add(text(bom, "artifactId"));
    if (!bundled.equals(expected)) {
      Set<String> extra = new TreeSet<>(bundled);
      extra.removeAll(expected);
      Set<String> missing = new TreeSet<>(expected);
      missing.removeAll(bundled);
      problem("the bundle's artifacts are not the published ones: extra " + extra
          + ", missing " + missing);
    }
    for (String unpublished : unpublishedModules) {
      if (bundled.contains(unpublished)) {
        problem(unpublished + " is not published but is in the bundle");
      }
    }
    try (Stream<Path> s = Files.list(bundle)) {
      s.filter(p -> !dir.startsWith(p))
          .forEach(p -> problem("the bundle holds " + p + ", outside " + dir));
    }

    int files = 0;
    for (String artifact : expected) {
      if (!bundled.contains(artifact)) {
        continue;
      }
      boolean isBom = artifact.equals(text(bom, "artifactId"));
      files += checkArtifact(dir.resolve(artifact).resolve(version), group, artifact, version, isBom);
    }
    if (version.endsWith("-SNAPSHOT")) {
      System.out.println(
          "note: version "
              + version
              + " is a snapshot; Maven Central's release upload takes release versions only, so"
              + " set the version before a release");
    }
    if (problems.isEmpty()) {
      System.out.println(
          "bundle check: "
              + expected.size()
              + " artifacts, "
              + files
              + " files, each with a signature and checksums; POMs flattened; no problem");
    } else {
      problems.forEach(p -> System.out.println("PROBLEM: " + p));
      System.out.println("bundle check: " + problems.size() + " problem(s)");
      System.exit(1);
    }
  }

  /** {@return how many files (not signatures or checksums) the artifact has} */
  static int checkArtifact(Path dir, String group, String artifact, String version, boolean isBom)
      throws Exception {
    String base = artifact + "-" + version;
    List<String> names =
        isBom
            ? List.of(base + ".pom")
            : List.of(
                base + ".pom",
                base + ".jar",
                base + "-sources.jar",
                base + "-javadoc.jar",
                base + ".module");
    Set<String> allowed = new TreeSet<>();
    for (String name : names) {
      allowed.add(name);
      allowed.add(name + ".asc");
      allowed.add(name + ".md5");
      allowed.add(name + ".sha1");
    }
    Set<String> present = new TreeSet<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> present.add(p.getFileName().toString()));
    }
    Set<String> missing = new TreeSet<>(allowed);
    missing.removeAll(present);
    Set<String> extra = new TreeSet<>(present);
    extra.removeAll(allowed);
    if (!missing.isEmpty()) {
      problem(artifact + " lacks " + missing);
    }
    if (!extra.isEmpty()) {
      problem(artifact + " has files Central does not expect: " + extra);
    }
    for (String name : names) {
      Path file = dir.resolve(name);
      if (!Files.isRegularFile(file)) {
        continue;
      }
      byte[] bytes = Files.readAllBytes(file);
      checksum(file, bytes, "MD5", ".md5");
      checksum(file, bytes, "SHA-1", ".sha1");
    }
    Path pom = dir.resolve(base + ".pom");
    if (Files.isRegularFile(pom)) {
      checkPom(pom, group, artifact, version, isBom);
    }
    if (!isBom) {
      checkJars(dir, base);
      Path module = dir.resolve(base + ".module");
      if (Files.isRegularFile(module)) {
        checkModule(module, dir, group, artifact, version);
      }
    }
    List<String> kinds = names.stream().map(n -> n.substring(base.length())).toList();
    System.out.println(
        "  "
            + artifact
            + ": "
            + String.join(" ", kinds)
            + (missing.isEmpty() && extra.isEmpty() ? ", each with .asc .md5 .sha1" : ""));
    return names.size();
  }

  static void checksum(Path file, byte[] bytes, String algorithm, String extension)
      throws Exception {
    Path sum = file.resolveSibling(file.getFileName() + extension);
    if (!Files.isRegularFile(sum)) {
      return;
    }
    String expected = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    String actual = Files.readString(sum).strip().split("\\s+")[0];
    if (!expected.equalsIgnoreCase(actual)) {
      problem(sum.getFileName() + " does not match " + file.getFileName());
    }
  }

  static final Set<String> REQUIRED =
      Set.of("name", "description", "url", "licenses", "developers", "scm");
  static final Set<String> FORBIDDEN =
      Set.of(
          "parent",
          "build",
          "profiles",
          "repositories",
          "pluginRepositories",
          "properties",
          "reporting",
          "distributionManagement",
          "modules");

  static void checkPom(Path path, String group, String artifact, String version, boolean isBom)
      throws Exception {
    String name = path.getFileName().toString();
    Element pom = parse(path);
    for (String element : REQUIRED) {
      Element e = child(pom, element);
      if (e == null || e.getTextContent().isBlank()) {
        problem(name + " has no " + element + ", which Maven Central requires");
      }
    }
    Element scm = child(pom, "scm");
    if (scm != null && (child(scm, "connection") == null || child(scm, "url") == null)) {
      problem(name + ": scm needs a connection and a url");
    }
    for (String element : FORBIDDEN) {
      if (child(pom, element) != null) {
        problem(name + " has a <" + element + ">: the published POM is the flattened one");
      }
    }
    if (!isBom && child(pom, "dependencyManagement") != null) {
      problem(name + " has a <dependencyManagement>: the published POM is the flattened one");
    }
    Element groupId = child(pom, "groupId");
    if (groupId == null
        || !groupId.getTextContent().strip().equals(group)
        || !text(pom, "artifactId").equals(artifact)
        || !text(pom, "version").equals(version)) {
      problem(name + " does not name " + group + ":" + artifact + ":" + version);
    }
    String text = Files.readString(path, StandardCharsets.UTF_8);
    String unresolved = text.replace("${project.version}", isBom ? "" : "${project.version}");
    if (unresolved.contains("${")) {
      problem(name + " has an unresolved ${...} expression");
    }
    if (!isBom && !text.contains("<!-- do_not_remove: published-with-gradle-metadata -->")) {
      problem(name + " lacks Gradle's marker, so Gradle would not read the module file");
    }
  }

  static void checkJars(Path dir, String base) throws IOException {
    checkJar(dir.resolve(base + ".jar"), n -> n.endsWith(".class"), "classes");
    checkJar(
        dir.resolve(base + "-sources.jar"),
        n -> n.endsWith(".java") || n.endsWith(".kt"),
        "sources");
    checkJar(dir.resolve(base + "-javadoc.jar"), n -> n.equals("index.html"), "an index.html");
  }

  static void checkJar(Path jar, java.util.function.Predicate<String> wanted, String what)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      return;
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      if (file.stream().noneMatch(e -> wanted.test(e.getName()))) {
        problem(jar.getFileName() + " holds no " + what);
      }
    }
  }

  @SuppressWarnings("unchecked")
  static void checkModule(Path path, Path dir, String group, String artifact, String version)
      throws Exception {
    String name = path.getFileName().toString();
    Object parsed;
    try {
      parsed = new Json(Files.readString(path, StandardCharsets.UTF_8)).value();
    } catch (IllegalArgumentException e) {
      problem(name + " is not JSON: " + e.getMessage());
      return;
    }
    Map<String, Object> module = (Map<String, Object>) parsed;
    Map<String, Object> component = (Map<String, Object>) module.get("component");
    if (component == null
        || !group.equals(component.get("group"))
        || !artifact.equals(component.get("module"))
        || !version.equals(component.get("version"))) {
      problem(name + " does not name " + group + ":" + artifact + ":" + version);
    }
    int libraries = 0;
    for (Object v : (List<Object>) module.getOrDefault("variants", List.of())) {
      Map<String, Object> variant = (Map<String, Object>) v;
      Map<String, Object> attributes = (Map<String, Object>) variant.get("attributes");
      if ("library".equals(attributes.get("org.gradle.category"))) {
        libraries++;
        if (!Double.valueOf(25).equals(attributes.get("org.gradle.jvm.version"))) {
          problem(
              name
                  + ": variant "
                  + variant.get("name")
                  + " says org.gradle.jvm.version "
                  + attributes.get("org.gradle.jvm.version")
                  + ", not 25");
        }
      }
      for (Object f : (List<Object>) variant.getOrDefault("files", List.of())) {
        Map<String, Object> file = (Map<String, Object>) f;
        Path listed = dir.resolve((String) file.get("url"));
        if (!Files.isRegularFile(listed)) {
          problem(name + " lists " + file.get("url") + ", which is not in the bundle");
          continue;
        }
        byte[] bytes = Files.readAllBytes(listed);
        String sha256 =
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        if (!Double.valueOf(bytes.length).equals(file.get("size"))
            || !sha256.equals(file.get("sha256"))) {
          problem(name + ": the size or sha256 of " + file.get("url") + " does not match");
        }
      }
    }
    if (libraries != 2) {
      problem(name + " has " + libraries + " library variants, not 2 (api and runtime)");
    }
  }

  // ---- XML and JSON, with the JDK alone

  static Element parse(Path path) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document doc = factory.newDocumentBuilder().parse(path.toFile());
    return doc.getDocumentElement();
  }

  static Element child(Element parent, String name) {
    if (parent == null) {
      return null;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getLocalName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  static List<Element> all(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    if (parent == null) {
      return out;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getLocalName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? "" : e.getTextContent().strip();
  }

  static void problem(String text) {
    problems.add(text);
  }

  /** A JSON reader for the module file: objects, arrays, strings, numbers (as Double), literals. */
  static final class Json {
    private final String s;
    private int i;

    Json(String s) {
      this.s = s;
    }

    Object value() {
      Object v = read();
      space();
      if (i != s.length()) {
        throw new IllegalArgumentException("text after the value at " + i);
      }
      return v;
    }

    private Object read() {
      space();
      if (i >= s.length()) {
        throw new IllegalArgumentException("unexpected end");
      }
      char c = s.charAt(i);
      switch (c) {
        case '{' -> {
          i++;
          Map<String, Object> map = new LinkedHashMap<>();
          space();
          if (peek('}')) {
            return map;
          }
          do {
            space();
            Object key = read();
            if (!(key instanceof String k)) {
              throw new IllegalArgumentException("a key that is not a string at " + i);
            }
            space();
            expect(':');
            map.put(k, read());
            space();
          } while (peek(','));
          expect('}');
          return map;
        }
        case '[' -> {
          i++;
          List<Object> list = new ArrayList<>();
          space();
          if (peek(']')) {
            return list;
          }
          do {
            list.add(read());
            space();
          } while (peek(','));
          expect(']');
          return list;
        }
        case '"' -> {
          StringBuilder out = new StringBuilder();
          i++;
          while (s.charAt(i) != '"') {
            char ch = s.charAt(i++);
            if (ch == '\\') {
              char e = s.charAt(i++);
              switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                  out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                  i += 4;
                }
                default -> out.append(e);
              }
            } else {
              out.append(ch);
            }
          }
          i++;
          return out.toString();
        }
        default -> {
          int start = i;
          while (i < s.length() && ",}] \n\r\t".indexOf(s.charAt(i)) < 0) {
            i++;
          }
          String word = s.substring(start, i);
          return switch (word) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            case "null" -> null;
            default -> {
              try {
                yield Double.valueOf(word);
              } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a value: " + word);
              }
            }
          };
        }
      }
    }

    private void space() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    private boolean peek(char c) {
      if (i < s.length() && s.charAt(i) == c) {
        i++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw new IllegalArgumentException("expected '" + c + "' at " + i);
      }
    }
  }
}
