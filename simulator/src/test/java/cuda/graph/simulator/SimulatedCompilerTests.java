// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.spi.RuntimeCompiler;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The simulator's stand-in for NVRTC: what it checks, what it says it does not check, and the
 * parameters of the PTX it emits, which must be what NVRTC would emit for the API's declaration
 * check to mean the same on the simulator as on a GPU.
 */
class SimulatedCompilerTests {

  private final RuntimeCompiler compiler = Simulator.create().runtimeCompiler().orElseThrow();

  private String compile(String source) {
    return compiler.compileToPtx(source, "test.cu", List.of());
  }

  /** {@return the parameter declarations of {@code entry} in {@code ptx}, types and arrays only} */
  private static List<String> parameters(String ptx, String entry) {
    Matcher m = Pattern.compile("\\.entry " + entry + "\\(([^)]*)\\)", Pattern.DOTALL).matcher(ptx);
    assertTrue(m.find(), ptx);
    if (m.group(1).isBlank()) {
      return List.of();
    }
    return Pattern.compile(",")
        .splitAsStream(m.group(1))
        .map(
            p ->
                p.strip()
                    .replaceFirst("^\\.param ", "")
                    .replaceAll(" " + entry + "_param_\\d+", " "))
        .map(String::strip)
        .toList();
  }

  @Test
  void itSaysWhatItChecksAndThatItIsNotACompiler() {
    for (String said : List.of(compiler.toString(), compiler.version())) {
      assertTrue(said.contains("option names, bracket balance and kernel parameter types"), said);
      assertTrue(said.contains("not a C++ compiler"), said);
      assertTrue(said.contains("undeclared identifiers"), said);
    }
    assertTrue(compile("extern \"C\" __global__ void k() {}").contains("not a C++ compiler"));
  }

  @Test
  void anUndeclaredIdentifierPassesAsItSays() {
    String ptx = compile("extern \"C\" __global__ void k(int n) { nosuchthing[n] = 1; }");
    assertEquals(List.of(".u32"), parameters(ptx, "k"));
  }

  @Test
  void parametersAreTheTypesNvrtcGivesThem() {
    String ptx =
        compile(
            """
            #define REAL float
            typedef unsigned int index_t;
            using count_t = long long;
            extern "C" __global__ void __launch_bounds__(256) kinds(
                char c, short s, int i, unsigned u, long long l, size_t z, float f, double d,
                bool b, const float* __restrict__ x, int a[], REAL r, index_t j, count_t k,
                float2 v, float3 w, int4 q, __half h, std::uint32_t t) {}
            """);
    assertEquals(
        List.of(
            ".u8",
            ".u16",
            ".u32",
            ".u32",
            ".u64",
            ".u64",
            ".f32",
            ".f64",
            ".u8",
            ".u64",
            ".u64",
            ".f32",
            ".u32",
            ".u64",
            ".align 8 .b8 [8]",
            ".align 4 .b8 [12]",
            ".align 16 .b8 [16]",
            ".align 2 .b8 [2]",
            ".u32"),
        parameters(ptx, "kinds"));
  }

  @Test
  void aParameterItCannotSizeIsUnsized() {
    String ptx =
        compile(
            """
            struct Pair { float a; double b; };
            extern "C" __global__ void byValue(Pair p, int n) {}
            extern "C" __global__ void byPointer(Pair* p, int n) {}
            """);
    assertEquals(List.of(".unsized", ".u32"), parameters(ptx, "byValue"));
    assertEquals(List.of(".u64", ".u32"), parameters(ptx, "byPointer"));
  }

  @Test
  void emptyAndVoidParameterListsDeclareNoParameters() {
    String ptx =
        compile("extern \"C\" __global__ void a() {}\nextern \"C\" __global__ void b(void) {}");
    assertEquals(List.of(), parameters(ptx, "a"));
    assertEquals(List.of(), parameters(ptx, "b"));
  }

  @Test
  void bracketsInCommentsAndLiteralsDoNotCount() {
    String ptx =
        compile(
            """
            // a comment with an unbalanced ( and a __global__ void fake(int) mention
            /* and { another */
            extern "C" __global__ void k(char* s) { const char* t = "(}"; char c = ')'; }
            """);
    assertTrue(ptx.contains(".entry k("), ptx);
    assertTrue(!ptx.contains("fake"), ptx);
  }

  @Test
  void unbalancedBracketsAndUnknownOptionsFailAsNvrtcReportsThem() {
    RuntimeCompilationException brace =
        assertThrows(
            RuntimeCompilationException.class,
            () -> compile("extern \"C\" __global__ void k(int n) { if (n) { }"));
    assertEquals(6, brace.nvrtcResult());
    assertTrue(brace.log().contains("expected a \"}\""), brace.log());
    RuntimeCompilationException option =
        assertThrows(
            RuntimeCompilationException.class,
            () -> compiler.compileToPtx("", "test.cu", List.of("--no-such-option")));
    assertEquals(5, option.nvrtcResult());
  }
}
