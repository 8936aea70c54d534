// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.spi.RuntimeCompiler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The simulator's stand-in for NVRTC. <b>It is not a C++ compiler</b>: it compiles no device code
 * (the simulator runs kernels through their Java references), and a program it accepts may well not
 * compile with NVRTC.
 *
 * <p><b>What it checks</b>, failing as NVRTC reports failures ({@code NVRTC_ERROR_INVALID_OPTION},
 * {@code NVRTC_ERROR_COMPILATION} with a log):
 *
 * <ul>
 *   <li>each option starts with the name of an NVRTC option (its value is not checked);
 *   <li>parentheses and braces balance, outside comments and string and character literals.
 * </ul>
 *
 * <p><b>What it does not check</b>: everything else. Undeclared identifiers, types, syntax, {@code
 * #include}d headers and other preprocessing, templates, semantics, the {@code extern "C"} that a
 * kernel needs to be found by its plain name on a GPU (here every kernel is found by its plain
 * name): none of it is looked at, so a misspelled variable passes here and fails on a GPU.
 *
 * <p><b>What it emits</b>: PTX that declares each {@code __global__} function of the program with
 * the parameters NVRTC would give it, as far as it can size them: C and CUDA scalar types ({@code
 * int} is {@code .u32}, {@code float} {@code .f32}, {@code size_t} {@code .u64}, ...), pointers and
 * arrays ({@code .u64}), CUDA's vector and half types ({@code float2} is {@code .align 8 .b8[8]}),
 * and {@code typedef}s, {@code using} aliases and {@code #define}s of these in the program. A
 * parameter of another type (a struct passed by value, a type from a header) is written {@code
 * .unsized}, which is not PTX: a declaration of that kernel is then refused, as cuda.graph passes
 * only scalars and pointers. The kernels' bodies are empty.
 */
final class SimulatedCompiler implements RuntimeCompiler {

  /** What {@link #toString()} and the emitted PTX say the stand-in does. */
  static final String SCOPE =
      "checks option names, bracket balance and kernel parameter types only; it is not a C++"
          + " compiler, so undeclared identifiers, types and syntax errors pass";

  private static final int INVALID_OPTION = 5;
  private static final int COMPILATION = 6;
  private static final String IDENTIFIER = "[A-Za-z_]\\w*";
  private static final Pattern KERNEL =
      Pattern.compile(
          "__global__\\s+(?:__launch_bounds__\\s*\\([^)]*\\)\\s*)?void\\s+"
              + "(?:__launch_bounds__\\s*\\([^)]*\\)\\s*)?("
              + IDENTIFIER
              + ")\\s*\\(");
  private static final Pattern TYPEDEF =
      Pattern.compile("\\btypedef\\s+([^;{}()]+?)\\s*\\b(" + IDENTIFIER + ")\\s*;");
  private static final Pattern USING =
      Pattern.compile("\\busing\\s+(" + IDENTIFIER + ")\\s*=\\s*([^;{}()]+?)\\s*;");
  private static final Pattern DEFINE =
      Pattern.compile(
          "^\\s*#\\s*define\\s+(" + IDENTIFIER + ")[ \\t]+([^\\n]+)$", Pattern.MULTILINE);
  private static final Pattern WORD = Pattern.compile(IDENTIFIER);
  private static final Pattern VECTOR =
      Pattern.compile("(u?char|u?short|u?int|u?long|u?longlong|float|double)([1-4])");

  /** Words of a declaration that do not name its type. */
  private static final Set<String> QUALIFIERS =
      Set.of(
          "const",
          "volatile",
          "__restrict__",
          "__restrict",
          "restrict",
          "register",
          "__grid_constant__",
          "struct",
          "class",
          "union",
          "typename",
          "std");

  /** The words that make up C's scalar types. */
  private static final Set<String> SCALAR_WORDS =
      Set.of(
          "void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float", "double");

  private static final List<String> OPTION_PREFIXES =
      List.of(
          "--gpu-architecture",
          "-arch",
          "--std",
          "-std",
          "-I",
          "--include-path",
          "-D",
          "--define-macro",
          "-lineinfo",
          "--generate-line-info",
          "-G",
          "--device-debug",
          "--use_fast_math",
          "-use_fast_math",
          "-default-device",
          "--relocatable-device-code",
          "-rdc",
          "--extra-device-vectorization",
          "-dopt",
          "--dopt");

  /** How a parameter is passed: its PTX type, or an aligned byte array for an aggregate. */
  private record PtxParam(String type, int align, int size) {
    static PtxParam scalar(String type) {
      return new PtxParam(type, 0, 0);
    }

    static PtxParam aggregate(int align, int size) {
      return new PtxParam("b8", align, size);
    }

    static final PtxParam UNSIZED = new PtxParam("unsized", 0, 0);

    String declare(String name) {
      return align == 0
          ? ".param ." + type + " " + name
          : ".param .align " + align + " .b8 " + name + "[" + size + "]";
    }
  }

  @Override
  public String version() {
    return "13.0 (simulated: " + SCOPE + ")";
  }

  @Override
  public String compileToPtx(String source, String programName, List<String> options) {
    for (String option : options) {
      if (OPTION_PREFIXES.stream().noneMatch(option::startsWith)) {
        throw new RuntimeCompilationException(
            INVALID_OPTION,
            "NVRTC_ERROR_INVALID_OPTION",
            programName,
            "nvrtc: error: unrecognized option " + option + " found");
      }
    }
    String code = blankCommentsAndLiterals(source);
    String unbalanced = unbalanced(code);
    if (unbalanced != null) {
      throw new RuntimeCompilationException(
          COMPILATION,
          "NVRTC_ERROR_COMPILATION",
          programName,
          programName
              + ": error: "
              + unbalanced
              + "\n1 error detected in the compilation of \""
              + programName
              + "\".");
    }
    Map<String, String> aliases = aliases(code);
    Map<String, List<PtxParam>> kernels = new LinkedHashMap<>();
    Matcher m = KERNEL.matcher(code);
    while (m.find()) {
      int close = Brackets.closing(code, m.end() - 1);
      List<PtxParam> parameters = new ArrayList<>();
      for (String declaration : splitTopLevel(code.substring(m.end(), close))) {
        parameters.add(ptxParam(declaration, aliases));
      }
      kernels.putIfAbsent(m.group(1), parameters);
    }
    StringBuilder ptx =
        new StringBuilder()
            .append("// Declarations only, by the CUDA simulator's stand-in for NVRTC, which ")
            .append(SCOPE)
            .append(".\n// Kernels run through their Java references. A parameter whose type it")
            .append(" cannot size is .unsized (not PTX).\n")
            .append(".version 9.0\n.target sm_90\n.address_size 64\n");
    kernels.forEach(
        (kernel, parameters) -> {
          ptx.append("\n.visible .entry ").append(kernel).append("(");
          for (int i = 0; i < parameters.size(); i++) {
            ptx.append(i == 0 ? "\n\t" : ",\n\t")
                .append(parameters.get(i).declare(kernel + "_param_" + i));
          }
          ptx.append(parameters.isEmpty() ? ")\n" : "\n)\n").append("{\n\tret;\n}\n");
        });
    return ptx.toString();
  }

  @Override
  public String toString() {
    return "SimulatedCompiler[stands in for NVRTC 13.0: " + SCOPE + "]";
  }

  /** {@return how NVRTC passes a parameter declared {@code declaration}} */
  private static PtxParam ptxParam(String declaration, Map<String, String> aliases) {
    String d = declaration;
    int equals = d.indexOf('=');
    if (equals >= 0) {
      d = d.substring(0, equals); // a default argument
    }
    for (int depth = 0; depth < 16; depth++) {
      if (d.contains("*") || d.contains("[") || d.contains("&")) {
        return PtxParam.scalar("u64"); // pointers, arrays (pointers too) and references
      }
      List<String> words = new ArrayList<>();
      Matcher w = WORD.matcher(d);
      while (w.find()) {
        if (!QUALIFIERS.contains(w.group())) {
          words.add(w.group());
        }
      }
      if (words.size() > 1 && !SCALAR_WORDS.contains(words.getLast())) {
        words.removeLast(); // the parameter's name
      }
      String type = String.join(" ", words);
      String alias = aliases.get(type);
      if (alias == null) {
        return known(words);
      }
      d = alias;
    }
    return PtxParam.UNSIZED; // aliases that refer to each other
  }

  private static PtxParam known(List<String> words) {
    if (words.size() == 1) {
      String word = words.getFirst();
      switch (word) {
        case "int8_t", "uint8_t" -> {
          return PtxParam.scalar("u8");
        }
        case "int16_t", "uint16_t" -> {
          return PtxParam.scalar("u16");
        }
        case "int32_t", "uint32_t" -> {
          return PtxParam.scalar("u32");
        }
        case "int64_t",
            "uint64_t",
            "size_t",
            "ssize_t",
            "ptrdiff_t",
            "intptr_t",
            "uintptr_t",
            "cudaTextureObject_t",
            "cudaSurfaceObject_t" -> {
          return PtxParam.scalar("u64");
        }
        case "__half", "half", "__nv_bfloat16", "nv_bfloat16" -> {
          return PtxParam.aggregate(2, 2);
        }
        case "__half2", "half2", "__nv_bfloat162", "nv_bfloat162" -> {
          return PtxParam.aggregate(4, 4);
        }
        case "dim3" -> {
          return PtxParam.aggregate(4, 12);
        }
        default -> {
          Matcher v = VECTOR.matcher(word);
          if (v.matches()) {
            return vector(v.group(1), Integer.parseInt(v.group(2)));
          }
        }
      }
    }
    if (words.isEmpty() || !SCALAR_WORDS.containsAll(words)) {
      return PtxParam.UNSIZED;
    }
    if (words.contains("float")) {
      return words.size() == 1 ? PtxParam.scalar("f32") : PtxParam.UNSIZED;
    }
    if (words.contains("double")) {
      return words.size() == 1 ? PtxParam.scalar("f64") : PtxParam.UNSIZED; // not long double
    }
    if (words.contains("void")) {
      return PtxParam.UNSIZED; // (void) is handled by the caller; a void value has no size
    }
    if (words.contains("bool") || words.contains("char")) {
      return PtxParam.scalar("u8");
    }
    if (words.contains("short")) {
      return PtxParam.scalar("u16");
    }
    return words.contains("long") ? PtxParam.scalar("u64") : PtxParam.scalar("u32");
  }

  /** CUDA's {@code vector_types.h}: {@code float3} is 12 bytes aligned to 4, {@code int4} 16/16. */
  private static PtxParam vector(String base, int n) {
    int element =
        switch (base.replaceFirst("^u", "")) {
          case "char" -> 1;
          case "short" -> 2;
          case "int", "float" -> 4;
          default -> 8; // long (LP64), longlong, double
        };
    int align =
        switch (n) {
          case 2 -> 2 * element;
          case 4 -> Math.min(4 * element, 16);
          default -> element;
        };
    return PtxParam.aggregate(align, n * element);
  }

  /** The program's type aliases: {@code typedef T name;}, {@code using name = T;}, #defines. */
  private static Map<String, String> aliases(String code) {
    Map<String, String> aliases = new HashMap<>();
    Matcher t = TYPEDEF.matcher(code);
    while (t.find()) {
      aliases.put(t.group(2), t.group(1));
    }
    Matcher u = USING.matcher(code);
    while (u.find()) {
      aliases.put(u.group(1), u.group(2));
    }
    Matcher d = DEFINE.matcher(code);
    while (d.find()) {
      aliases.put(d.group(1), d.group(2).strip());
    }
    return aliases;
  }

  /** Splits a parameter list at its top-level commas; {@code ()} and {@code (void)} are empty. */
  private static List<String> splitTopLevel(String list) {
    List<String> parts = new ArrayList<>();
    if (list.isBlank() || list.strip().equals("void")) {
      return parts;
    }
    int depth = 0;
    int start = 0;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c == '(' || c == '<' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == '>' || c == ']' || c == '}') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(list.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(list.substring(start));
    return parts;
  }

  /**
   * {@return {@code source} with comments and the contents of string and character literals
   * replaced by spaces (line breaks kept)}, so that neither a bracket nor a {@code __global__} in
   * them counts
   */
  private static String blankCommentsAndLiterals(String source) {
    StringBuilder out = new StringBuilder(source);
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      char next = i + 1 < source.length() ? source.charAt(i + 1) : '\0';
      int end;
      if (c == '/' && next == '/') {
        end = source.indexOf('\n', i);
        end = end < 0 ? source.length() : end;
      } else if (c == '/' && next == '*') {
        end = source.indexOf("*/", i + 2);
        end = end < 0 ? source.length() : end + 2;
      } else if (c == '"' || c == '\'') {
        end = i + 1;
        while (end < source.length() && source.charAt(end) != c && source.charAt(end) != '\n') {
          end += source.charAt(end) == '\\' ? 2 : 1;
        }
        i++; // keep the quotes
        end = Math.min(end, source.length());
      } else {
        i++;
        continue;
      }
      for (int j = i; j < end; j++) {
        if (out.charAt(j) != '\n') {
          out.setCharAt(j, ' ');
        }
      }
      i = end + (c == '"' || c == '\'' ? 1 : 0);
    }
    return out.toString();
  }

  private static @Nullable String unbalanced(String code) {
    int braces = 0;
    int parens = 0;
    for (int i = 0; i < code.length(); i++) {
      switch (code.charAt(i)) {
        case '{' -> braces++;
        case '}' -> braces--;
        case '(' -> parens++;
        case ')' -> parens--;
        default -> {}
      }
      if (braces < 0 || parens < 0) {
        return "unexpected closing bracket at offset " + i;
      }
    }
    if (braces != 0) {
      return "expected a \"}\"";
    }
    return parens != 0 ? "expected a \")\"" : null;
  }
}
