// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.KernelParam;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The parameter list of one {@code .entry} of a PTX module, as the PTX text declares it, and the
 * check of a kernel's declared {@link KernelParam}s against it: the same count, and at each
 * position a parameter of the same size and kind (a {@code .f32} is an {@code F32}, a {@code .u64}
 * an {@code I64} or a pointer, ...). A kernel launched with a wrong declaration reads garbage on a
 * GPU, so the mismatch is refused when the kernel is declared, on every provider.
 *
 * @param entry the kernel's name
 * @param types each parameter's PTX type ({@code u32}, {@code f32}, {@code b8[16]}, ...)
 */
record PtxSignature(String entry, List<String> types) {

  private static final Pattern ENTRY =
      Pattern.compile("\\.entry\\s+([A-Za-z_$][\\w$]*)\\s*\\(([^)]*)\\)", Pattern.DOTALL);
  private static final Pattern PARAM =
      Pattern.compile(
          "\\.param\\s+(?:\\.align\\s+\\d+\\s+)?\\.(\\w+)(?:\\s+\\.ptr(?:\\s+\\.\\w+)*(?:\\s+\\.align\\s+\\d+)?)?"
              + "\\s+[A-Za-z_$%][\\w$]*(?:\\[(\\d+)])?");

  /**
   * {@return the signature of {@code entry} in {@code ptx}, or empty if it declares no such entry}
   */
  static Optional<PtxSignature> find(String ptx, String entry) {
    Matcher m = ENTRY.matcher(stripComments(ptx));
    while (m.find()) {
      if (m.group(1).equals(entry)) {
        List<String> types = new ArrayList<>();
        Matcher p = PARAM.matcher(m.group(2));
        while (p.find()) {
          types.add(p.group(2) == null ? p.group(1) : p.group(1) + "[" + p.group(2) + "]");
        }
        return Optional.of(new PtxSignature(entry, List.copyOf(types)));
      }
    }
    return Optional.empty();
  }

  /**
   * {@return why {@code declared} does not fit this signature, or null when it does}: the message
   * names both signatures
   */
  @Nullable String mismatch(String declaredSignature, List<KernelParam> declared, String image) {
    return DeclarationCheck.mismatch(
        entry,
        declaredSignature,
        declared,
        image,
        this,
        types.size(),
        (i, p) ->
            fits(types.get(i), p)
                ? null
                : "parameter " + i + " is ." + types.get(i) + ", which " + p + " cannot pass",
        "declare the kernel with the parameters of its .entry");
  }

  /** Whether a value of {@code param} is what a PTX parameter of {@code type} expects. */
  private static boolean fits(String type, KernelParam param) {
    return switch (type) {
      case "u8", "s8", "b8" -> param == KernelParam.I8;
      case "u16", "s16", "b16", "f16", "bf16" -> param == KernelParam.I16;
      case "u32", "s32" -> param == KernelParam.I32;
      case "f32" -> param == KernelParam.F32;
      case "b32" -> param == KernelParam.I32 || param == KernelParam.F32;
      case "u64", "s64" ->
          param == KernelParam.I64 || param.isPointer() || param == KernelParam.CONDITION;
      case "b64" ->
          param == KernelParam.I64
              || param == KernelParam.F64
              || param.isPointer()
              || param == KernelParam.CONDITION;
      case "f64" -> param == KernelParam.F64;
      default -> false; // arrays (by-value structs) and types no KernelParam passes
    };
  }

  private static String stripComments(String ptx) {
    return ptx.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", "");
  }

  @Override
  public String toString() {
    StringJoiner j = new StringJoiner(", ", entry + "(", ")");
    types.forEach(t -> j.add("." + t));
    return j.toString();
  }
}
