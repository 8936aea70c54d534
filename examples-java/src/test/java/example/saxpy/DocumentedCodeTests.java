// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.saxpy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java and Kotlin block of the README, the guides and the examples' READMEs is code that
 * runs: a file of an example module that the build compiles and a test runs (a line {@code `path`:}
 * before the block names it, and the block must be that file verbatim), or a complete program,
 * which this test compiles on its own against the published modules, runs on the simulator and
 * whose output must be what its {@code // prints:} comments say. A block that is neither fails
 * here; none is skipped.
 *
 * <p>The build runs this test with {@code cuda.graph.provider=simulator} and two simulated devices
 * (for the NCCL program), so the programs' {@code CudaPlatform.system()} is a simulator.
 */
class DocumentedCodeTests {

  /** The languages whose blocks must run. */
  private static final Set<String> CODE = Set.of("java", "kotlin");

  /** A program's class: the file a user saves it as is named after it. */
  private static final Pattern PROGRAM_CLASS =
      Pattern.compile("(?m)^public (?:final )?class (\\w+)");

  /** What a program prints, line by line, in the order it prints it. */
  private static final Pattern PRINTS = Pattern.compile("// prints: (.*)");

  /**
   * A class of each module a program may use: the api, its SPI, the blas and nccl modules, and the
   * annotations on their types, which a user's build gets with them.
   */
  private static final List<String> MODULES =
      List.of(
          "cuda.graph.CudaPlatform",
          "cuda.graph.spi.CudaDriver",
          "cuda.graph.blas.Blas",
          "cuda.graph.nccl.Nccl",
          "org.jspecify.annotations.Nullable",
          "org.apiguardian.api.API");

  /**
   * The build files of an application outside this repository (its pom.xml, its Gradle build),
   * which {@link GettingStartedTests} checks against this build instead.
   */
  private static final String APPLICATION_BUILD = "docs/guide/getting-started.md";

  private static List<MarkdownBlocks.Block> documentedBlocks() throws IOException {
    return MarkdownBlocks.ofDocuments().stream()
        .filter(block -> !block.source().equals(APPLICATION_BUILD))
        .toList();
  }

  private static List<MarkdownBlocks.Block> codeBlocks() throws IOException {
    return documentedBlocks().stream().filter(block -> CODE.contains(block.language())).toList();
  }

  private static List<MarkdownBlocks.Block> programs() throws IOException {
    return codeBlocks().stream().filter(block -> block.file().isEmpty()).toList();
  }

  @Test
  void everyCodeBlockIsAnExampleFileVerbatimOrAProgramThatSaysWhatItPrints() throws IOException {
    Path repository = MarkdownBlocks.repository();
    List<String> problems = new ArrayList<>();
    for (MarkdownBlocks.Block block : codeBlocks()) {
      if (block.file().isPresent()) {
        // src/...: a file of the first program's application module, examples-java; else a
        // repository path.
        String file = block.file().get();
        Path path = repository.resolve(file.startsWith("src/") ? "examples-java/" + file : file);
        if (!Files.exists(path)) {
          problems.add(
              block.where() + " shows " + file + ", which is not a file of the repository");
        } else if (!MarkdownBlocks.shownText(path).equals(block.text())) {
          problems.add(block.where() + " differs from " + repository.relativize(path));
        }
      } else if (!block.language().equals("java")) {
        problems.add(
            block.where()
                + ": a "
                + block.language()
                + " block must name the file of an example module it shows (`path`: before it)");
      } else if (!PROGRAM_CLASS.matcher(block.text()).find()
          || !block.text().contains("public static void main(String[] args)")) {
        problems.add(
            block.where()
                + ": a Java block must be a complete program (a public class with a main method)"
                + " or name the file of an example module it shows (`path`: before it)");
      } else if (!PRINTS.matcher(block.text()).find()) {
        problems.add(
            block.where()
                + ": a program must say what it prints, in a comment `// prints: ...` per line");
      }
    }
    assertEquals(List.of(), problems, "code blocks that no test runs as shown");
    assertTrue(
        programs().stream().anyMatch(block -> block.source().equals("README.md")),
        "the README shows no program");
  }

  /** Languages of configuration and kernel blocks: shown verbatim when they name a file. */
  private static final Set<String> FILES = Set.of("xml", "properties", "yaml", "cuda");

  @Test
  void everyConfigurationOrKernelBlockThatNamesAFileIsThatFileVerbatim() throws IOException {
    Path repository = MarkdownBlocks.repository();
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (MarkdownBlocks.Block block : documentedBlocks()) {
      if (!FILES.contains(block.language()) || block.file().isEmpty()) {
        continue;
      }
      String file = block.file().get();
      Path path = repository.resolve(file.startsWith("src/") ? "examples-java/" + file : file);
      checked++;
      if (!Files.exists(path)) {
        problems.add(block.where() + " shows " + file + ", which is not a file of the repository");
      } else if (!MarkdownBlocks.shownText(path).equals(block.text())) {
        problems.add(block.where() + " differs from " + repository.relativize(path));
      }
    }
    assertEquals(List.of(), problems, "blocks that differ from the files they name");
    assertTrue(checked >= 1, "no configuration or kernel block names a file");
  }

  @TestFactory
  Stream<DynamicTest> everyProgramCompilesAloneAndPrintsWhatItSays(@TempDir Path work)
      throws IOException {
    return programs().stream()
        .map(
            block -> {
              Matcher name = PROGRAM_CLASS.matcher(block.text());
              String className = name.find() ? name.group(1) : "NoPublicClass";
              return DynamicTest.dynamicTest(
                  className + " (" + block.where() + ")",
                  () -> compileAndRun(block, className, work.resolve(className)));
            });
  }

  private static void compileAndRun(MarkdownBlocks.Block block, String className, Path dir)
      throws Exception {
    Path source = dir.resolve("src").resolve(className + ".java");
    Path classes = dir.resolve("classes");
    Files.createDirectories(source.getParent());
    Files.createDirectories(classes);
    Files.writeString(source, block.text());

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-Xlint:all",
            "-Werror",
            "-d",
            classes.toString(),
            "-cp",
            classPath(),
            source.toString());
    assertEquals(
        0, status, block.where() + " does not compile on its own:\n" + diagnostics.toString());

    List<String> expected = new ArrayList<>();
    Matcher prints = PRINTS.matcher(block.text());
    while (prints.find()) {
      expected.add(prints.group(1).strip());
    }
    assertFalse(expected.isEmpty(), block.where() + " says nothing of what it prints");

    String output = runMain(classes, className);
    assertEquals(
        expected,
        output.lines().toList(),
        block.where() + " printed other lines than its `// prints:` comments say");
  }

  /**
   * Runs the program's {@code main} in this JVM, in a class loader of its own over the library this
   * test sees, and returns what it printed.
   */
  private static String runMain(Path classes, String className) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {classes.toUri().toURL()}, DocumentedCodeTests.class.getClassLoader())) {
      Method main = loader.loadClass(className).getMethod("main", String[].class);
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        main.invoke(null, (Object) new String[0]);
      } catch (InvocationTargetException e) {
        fail(className + ".main threw " + e.getCause() + "; it printed:\n" + printed, e.getCause());
      } finally {
        System.setOut(original);
      }
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** {@return the class path of the modules a program may use}, as the tests see them */
  private static String classPath() throws ClassNotFoundException, URISyntaxException {
    List<String> entries = new ArrayList<>();
    for (String name : MODULES) {
      Class<?> c = Class.forName(name, false, DocumentedCodeTests.class.getClassLoader());
      entries.add(
          Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }
    return String.join(File.pathSeparator, entries);
  }
}
