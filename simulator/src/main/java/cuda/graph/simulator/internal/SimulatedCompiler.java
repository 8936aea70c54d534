package cuda.graph.simulator.internal;

import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.spi.RuntimeCompiler;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulator's stand-in for NVRTC. It does not compile device code (the simulator runs kernels
 * through their Java implementations); it checks what it can the way NVRTC reports it (unknown
 * options, unbalanced brackets, a program without kernels) and emits PTX that declares the
 * program's {@code __global__} functions, so the module loads and its kernels can be looked up.
 */
final class SimulatedCompiler implements RuntimeCompiler {

  private static final int INVALID_OPTION = 5;
  private static final int COMPILATION = 6;
  private static final Pattern KERNEL =
      Pattern.compile(
          "__global__\\s+(?:__launch_bounds__\\s*\\([^)]*\\)\\s*)?void\\s+([A-Za-z_]\\w*)\\s*\\(");
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

  @Override
  public String version() {
    return "13.0 (simulated)";
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
    String unbalanced = unbalanced(source);
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
    Set<String> kernels = new LinkedHashSet<>();
    Matcher m = KERNEL.matcher(source);
    while (m.find()) {
      kernels.add(m.group(1));
    }
    StringBuilder ptx =
        new StringBuilder()
            .append(
                "// Declarations only: the CUDA simulator stands in for NVRTC and runs kernels"
                    + " through their Java\n")
            .append("// implementations.\n.version 9.0\n.target sm_90\n.address_size 64\n");
    for (String kernel : kernels) {
      ptx.append(".visible .entry ").append(kernel).append("()\n{\n\tret;\n}\n");
    }
    return ptx.toString();
  }

  private static String unbalanced(String source) {
    int braces = 0;
    int parens = 0;
    for (int i = 0; i < source.length(); i++) {
      switch (source.charAt(i)) {
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
