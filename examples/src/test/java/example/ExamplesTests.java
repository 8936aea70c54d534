// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
 * Every file of {@code src/main/java/example} is a copy-from example: short, alone (it compiles
 * without the others, as the JDK's source launcher runs it), and it prints exactly what its {@code
 * // prints:} comments say, on the simulator. The build runs this test with {@code
 * cuda.graph.provider=simulator} and two simulated devices (for AllReduce's two ranks), so the
 * examples' {@code CudaPlatform.system()} is a simulator.
 */
class ExamplesTests {

  /** The examples, relative to this module, where Maven runs its tests. */
  private static final Path EXAMPLES = Path.of("src/main/java/example");

  /** The most lines an example may have: what a reader takes in and copies whole. */
  private static final int MAX_LINES = 150;

  /** What an example prints, line by line, in the order it prints it. */
  private static final Pattern PRINTS = Pattern.compile("// prints: (.*)");

  /**
   * A class of each jar an example compiles against: the api, blas, nccl, JSpecify, and
   * apiguardian, whose {@code @API} the api's types carry (Maven brings it with the api).
   */
  private static final List<String> MODULES =
      List.of(
          "cuda.graph.CudaPlatform",
          "cuda.graph.blas.Blas",
          "cuda.graph.nccl.Nccl",
          "org.jspecify.annotations.Nullable",
          "org.apiguardian.api.API");

  private static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
  }

  private static String className(Path file) {
    String name = file.getFileName().toString();
    return name.substring(0, name.length() - ".java".length());
  }

  private static List<String> expectedLines(String source) {
    List<String> expected = new ArrayList<>();
    Matcher prints = PRINTS.matcher(source);
    while (prints.find()) {
      expected.add(prints.group(1).strip());
    }
    return expected;
  }

  @Test
  void theExamplesAreTheGuidesPrograms() throws IOException {
    assertEquals(
        List.of(
            "AllReduce",
            "CaptureReplay",
            "ChangingGraphs",
            "DeviceLoop",
            "GraphCacheMatmul",
            "GraphPerBucket",
            "MatmulLayer",
            "ParallelBranches",
            "WatchKernel"),
        examples().stream().map(ExamplesTests::className).toList());
  }

  @Test
  void everyExampleIsShortAndSaysWhatItPrints() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Path file : examples()) {
      String source = Files.readString(file);
      long lines = source.lines().count();
      if (lines > MAX_LINES) {
        problems.add(file + " has " + lines + " lines; an example has at most " + MAX_LINES);
      }
      if (expectedLines(source).isEmpty()) {
        problems.add(file + " says nothing of what it prints: add a `// prints: ...` per line");
      }
      if (!source.contains("public class " + className(file) + " {")
          || !source.contains("public static void main(String[] args)")) {
        problems.add(file + " is not a public class " + className(file) + " with a main method");
      }
    }
    assertEquals(List.of(), problems, "examples that are not copy-from programs");
  }

  @Test
  void theReadmeHasARowForEveryExampleAndNoOther() throws IOException {
    Matcher rows =
        Pattern.compile("(?m)^\\| \\[`(\\w+)\\.java`]")
            .matcher(Files.readString(Path.of("README.md")));
    Set<String> listed = new TreeSet<>();
    while (rows.find()) {
      listed.add(rows.group(1));
    }
    Set<String> files = new TreeSet<>(examples().stream().map(ExamplesTests::className).toList());
    assertEquals(files, listed, "examples/README.md's table against the files");
  }

  @TestFactory
  Stream<DynamicTest> everyExampleCompilesAloneAsTheSourceLauncherCompilesIt(@TempDir Path work)
      throws IOException {
    return examples().stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    className(file), () -> compileAlone(file, work.resolve(className(file)))));
  }

  @TestFactory
  Stream<DynamicTest> everyExamplePrintsWhatItsCommentsSayOnTheSimulator() throws IOException {
    return examples().stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    className(file),
                    () -> {
                      List<String> expected = expectedLines(Files.readString(file));
                      assertEquals(
                          expected,
                          runMain(className(file)).lines().toList(),
                          file + " printed other lines than its `// prints:` comments say");
                    }));
  }

  private static void compileAlone(Path file, Path classes) throws Exception {
    Files.createDirectories(classes);
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
            file.toString());
    assertEquals(0, status, file + " does not compile on its own:\n" + diagnostics);
  }

  /** Runs {@code example.NAME.main} in this JVM and returns what it printed. */
  private static String runMain(String name) throws Exception {
    Method main = Class.forName("example." + name).getMethod("main", String[].class);
    assertTrue(Modifier.isStatic(main.getModifiers()), name + ".main is not static");
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      main.invoke(null, (Object) new String[0]);
    } catch (InvocationTargetException e) {
      fail(name + ".main threw " + e.getCause() + "; it printed:\n" + printed, e.getCause());
    } finally {
      System.setOut(original);
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** {@return the class path of the modules an example may use}, as this test sees them */
  private static String classPath() throws ClassNotFoundException, URISyntaxException {
    List<String> entries = new ArrayList<>();
    for (String name : MODULES) {
      Class<?> c = Class.forName(name, false, ExamplesTests.class.getClassLoader());
      entries.add(
          Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }
    return String.join(File.pathSeparator, entries);
  }
}
