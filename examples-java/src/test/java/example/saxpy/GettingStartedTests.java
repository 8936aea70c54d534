// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.saxpy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

/**
 * The build files the getting-started guide gives an application, the first program's run line, and
 * the README's dependency snippet name what this repository builds: its group, version and
 * published artifacts (those its BOM manages), its Java release and plugin versions, and the
 * example's module, main class and native-access flag. Nothing here runs Maven or Gradle; the files
 * are read as text and XML.
 */
class GettingStartedTests {

  private static final String GROUP = "io.github.cudagraph";
  private static final String DOC = "docs/guide/getting-started.md";

  /** The scope each artifact of the example has in Maven, and its Gradle configuration. */
  private static final Map<String, String> MAVEN_SCOPES =
      Map.of(
          "cuda-graph-api", "compile",
          "cuda-graph-driver", "runtime",
          "cuda-graph-simulator", "runtime");

  private static final Map<String, String> GRADLE_CONFIGURATIONS =
      Map.of(
          "cuda-graph-api", "implementation",
          "cuda-graph-driver", "runtimeOnly",
          "cuda-graph-simulator", "runtimeOnly");

  private static Element rootPom;
  private static Element bomPom;
  private static List<MarkdownBlocks.Block> doc;

  @BeforeAll
  static void readTheBuild() throws Exception {
    Path repository = MarkdownBlocks.repository();
    rootPom = parse(Files.readString(repository.resolve("pom.xml")), "pom.xml");
    bomPom = parse(Files.readString(repository.resolve("bom/pom.xml")), "bom/pom.xml");
    doc = MarkdownBlocks.of(DOC);
  }

  private static String version() {
    return text(rootPom, "version");
  }

  /** {@return the artifacts the BOM manages}: those an application may depend on */
  private static Set<String> published() {
    Set<String> artifacts = new TreeSet<>();
    Element managed = child(child(bomPom, "dependencyManagement"), "dependencies");
    for (Element dependency : children(managed, "dependency")) {
      assertEquals(GROUP, text(dependency, "groupId"));
      artifacts.add(text(dependency, "artifactId"));
    }
    return artifacts;
  }

  private static MarkdownBlocks.Block file(String name) {
    return doc.stream()
        .filter(block -> block.file().equals(java.util.Optional.of(name)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(DOC + " shows no " + name));
  }

  @Test
  void everyBlockOfTheGuideIsABuildFileOrTheRunLinesThisTestChecks() {
    List<String> shown = new ArrayList<>();
    for (MarkdownBlocks.Block block : doc) {
      shown.add(block.file().orElse(block.language().isEmpty() ? "commands" : block.language()));
    }
    assertEquals(
        List.of("pom.xml", "commands", "settings.gradle.kts", "build.gradle.kts"),
        shown,
        DOC + ": a block this test does not check (DocumentedCodeTests leaves them to it)");
  }

  @Test
  void thePomImportsThisVersionsBomAndDependsOnItsPublishedArtifacts() throws Exception {
    Element pom = parse(file("pom.xml").text(), DOC + " pom.xml");

    Element bom = child(child(child(pom, "dependencyManagement"), "dependencies"), "dependency");
    assertEquals(GROUP, text(bom, "groupId"));
    assertEquals(text(bomPom, "artifactId"), text(bom, "artifactId"));
    assertEquals(version(), text(bom, "version"), "the BOM's version is this build's");
    assertEquals(text(bomPom, "version"), text(bom, "version"));
    assertEquals("pom", text(bom, "type"));
    assertEquals("import", text(bom, "scope"));

    Map<String, String> scopes = new LinkedHashMap<>();
    for (Element dependency : children(child(pom, "dependencies"), "dependency")) {
      assertEquals(GROUP, text(dependency, "groupId"));
      assertTrue(
          children(dependency, "version").isEmpty(),
          "the BOM gives " + dependency + " its version");
      String scope =
          children(dependency, "scope").isEmpty() ? "compile" : text(dependency, "scope");
      scopes.put(text(dependency, "artifactId"), scope);
    }
    assertEquals(MAVEN_SCOPES, scopes);
    assertTrue(published().containsAll(scopes.keySet()), published() + " lacks one of " + scopes);
  }

  @Test
  void thePomCompilesForThisBuildsReleaseWithThisBuildsPluginVersions() throws Exception {
    Element pom = parse(file("pom.xml").text(), DOC + " pom.xml");
    String release = text(child(rootPom, "properties"), "maven.compiler.release");
    assertEquals(release, text(child(pom, "properties"), "maven.compiler.release"));

    Map<String, String> ours = new LinkedHashMap<>();
    for (Element plugin :
        children(child(child(child(rootPom, "build"), "pluginManagement"), "plugins"), "plugin")) {
      ours.put(text(plugin, "artifactId"), text(plugin, "version"));
    }
    List<Element> plugins = children(child(child(pom, "build"), "plugins"), "plugin");
    assertTrue(plugins.size() >= 2, "the compiler and dependency plugins");
    for (Element plugin : plugins) {
      String artifact = text(plugin, "artifactId");
      assertEquals(
          ours.get(artifact), text(plugin, "version"), artifact + ": the version this build uses");
    }

    // What `mvn package` copies, and where: the java line's module path reads target/dependency.
    Element copy = children(child(plugins.get(1), "executions"), "execution").getFirst();
    assertEquals("maven-dependency-plugin", text(plugins.get(1), "artifactId"));
    assertEquals("package", text(copy, "phase"));
    assertEquals("copy-dependencies", text(child(copy, "goals"), "goal"));
    assertEquals("runtime", text(child(copy, "configuration"), "includeScope"));
    assertTrue(children(child(copy, "configuration"), "outputDirectory").isEmpty());
  }

  @Test
  void theRunLineIsTheFirstProgramsAndNamesTheExamplesModuleAndMainClass() throws Exception {
    String firstProgramJava =
        javaLine(MarkdownBlocks.of("docs/guide/first-program.md"), "the first program's guide");
    String docJava = javaLine(doc, DOC);
    assertEquals(firstProgramJava, docJava);
    assertTrue(docJava.contains(" -m " + exampleModule() + "/" + Saxpy.class.getName()), docJava);
    assertTrue(docJava.contains(" -p target/classes:target/dependency "), docJava);
    assertTrue(docJava.startsWith("java " + nativeAccess() + " "), docJava);
  }

  @Test
  void theGradleBuildNamesTheSameArtifactsVersionReleaseModuleAndFlag() throws IOException {
    String gradle = file("build.gradle.kts").text();

    Matcher bom =
        Pattern.compile("implementation\\(platform\\(\"" + GROUP + ":([\\w-]+):([^\"]+)\"\\)\\)")
            .matcher(gradle);
    assertTrue(bom.find(), "the Gradle build imports the BOM as a platform");
    assertEquals(text(bomPom, "artifactId"), bom.group(1));
    assertEquals(version(), bom.group(2));

    Map<String, String> configurations = new LinkedHashMap<>();
    Matcher dependency = Pattern.compile("(\\w+)\\(\"" + GROUP + ":([\\w-]+)\"\\)").matcher(gradle);
    while (dependency.find()) {
      configurations.put(dependency.group(2), dependency.group(1));
    }
    assertEquals(GRADLE_CONFIGURATIONS, configurations);

    String release = text(child(rootPom, "properties"), "maven.compiler.release");
    assertTrue(gradle.contains("JavaLanguageVersion.of(" + release + ")"), "the Java release");
    assertTrue(gradle.contains("mainModule = \"" + exampleModule() + "\""), "the module");
    assertTrue(gradle.contains("mainClass = \"" + Saxpy.class.getName() + "\""), "the main class");
    assertTrue(
        gradle.contains("applicationDefaultJvmArgs = listOf(\"" + nativeAccess() + "\")"),
        "the native-access flag");
    assertTrue(file("settings.gradle.kts").text().contains("rootProject.name = \"saxpy\""));
  }

  @Test
  void theReadmesDependencySnippetNamesThisVersionAndTheExamplesScopes() throws Exception {
    List<MarkdownBlocks.Block> xml =
        MarkdownBlocks.of("README.md").stream()
            .filter(block -> block.language().equals("xml"))
            .toList();
    assertEquals(1, xml.size(), "the README shows one dependency snippet");
    Element snippet =
        parse("<dependencies>" + xml.getFirst().text() + "</dependencies>", "the README's XML");
    Map<String, String> scopes = new LinkedHashMap<>();
    for (Element dependency : children(snippet, "dependency")) {
      assertEquals(GROUP, text(dependency, "groupId"));
      assertEquals(version(), text(dependency, "version"));
      String scope =
          children(dependency, "scope").isEmpty() ? "compile" : text(dependency, "scope");
      scopes.put(text(dependency, "artifactId"), scope);
    }
    assertEquals(MAVEN_SCOPES, scopes);
  }

  /** {@return the native-access flag of the provider that needs it}, from the cuda provider */
  private static String nativeAccess() {
    return "--enable-native-access=cuda.graph.driver";
  }

  /** {@return the example's module name}, read from its module-info.java */
  private static String exampleModule() throws IOException {
    String moduleInfo =
        Files.readString(
            MarkdownBlocks.repository().resolve("examples-java/src/main/java/module-info.java"));
    Matcher name = Pattern.compile("(?m)^module ([\\w.]+) \\{").matcher(moduleInfo);
    assertTrue(name.find(), moduleInfo);
    return name.group(1);
  }

  /** {@return the one line starting with java in the run blocks of a document} */
  private static String javaLine(List<MarkdownBlocks.Block> blocks, String where) {
    List<String> lines = new ArrayList<>();
    for (MarkdownBlocks.Block block : blocks) {
      if (block.language().isEmpty() && block.text().startsWith("mvn ")) {
        block.text().lines().filter(line -> line.startsWith("java ")).forEach(lines::add);
      }
    }
    assertTrue(!lines.isEmpty(), where + " shows no java line after a Maven line");
    return lines.stream()
        .filter(line -> line.contains(" -m "))
        .findFirst()
        .orElseThrow(() -> new AssertionError(where + " runs no module: " + lines));
  }

  private static Element parse(String xml, String what) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document document;
    try {
      document = factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    } catch (org.xml.sax.SAXException e) {
      throw new AssertionError(what + " is not well-formed XML: " + e.getMessage(), e);
    }
    return document.getDocumentElement();
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        found.add(e);
      }
    }
    return found;
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    assertEquals(1, found.size(), "one <" + name + "> in <" + parent.getTagName() + ">");
    return found.getFirst();
  }

  private static String text(Element parent, String name) {
    return child(parent, name).getTextContent().strip();
  }
}
