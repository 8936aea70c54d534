// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Writes the Gradle module metadata of one published jar module, beside its POM, and marks the POM
 * so that Gradle reads it: the release profile runs it in each published module, after the jar,
 * sources and javadoc exist and before they are signed.
 *
 * <p>Why: the metadata's {@code org.gradle.jvm.version} is 25, so a Gradle build on an older Java
 * toolchain is told at dependency resolution that the library needs Java 25, instead of failing
 * later on class files it cannot read. The variants are the ones Gradle's java-library plugin
 * publishes (api, runtime, sources, javadoc); their dependencies are the flattened POM's, compile
 * scope for the api, compile and runtime scope for the runtime.
 *
 * <p>Usage: {@code java GradleModuleFile.java DIRECTORY GROUP ARTIFACT VERSION JVM_VERSION}, where
 * DIRECTORY is the module's build directory, holding {@code .flattened-pom.xml} and the three jars
 * named {@code ARTIFACT-VERSION[-sources|-javadoc].jar}; writes {@code ARTIFACT-VERSION.module}
 * there.
 */
public class GradleModuleFile {

  /** What Gradle looks for in a POM before it looks for the module file beside it. */
  static final String MARKER = "<!-- do_not_remove: published-with-gradle-metadata -->";

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println(
          "usage: java GradleModuleFile.java DIRECTORY GROUP ARTIFACT VERSION JVM_VERSION");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    String group = args[1], artifact = args[2], version = args[3];
    int jvm = Integer.parseInt(args[4]);
    Path pom = dir.resolve(".flattened-pom.xml");
    String base = artifact + "-" + version;
    Path jar = dir.resolve(base + ".jar");
    Path sources = dir.resolve(base + "-sources.jar");
    Path javadoc = dir.resolve(base + "-javadoc.jar");
    for (Path p : List.of(pom, jar, sources, javadoc)) {
      if (!Files.isRegularFile(p)) {
        throw new IllegalStateException(
            p + " is missing: the module file lists the POM's jars, so build them first");
      }
    }
    List<Dependency> dependencies = dependencies(pom);
    List<Dependency> api = dependencies.stream().filter(d -> d.scope.equals("compile")).toList();

    StringBuilder json = new StringBuilder();
    json.append("{\n  \"formatVersion\": \"1.1\",\n  \"component\": {\n")
        .append("    \"group\": ")
        .append(quote(group))
        .append(",\n    \"module\": ")
        .append(quote(artifact))
        .append(",\n    \"version\": ")
        .append(quote(version))
        .append(",\n    \"attributes\": {\n      \"org.gradle.status\": ")
        .append(quote(version.endsWith("-SNAPSHOT") ? "integration" : "release"))
        .append("\n    }\n  },\n  \"variants\": [\n");
    library(json, "apiElements", "java-api", jvm, api, jar);
    json.append(",\n");
    library(json, "runtimeElements", "java-runtime", jvm, dependencies, jar);
    json.append(",\n");
    documentation(json, "sourcesElements", "sources", sources);
    json.append(",\n");
    documentation(json, "javadocElements", "javadoc", javadoc);
    json.append("\n  ]\n}\n");
    Files.writeString(dir.resolve(base + ".module"), json.toString(), StandardCharsets.UTF_8);
    mark(pom);
  }

  record Dependency(String group, String artifact, String version, String scope) {}

  /** {@return the POM's compile and runtime dependencies; optional ones are not published} */
  static List<Dependency> dependencies(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document doc = factory.newDocumentBuilder().parse(pom.toFile());
    List<Dependency> out = new ArrayList<>();
    Element project = doc.getDocumentElement();
    Element deps = child(project, "dependencies");
    if (deps == null) {
      return out;
    }
    for (Node n = deps.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (!(n instanceof Element d) || !d.getLocalName().equals("dependency")) {
        continue;
      }
      String scope = text(d, "scope", "compile");
      if (!(scope.equals("compile") || scope.equals("runtime"))
          || text(d, "optional", "false").equals("true")
          || child(d, "classifier") != null
          || child(d, "exclusions") != null) {
        if (scope.equals("compile") || scope.equals("runtime")) {
          throw new IllegalStateException(
              pom + ": a dependency with a classifier, exclusions or optional is not written into"
                  + " the module file yet; teach GradleModuleFile.java how");
        }
        continue;
      }
      out.add(
          new Dependency(
              text(d, "groupId", null), text(d, "artifactId", null), text(d, "version", null), scope));
    }
    return out;
  }

  static void library(
      StringBuilder json,
      String name,
      String usage,
      int jvm,
      List<Dependency> dependencies,
      Path jar)
      throws IOException {
    json.append("    {\n      \"name\": ")
        .append(quote(name))
        .append(",\n      \"attributes\": {\n")
        .append("        \"org.gradle.category\": \"library\",\n")
        .append("        \"org.gradle.dependency.bundling\": \"external\",\n")
        .append("        \"org.gradle.jvm.version\": ")
        .append(jvm)
        .append(",\n        \"org.gradle.libraryelements\": \"jar\",\n")
        .append("        \"org.gradle.usage\": ")
        .append(quote(usage))
        .append("\n      },\n");
    if (!dependencies.isEmpty()) {
      json.append("      \"dependencies\": [\n");
      for (int i = 0; i < dependencies.size(); i++) {
        Dependency d = dependencies.get(i);
        json.append("        {\n          \"group\": ")
            .append(quote(d.group))
            .append(",\n          \"module\": ")
            .append(quote(d.artifact))
            .append(",\n          \"version\": {\n            \"requires\": ")
            .append(quote(d.version))
            .append("\n          }\n        }")
            .append(i + 1 < dependencies.size() ? ",\n" : "\n");
      }
      json.append("      ],\n");
    }
    files(json, jar);
    json.append("\n    }");
  }

  static void documentation(StringBuilder json, String name, String docsType, Path jar)
      throws IOException {
    json.append("    {\n      \"name\": ")
        .append(quote(name))
        .append(",\n      \"attributes\": {\n")
        .append("        \"org.gradle.category\": \"documentation\",\n")
        .append("        \"org.gradle.dependency.bundling\": \"external\",\n")
        .append("        \"org.gradle.docstype\": ")
        .append(quote(docsType))
        .append(",\n        \"org.gradle.usage\": \"java-runtime\"\n      },\n");
    files(json, jar);
    json.append("\n    }");
  }

  static void files(StringBuilder json, Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    String name = file.getFileName().toString();
    json.append("      \"files\": [\n        {\n          \"name\": ")
        .append(quote(name))
        .append(",\n          \"url\": ")
        .append(quote(name))
        .append(",\n          \"size\": ")
        .append(bytes.length)
        .append(",\n          \"sha512\": ")
        .append(quote(digest("SHA-512", bytes)))
        .append(",\n          \"sha256\": ")
        .append(quote(digest("SHA-256", bytes)))
        .append(",\n          \"sha1\": ")
        .append(quote(digest("SHA-1", bytes)))
        .append(",\n          \"md5\": ")
        .append(quote(digest("MD5", bytes)))
        .append("\n        }\n      ]");
  }

  /**
   * Puts {@link #MARKER} before the POM's modelVersion, where Gradle writes it, unless it is there.
   */
  static void mark(Path pom) throws IOException {
    String text = Files.readString(pom, StandardCharsets.UTF_8);
    if (text.contains(MARKER)) {
      return;
    }
    String anchor = "<modelVersion>";
    int at = text.indexOf(anchor);
    if (at < 0) {
      throw new IllegalStateException(pom + " has no modelVersion to put Gradle's marker before");
    }
    String marked =
        text.substring(0, at)
            + "<!-- Also published with Gradle module metadata (the .module file beside it), -->\n"
            + "  <!-- which says that it needs Java 25. -->\n  "
            + MARKER
            + "\n  "
            + text.substring(at);
    Files.writeString(pom, marked, StandardCharsets.UTF_8);
  }

  static String digest(String algorithm, byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static Element child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getLocalName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  static String text(Element parent, String name, String otherwise) {
    Element e = child(parent, name);
    if (e == null) {
      if (otherwise == null) {
        throw new IllegalStateException("a dependency has no " + name);
      }
      return otherwise;
    }
    return e.getTextContent().strip();
  }

  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
