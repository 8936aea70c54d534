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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The root {@code pom.xml} is the one place for pinned versions: each is a property there, module
 * poms refer to it with {@code ${...}}, and scripts read it with {@code scripts/pom-version.sh}
 * rather than writing the number again, so an upgrade is one line.
 */
class PinnedVersionsTests {

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]+)}");

  @Test
  void modulePomsTakeEveryVersionFromAPropertyOfTheRootPom() {
    Map<String, String> pinned = rootProperties();
    List<String> problems = new ArrayList<>();
    for (Path path : files(p -> p.getFileName().toString().equals("pom.xml"))) {
      if (path.equals(ROOT.resolve("pom.xml"))) {
        continue;
      }
      Element project = parse(path).getDocumentElement();
      if (child(project, "parent") == null) {
        // The BOM and the consumers' projects (consumers/*) have no parent: they write versions,
        // and each one the build also pins (root pom or module pom) must be the build's.
        checkAgainstTheBuild(path, project, problems);
        continue;
      }
      for (Element property : elements(project, "properties")) {
        for (Element e : children(property)) {
          if (e.getTagName().endsWith(".version")) {
            problems.add(
                name(path)
                    + " defines the property "
                    + e.getTagName()
                    + ": move it to the root pom.xml's properties");
          }
        }
      }
      for (Element version : elements(project, "version")) {
        String parent = ((Element) version.getParentNode()).getTagName();
        if (parent.equals("parent") || parent.equals("project")) {
          continue; // the build's own version, not a pin
        }
        String text = version.getTextContent().strip();
        Matcher m = REFERENCE.matcher(text);
        if (!m.matches()) {
          problems.add(
              name(path)
                  + " pins "
                  + coordinates(version)
                  + " at "
                  + text
                  + ": write ${NAME.version} and add <NAME.version>"
                  + text
                  + "</NAME.version> to the root pom.xml's properties");
        } else if (!m.group(1).equals("project.version") && !pinned.containsKey(m.group(1))) {
          problems.add(
              name(path)
                  + " refers to ${"
                  + m.group(1)
                  + "} for "
                  + coordinates(version)
                  + ", which the root pom.xml does not define");
        }
      }
    }
    assertEquals(List.of(), problems, "versions pinned outside the root pom.xml");
  }

  @Test
  void scriptsWriteNoVersionThatTheRootPomPins() {
    Map<String, String> versions = new LinkedHashMap<>();
    rootProperties()
        .forEach(
            (key, value) -> {
              if (key.endsWith(".version")) {
                versions.put(key, value);
              }
            });
    // What scripts/pom-version.sh derives: JUnit 5.X.Y ships JUnit Platform 1.X.Y.
    String junit = versions.get("junit.version");
    if (junit != null && junit.startsWith("5.")) {
      versions.put("junit-platform.version", "1." + junit.substring(2));
    }
    assertFalse(versions.isEmpty(), "the root pom.xml pins no *.version property");
    List<String> problems = new ArrayList<>();
    for (Path script : files(PinnedVersionsTests::isScript)) {
      List<String> lines = text(script).lines().toList();
      for (int i = 0; i < lines.size(); i++) {
        for (Map.Entry<String, String> v : versions.entrySet()) {
          String token = "(?<![\\w.-])" + Pattern.quote(v.getValue()) + "(?![\\w.-])";
          if (Pattern.compile(token).matcher(lines.get(i)).find()) {
            problems.add(
                name(script)
                    + ":"
                    + (i + 1)
                    + " writes "
                    + v.getValue()
                    + ", which the root pom.xml pins as "
                    + v.getKey()
                    + ": read it with scripts/pom-version.sh "
                    + v.getKey());
          }
        }
      }
    }
    assertEquals(List.of(), problems, "scripts that repeat a pinned version");
  }

  @Test
  void aStandalonePomIsHeldToTheVersionsTheBuildsModulesPinToo(@TempDir Path dir)
      throws IOException {
    // consumers/spring-boot imports Spring Boot's BOM, which only the spring-ai module's pom names.
    Path pom = dir.resolve("pom.xml");
    Files.writeString(
        pom,
        """
        <project><dependencyManagement><dependencies><dependency>
          <groupId>org.springframework.boot</groupId>
          <artifactId>spring-boot-dependencies</artifactId>
          <version>0.0.1</version>
        </dependency></dependencies></dependencyManagement></project>
        """);
    List<String> problems = new ArrayList<>();

    checkAgainstTheBuild(pom, parse(pom).getDocumentElement(), problems);

    assertEquals(1, problems.size(), problems::toString);
    assertTrue(
        problems
            .getFirst()
            .endsWith("at 0.0.1, the build at " + rootProperties().get("spring-boot.version")),
        problems.getFirst());
  }

  @Test
  void everyVersionPropertyOfTheRootPomIsOnOneLineForPomVersionSh() {
    String pom = text(ROOT.resolve("pom.xml"));
    List<String> unreadable = new ArrayList<>();
    rootProperties()
        .forEach(
            (key, value) -> {
              if (key.endsWith(".version")
                  && !Pattern.compile(
                          "(?m)^\\s*<" + Pattern.quote(key) + ">" + Pattern.quote(value) + "</")
                      .matcher(pom)
                      .find()) {
                unreadable.add(key);
              }
            });
    assertEquals(
        List.of(),
        unreadable,
        "scripts/pom-version.sh reads <NAME>VALUE</NAME> on a line of its own");
  }

  private static void checkAgainstTheBuild(Path path, Element project, List<String> problems) {
    Map<String, String> buildPins = new LinkedHashMap<>();
    Map<String, String> pinned = rootProperties();
    // The root pom's pins, and its modules' (a module may import a BOM no other names: spring-ai).
    Element root = parse(ROOT.resolve("pom.xml")).getDocumentElement();
    List<Element> pins = new ArrayList<>(elements(root, "version"));
    for (Element module : elements(root, "module")) {
      Path modulePom = ROOT.resolve(module.getTextContent().strip()).resolve("pom.xml");
      pins.addAll(elements(parse(modulePom).getDocumentElement(), "version"));
    }
    for (Element version : pins) {
      String value = resolve(version.getTextContent().strip(), pinned);
      if (!REFERENCE.matcher(value).find()) {
        buildPins.putIfAbsent(coordinates(version), value);
      }
    }
    for (Element version : elements(project, "version")) {
      String key = coordinates(version);
      String text = version.getTextContent().strip();
      String pin = buildPins.get(key);
      if (pin != null && !REFERENCE.matcher(text).find() && !pin.equals(text)) {
        problems.add(name(path) + " pins " + key + " at " + text + ", the build at " + pin);
      }
    }
  }

  private static String resolve(String text, Map<String, String> properties) {
    Matcher m = REFERENCE.matcher(text);
    return m.matches() && properties.containsKey(m.group(1)) ? properties.get(m.group(1)) : text;
  }

  /** The properties of the root pom, in order. */
  private static Map<String, String> rootProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    Element root = parse(ROOT.resolve("pom.xml")).getDocumentElement();
    Element block = child(root, "properties");
    if (block != null) {
      for (Element e : children(block)) {
        properties.put(e.getTagName(), e.getTextContent().strip());
      }
    }
    return properties;
  }

  /** groupId:artifactId of the dependency or plugin a version element belongs to. */
  private static String coordinates(Element version) {
    Element owner = (Element) version.getParentNode();
    Element group = child(owner, "groupId");
    Element artifact = child(owner, "artifactId");
    if (artifact == null) {
      return owner.getTagName();
    }
    return (group == null ? "org.apache.maven.plugins" : group.getTextContent().strip())
        + ":"
        + artifact.getTextContent().strip();
  }

  private static boolean isScript(Path path) {
    String file = path.getFileName().toString();
    return file.endsWith(".sh")
        || file.endsWith(".py")
        || file.endsWith(".kts")
        || ROOT.relativize(path).startsWith(".ci");
  }

  static Document parse(Path pom) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder().parse(pom.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ParserConfigurationException | SAXException e) {
      throw new IllegalStateException(name(pom) + " is not well-formed XML", e);
    }
  }

  private static List<Element> elements(Element root, String tag) {
    NodeList nodes = root.getElementsByTagName(tag);
    List<Element> found = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      found.add((Element) nodes.item(i));
    }
    return found;
  }

  private static List<Element> children(Element parent) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        found.add(e);
      }
    }
    return found;
  }

  private static Element child(Element parent, String tag) {
    return children(parent).stream()
        .filter(e -> e.getTagName().equals(tag))
        .findFirst()
        .orElse(null);
  }
}
