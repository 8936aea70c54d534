// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.saxpy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide's Java example, as a new user meets it: its files, pasted into a fresh application
 * module that opens nothing, compile against the api jar alone and run with the guide's own
 * command, its module path laid out as the guide's Maven line lays it out. This module's own
 * sources are the same files (less their licence header), so they cannot drift apart.
 */
class FirstProgramTests {

  /** The guide that shows the example: its files, then its commands. */
  private static final String GUIDE = "docs/guide/first-program.md";

  /** The guide's commands that run the example: a Maven line, then a java line. */
  private static final Pattern RUN_BLOCK =
      Pattern.compile(
          "(mvn [^\\n]*)\\n(java [^\\n]* -m example\\.saxpy/example\\.saxpy\\.Saxpy)\\n");

  /**
   * The Maven line this test stands in for (it cannot run Maven): it compiles into {@code
   * target/classes} and copies the runtime dependencies into {@code target/dependency}.
   */
  private static final String BUILD_LINE =
      "mvn compile dependency:copy-dependencies -DincludeScope=runtime";

  /**
   * What that line copies for a project with the guide's dependencies (the api, and the two
   * providers at runtime), each named by a class it holds: the api brings the SPI, JSpecify and
   * apiguardian.
   */
  private static final Map<String, String> RUNTIME_DEPENDENCIES =
      Map.of(
          "cuda-graph-api", "cuda.graph.CudaPlatform",
          "cuda-graph-spi", "cuda.graph.spi.CudaDriver",
          "jspecify", "org.jspecify.annotations.Nullable",
          "apiguardian-api", "org.apiguardian.api.API",
          "cuda-graph-simulator", "cuda.graph.simulator.Simulator",
          "cuda-graph-driver", "cuda.graph.driver.internal.CudaProvider");

  private static final Path MODULE_DIR = MarkdownBlocks.repository().resolve("examples-java");

  @Test
  void theGuideShowsThisModulesFilesVerbatim() throws IOException {
    Map<String, String> files = guideFiles();
    assertEquals(
        List.of(
            "src/main/cuda/saxpy.cu",
            "src/main/java/module-info.java",
            "src/main/java/example/saxpy/Saxpy.java"),
        List.copyOf(files.keySet()));
    for (Map.Entry<String, String> file : files.entrySet()) {
      assertEquals(
          MarkdownBlocks.shownText(MODULE_DIR.resolve(file.getKey())),
          file.getValue(),
          "the guide's " + file.getKey() + " differs from examples-java/" + file.getKey());
    }
  }

  @Test
  void theGuidesExamplePastedIntoAFreshModuleCompilesAndRunsOnTheSimulator(@TempDir Path app)
      throws Exception {
    for (Map.Entry<String, String> file : guideFiles().entrySet()) {
      Path target = app.resolve(file.getKey());
      Files.createDirectories(target.getParent());
      Files.writeString(target, file.getValue());
    }
    // The guide's nvcc line writes the PTX here; CI has no GPU toolchain, so use its output.
    Path ptx = app.resolve("src/main/resources/example/saxpy/saxpy.ptx");
    Files.createDirectories(ptx.getParent());
    Files.copy(MODULE_DIR.resolve("src/main/resources/example/saxpy/saxpy.ptx"), ptx);

    Matcher runBlock =
        MarkdownBlocks.of(GUIDE).stream()
            .map(block -> RUN_BLOCK.matcher(block.text()))
            .filter(Matcher::matches)
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "the guide shows no block of a Maven line and a java line that runs"
                            + " example.saxpy/example.saxpy.Saxpy"));
    assertEquals(
        BUILD_LINE,
        runBlock.group(1),
        "the guide builds the example another way: make this test lay out what it makes");

    // What the Maven line makes: the classes, with the PTX beside them, and the dependencies.
    Path classes = app.resolve("target/classes");
    compile(app, classes, modulePath("cuda.graph.CudaPlatform", "cuda.graph.spi.CudaDriver"));
    Path resourceDir = classes.resolve("example/saxpy");
    Files.createDirectories(resourceDir);
    Files.copy(ptx, resourceDir.resolve("saxpy.ptx"));
    copyRuntimeDependencies(app.resolve("target/dependency"));

    // The guide's java line as written, in the module's directory, on this JDK.
    List<String> command = new ArrayList<>(List.of(runBlock.group(2).split(" +")));
    command.set(0, ProcessHandle.current().info().command().orElseThrow());
    Process run =
        new ProcessBuilder(command).directory(app.toFile()).redirectErrorStream(true).start();
    assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the example did not finish in 60 s");
    String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, run.exitValue(), output);
    assertTrue(
        output.contains(
            "saxpy of 1048576 floats on CUDA simulator (NVIDIA H200 model): y[7] = 15.0"),
        output);
  }

  /** {@return the guide's files of the example application}: those it names under src/ */
  private static Map<String, String> guideFiles() throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    for (MarkdownBlocks.Block block : MarkdownBlocks.of(GUIDE)) {
      block
          .file()
          .filter(file -> file.startsWith("src/"))
          .ifPresent(file -> files.put(file, block.text()));
    }
    return files;
  }

  private static void compile(Path app, Path classes, String modulePath) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-p", modulePath));
    try (var sources = Files.walk(app.resolve("src/main/java"))) {
      sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    assertEquals(0, status, "the guide's files do not compile:\n" + diagnostics);
  }

  /**
   * Copies each of {@link #RUNTIME_DEPENDENCIES} into {@code dir}: a jar as a jar, a class folder
   * (a reactor build that has not packaged yet) as an exploded module, which a module-path folder
   * holds just as well.
   */
  private static void copyRuntimeDependencies(Path dir) throws Exception {
    Files.createDirectories(dir);
    for (Map.Entry<String, String> dependency : RUNTIME_DEPENDENCIES.entrySet()) {
      Path location = Path.of(locationOf(dependency.getValue()));
      if (Files.isDirectory(location)) {
        Path target = dir.resolve(dependency.getKey());
        try (var files = Files.walk(location)) {
          for (Path file : (Iterable<Path>) files::iterator) {
            Files.copy(file, target.resolve(location.relativize(file).toString()));
          }
        }
      } else {
        Files.copy(location, dir.resolve(dependency.getKey() + ".jar"));
      }
    }
  }

  /** {@return the module path of the jars (or class folders) holding the named classes} */
  private static String modulePath(String... classNames) throws ClassNotFoundException {
    List<String> entries = new ArrayList<>();
    entries.add(locationOf("org.jspecify.annotations.Nullable"));
    entries.add(locationOf("org.apiguardian.api.API"));
    for (String name : classNames) {
      entries.add(locationOf(name));
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  private static String locationOf(String className) throws ClassNotFoundException {
    Class<?> c = Class.forName(className, false, FirstProgramTests.class.getClassLoader());
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
