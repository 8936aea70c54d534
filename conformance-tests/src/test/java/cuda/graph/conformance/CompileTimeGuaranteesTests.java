// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.spi.CudaDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's compile-time guarantees, the Java counterparts of the reference's {@code compile_fail}
 * doctests: snippets compiled with javax.tools against the API's classes must fail (with an error
 * on the offending call that names it) or compile. Tagged {@code compiler}: a bare runtime, like
 * the GPU bundle's, has no compiler.
 */
@Tag("compiler")
class CompileTimeGuaranteesTests {

  /** The marker of the line a snippet expects its one error on. */
  private static final String OFFENDING = "// <- does not compile";

  @TempDir Path output;

  @Test
  void updateRejectsANodeWithAnOutputBecauseItsTypeIsNotGraphNodeOfVoid() {
    assertRejected(
        "update",
        """
        graph.update(DeviceOp.value(5)); // <- does not compile
        """);
  }

  @Test
  void updateRejectsAnAllocatingOpBecauseItIsNotAGraphNode() {
    assertRejected(
        "update",
        """
        graph.update(DeviceBuffer.zeros(ElementType.F32, 4)); // <- does not compile
        """);
  }

  @Test
  void updateRejectsAComposedOpThatIsNotAGraphNode() {
    assertRejected(
        "update",
        """
        graph.update(DeviceOp.<@Nullable Void>value(null).then(ignored -> buffer.fill(1f))); // <- does not compile
        """);
  }

  @Test
  void recordRejectsAnAllocatingOpBecauseItIsNotAGraphNode() {
    assertRejected(
        "record",
        """
        scope.record(DeviceBuffer.zeros(ElementType.F32, 4)); // <- does not compile
        """);
  }

  @Test
  void updateAcceptsACopyAndRecordAcceptsAKernelLaunch() {
    Result result =
        compile(
            "Accepted",
            """
            import cuda.graph.*;
            import org.jspecify.annotations.Nullable;

            class Accepted {
              void use(CudaGraph<@Nullable Void> graph, Scope scope, Kernel kernel, DeviceBuffer<Float> buffer, HostBuffer<Float> host) {
                graph.update(buffer.copyFrom(host));
                graph.update(buffer.fill(0f).andThen(buffer.copyFrom(host)));
                @Nullable Void recorded = scope.record(kernel.launch(LaunchConfig.of(1, 32), 4, buffer));
                Integer value = scope.record(DeviceOp.value(5));
              }
            }
            """);
    assertTrue(result.success(), () -> "the valid calls must compile:\n" + result.errors());
  }

  /**
   * Documents the java.lang.Module pitfall: on-demand imports of cuda.graph and java.lang both
   * offer Module.
   */
  @Test
  void aWildcardImportMakesModuleAmbiguousWithJavaLangModule() {
    Result result =
        compile(
            "Ambiguous",
            """
            import cuda.graph.*;

            class Ambiguous {
              Module<float[], float[]> model; // <- does not compile
            }
            """);
    assertFalse(result.success(), "import cuda.graph.* and java.lang.Module clash");
    Diagnostic<? extends JavaFileObject> error = result.errorsOn(4);
    assertTrue(
        error.getMessage(Locale.ROOT).contains("reference to Module is ambiguous"),
        error.getMessage(Locale.ROOT));
  }

  @Test
  void aSingleTypeImportOfModuleShadowsJavaLangModule() {
    Result result =
        compile(
            "Unambiguous",
            """
            import cuda.graph.*;
            import cuda.graph.Module;

            class Unambiguous {
              Module<float[], float[]> model;
            }
            """);
    assertTrue(
        result.success(), () -> "a single-type import wins over java.lang:\n" + result.errors());
  }

  // ---- compiling

  /**
   * Compiles {@code statement} in a method that has a graph, a scope, a buffer, a host buffer and a
   * kernel.
   */
  private void assertRejected(String method, String statement) {
    String source =
        """
        import cuda.graph.*;
        import org.jspecify.annotations.Nullable;

        class Rejected {
          void use(CudaGraph<@Nullable Void> graph, Scope scope, Kernel kernel, DeviceBuffer<Float> buffer, HostBuffer<Float> host) {
        """
            + statement.indent(4)
            + """
              }
            }
            """;
    Result result = compile("Rejected", source);
    assertFalse(result.success(), () -> "must not compile:\n" + statement);
    long line = source.lines().takeWhile(l -> !l.contains(OFFENDING)).count() + 1;
    Diagnostic<? extends JavaFileObject> error = result.errorsOn(line);
    String message = error.getMessage(Locale.ROOT);
    assertTrue(
        message.contains("method " + method),
        () -> "the error must name the rejected call " + method + ": " + message);
    String flagged = source.substring((int) error.getStartPosition(), (int) error.getEndPosition());
    assertTrue(
        flagged.endsWith("." + method),
        () -> "the error must point at the " + method + " call, not at: " + flagged);
  }

  private record Result(boolean success, List<Diagnostic<? extends JavaFileObject>> errors) {

    /** {@return the only error, which must be on {@code line}} */
    Diagnostic<? extends JavaFileObject> errorsOn(long line) {
      assertEquals(1, errors.size(), () -> "exactly one error expected: " + errors);
      Diagnostic<? extends JavaFileObject> error = errors.getFirst();
      assertEquals(
          line, error.getLineNumber(), () -> "the error must be on the offending line: " + error);
      return error;
    }
  }

  private Result compile(String className, String source) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Assumptions.assumeTrue(
        javac != null, "this runtime has no Java compiler (javax.tools); run these tests on a JDK");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      files.setLocationFromPaths(
          StandardLocation.CLASS_PATH,
          List.of(
              locationOf(CudaGraph.class),
              locationOf(CudaDriver.class),
              locationOf(NullMarked.class)));
      files.setLocationFromPaths(
          StandardLocation.CLASS_OUTPUT,
          List.of(Files.createDirectories(output.resolve(className))));
      JavaFileObject file =
          new SimpleJavaFileObject(
              URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return source;
            }
          };
      boolean success =
          javac
              .getTask(
                  null,
                  files,
                  diagnostics,
                  List.of("-Xdiags:verbose", "-proc:none"),
                  null,
                  List.of(file))
              .call();
      List<Diagnostic<? extends JavaFileObject>> errors =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
              .collect(Collectors.toList());
      return new Result(success, errors);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@return the class folder or jar {@code type} was loaded from} */
  private static Path locationOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
