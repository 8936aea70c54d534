// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.ParamInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code .entry} directives of a PTX module with the layout of their parameters, as {@code
 * cuFuncGetParamInfo} reports it: each parameter at the next offset its alignment allows (an
 * explicit {@code .align}, else the size of its element type), taking its type's size times its
 * array length. A list the simulator cannot read (a parameter of a type it does not know) is
 * absent, and the function then answers {@code CUDA_ERROR_NOT_SUPPORTED}.
 */
final class PtxEntries {

  private static final Pattern ENTRY =
      Pattern.compile("\\.entry\\s+([A-Za-z_$][\\w$]*)\\s*(\\(([^)]*)\\))?", Pattern.DOTALL);

  /**
   * {@code .param [.align A] .type [.ptr [.space] [.align N]] name[[count]]}; the alignment after
   * {@code .ptr} is the pointee's, not the parameter's.
   */
  private static final Pattern PARAM =
      Pattern.compile(
          "\\s*\\.param\\s+(?:\\.align\\s+(\\d+)\\s+)?\\.([a-z]+)(\\d+)(?:x(\\d+))?"
              + "(?:\\s+\\.ptr(?:\\s+\\.\\w+)*?(?:\\s+\\.align\\s+\\d+)?)?"
              + "\\s+[A-Za-z_$%][\\w$]*(?:\\s*\\[\\s*(\\d+)\\s*])?\\s*");

  private PtxEntries() {}

  /**
   * {@return every entry of {@code ptx} by name, in the order declared, each with its parameters,
   * or empty where the simulator cannot read them}
   */
  static Map<String, Optional<List<ParamInfo>>> of(String ptx) {
    Map<String, Optional<List<ParamInfo>>> entries = new LinkedHashMap<>();
    Matcher m = ENTRY.matcher(stripComments(ptx));
    while (m.find()) {
      // PTX allows an entry without a parameter list: it has no parameters.
      String list = m.group(2) == null ? "" : m.group(3);
      entries.putIfAbsent(m.group(1), parameters(list));
    }
    return entries;
  }

  private static Optional<List<ParamInfo>> parameters(String list) {
    List<ParamInfo> parameters = new ArrayList<>();
    if (list.isBlank()) {
      return Optional.of(parameters);
    }
    long end = 0;
    for (String declaration : list.split(",")) {
      Matcher p = PARAM.matcher(declaration);
      if (!p.matches()) {
        return Optional.empty();
      }
      int bits = Integer.parseInt(p.group(3));
      if (bits % 8 != 0 || bits == 0) {
        return Optional.empty();
      }
      long element = bits / 8L * (p.group(4) == null ? 1 : Integer.parseInt(p.group(4)));
      long count = p.group(5) == null ? 1 : Long.parseLong(p.group(5));
      long align = p.group(1) == null ? element : Long.parseLong(p.group(1));
      long offset = (end + align - 1) / align * align;
      long size = element * count;
      parameters.add(new ParamInfo(offset, size));
      end = offset + size;
    }
    return Optional.of(List.copyOf(parameters));
  }

  static String stripComments(String ptx) {
    return ptx.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", "");
  }
}
