// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Pooling;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.FieldInstruction;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.jspecify.annotations.Nullable;

/**
 * A model's bytes and what its source says about it: for a LangChain4j embeddings jar, the jar
 * (found through its Maven {@code pom.properties}), its one {@code .onnx} entry, its one {@code
 * tokenizer.json} entry, and its model class, whose {@code PoolingMode} constant gives the pooling;
 * for files on disk, the two files and the pooling the caller named.
 *
 * <p>Entries are found by listing the jar, so a release that renames them is still found, and one
 * that ships more than one of either is refused rather than guessed at.
 */
public final class ModelArtifact {

  private static final String GROUP = "dev.langchain4j";
  private static final String POOLING_MODE = "dev/langchain4j/model/embedding/onnx/PoolingMode";

  private final String description;
  private final String name;
  private final @Nullable Path jar;
  private final String modelEntry;
  private final String tokenizerEntry;
  private final Pooling pooling;
  private final @Nullable String modelClass;

  private ModelArtifact(
      String description,
      String name,
      @Nullable Path jar,
      String modelEntry,
      String tokenizerEntry,
      Pooling pooling,
      @Nullable String modelClass) {
    this.description = description;
    this.name = name;
    this.jar = jar;
    this.modelEntry = modelEntry;
    this.tokenizerEntry = tokenizerEntry;
    this.pooling = pooling;
    this.modelClass = modelClass;
  }

  /**
   * {@return the artifact {@code source} names}
   *
   * @param source a LangChain4j jar or files on disk
   * @param loader the class loader whose class path holds the jar
   */
  public static ModelArtifact of(ModelSource source, ClassLoader loader) {
    return switch (source) {
      case ModelSource.LangChain4jJar j -> locate(j.artifactId(), loader);
      case ModelSource.Files f -> files(f.model(), f.tokenizer(), f.pooling());
    };
  }

  /** {@return an ONNX file and its tokenizer on disk}, checked to be readable files */
  static ModelArtifact files(Path model, Path tokenizer, Pooling pooling) {
    for (Path p : List.of(model, tokenizer)) {
      if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
        throw new IllegalArgumentException(
            "ModelSource.files: "
                + p.toAbsolutePath()
                + " is not a readable file; name the model's .onnx file and its tokenizer.json");
      }
    }
    String file = model.getFileName().toString();
    String name = file.endsWith(".onnx") ? file.substring(0, file.length() - 5) : file;
    return new ModelArtifact(
        model + " and " + tokenizer,
        name,
        null,
        model.toString(),
        tokenizer.toString(),
        pooling,
        null);
  }

  /** Finds {@code artifactId}'s jar on {@code loader}'s class path and lists what it holds. */
  static ModelArtifact locate(String artifactId, ClassLoader loader) {
    String coordinates = GROUP + ":" + artifactId;
    String pomProperties = "META-INF/maven/" + GROUP + "/" + artifactId + "/pom.properties";
    URL pom = loader.getResource(pomProperties);
    if (pom == null) {
      throw new IllegalStateException(
          "Embedder.open: "
              + coordinates
              + " is not on the class path; add it as a dependency (it holds the model and its"
              + " tokenizer), or name files on disk with ModelSource.files");
    }
    try {
      if (!(pom.openConnection() instanceof JarURLConnection connection)) {
        throw new IllegalStateException(
            "Embedder.open: "
                + coordinates
                + " is on the class path as "
                + pom
                + ", not as a jar; put the artifact's jar on the class path.");
      }
      Path jar = Path.of(connection.getJarFileURL().toURI());
      try (JarFile file = new JarFile(jar.toFile())) {
        Properties properties = new Properties();
        try (InputStream in = file.getInputStream(file.getJarEntry(pomProperties))) {
          properties.load(in);
        }
        List<String> models = new ArrayList<>();
        List<String> tokenizers = new ArrayList<>();
        List<String> classes = new ArrayList<>();
        for (JarEntry entry : Collections.list(file.entries())) {
          String n = entry.getName();
          if (entry.isDirectory()) {
            continue;
          }
          if (n.endsWith(".onnx")) {
            models.add(n);
          } else if (n.endsWith("tokenizer.json")) {
            tokenizers.add(n);
          } else if (n.endsWith("EmbeddingModel.class") && !n.contains("$")) {
            classes.add(n);
          }
        }
        String version = properties.getProperty("version", "unknown");
        String modelEntry = onlyOne(models, "an .onnx model", jar, coordinates);
        String modelClass = onlyOne(classes, "a LangChain4j model class", jar, coordinates);
        Pooling pooling;
        try (InputStream in = file.getInputStream(file.getJarEntry(modelClass))) {
          pooling = poolingOf(in.readAllBytes(), modelClass, coordinates);
        }
        String simple = modelEntry.substring(modelEntry.lastIndexOf('/') + 1);
        return new ModelArtifact(
            coordinates + ":" + version + " (" + jar.getFileName() + ")",
            simple.substring(0, simple.length() - ".onnx".length()),
            jar,
            modelEntry,
            onlyOne(tokenizers, "a tokenizer.json", jar, coordinates),
            pooling,
            modelClass.substring(0, modelClass.length() - ".class".length()).replace('/', '.'));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Embedder.open: cannot read " + pom, e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Embedder.open: " + pom + " names no file", e);
    }
  }

  /**
   * {@return the pooling LangChain4j's model class asks for}: the one {@code PoolingMode} constant
   * its code reads (it passes it to its encoder)
   */
  static Pooling poolingOf(byte[] classBytes, String entry, String coordinates) {
    ClassModel model = ClassFile.of().parse(classBytes);
    TreeSet<String> constants = new TreeSet<>();
    for (MethodModel method : model.methods()) {
      method
          .code()
          .ifPresent(
              code ->
                  code.forEach(
                      e -> {
                        if (e instanceof FieldInstruction f
                            && f.opcode() == Opcode.GETSTATIC
                            && f.owner().asInternalName().equals(POOLING_MODE)) {
                          constants.add(f.name().stringValue());
                        }
                      }));
    }
    if (constants.size() != 1) {
      throw new IllegalArgumentException(
          "Embedder.open: "
              + entry
              + " in "
              + coordinates
              + " reads PoolingMode "
              + constants
              + ", not exactly one; name the model's files with ModelSource.files and its pooling");
    }
    String constant = constants.first();
    try {
      return Pooling.valueOf(constant);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Embedder.open: "
              + coordinates
              + " pools with "
              + constant
              + "; this embedder pools with "
              + java.util.Arrays.toString(Pooling.values()),
          e);
    }
  }

  private static String onlyOne(List<String> entries, String what, Path jar, String coordinates) {
    if (entries.size() != 1) {
      throw new IllegalArgumentException(
          "Embedder.open: expected one entry that is "
              + what
              + " in "
              + jar
              + " ("
              + coordinates
              + "), found "
              + entries
              + "; name the model's files with ModelSource.files instead");
    }
    return entries.get(0);
  }

  /** {@return the model's name: the ONNX file's, without {@code .onnx}} */
  public String name() {
    return name;
  }

  /** {@return where the model was read from, for messages and {@code ModelInfo}} */
  public String description() {
    return description;
  }

  /** {@return the pooling the source asks for} */
  public Pooling pooling() {
    return pooling;
  }

  /**
   * {@return LangChain4j's model class in the jar (binary name), or null for files on disk}: what
   * the CPU fallback instantiates
   */
  public @Nullable String modelClass() {
    return modelClass;
  }

  /** {@return the jar entry (or file) of the tokenizer.json} */
  public String tokenizerEntry() {
    return tokenizerEntry;
  }

  /** {@return the jar entry (or file) of the ONNX model} */
  public String modelEntry() {
    return modelEntry;
  }

  /** {@return the ONNX model's bytes} */
  public byte[] readModel() {
    return read(modelEntry);
  }

  /** {@return the tokenizer.json's bytes} */
  public byte[] readTokenizer() {
    return read(tokenizerEntry);
  }

  private byte[] read(String entry) {
    try {
      if (jar == null) {
        return Files.readAllBytes(Path.of(entry));
      }
      try (JarFile file = new JarFile(jar.toFile());
          InputStream in = file.getInputStream(file.getJarEntry(entry))) {
        return in.readAllBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Embedder.open: cannot read " + entry + " of " + this, e);
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
