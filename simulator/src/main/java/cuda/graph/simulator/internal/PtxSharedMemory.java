// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The static shared memory of each {@code .entry} of a PTX module, as {@code cuFuncGetAttribute(
 * CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)} reports it: the {@code .shared} variables declared in the
 * kernel's body, in the body of each {@code .func} it reaches (by calling it or taking its
 * address), and those at module scope that any of these bodies names. nvcc writes a kernel's {@code
 * __shared__} arrays into its body and a device function's static ones at module scope, {@code
 * .shared .align 4 .b8 name[640];}. Each variable lies at the next offset its alignment allows (an
 * explicit {@code .align}, else its element's size), in the order the module declares them; {@code
 * .extern .shared} arrays are the dynamic shared memory and count nothing. A kernel that declares
 * or reaches a variable of a type the simulator cannot size has no answer.
 */
final class PtxSharedMemory {

  /** The header of a function with a body or a prototype: the name, after any return list. */
  private static final Pattern FUNCTION =
      Pattern.compile("\\.(entry|func)\\s+(?:\\([^)]*\\)\\s*)?([A-Za-z_$%][\\w$]*)");

  /**
   * {@code [.extern] .shared [.align A] [.vN] .type name[[n]]...[, name...];}: the attributes, the
   * element type and the declarators.
   */
  private static final Pattern SHARED =
      Pattern.compile(
          "((?:\\.(?:extern|visible|weak|common)\\s+)*)\\.shared\\s+(?:\\.align\\s+(\\d+)\\s+)?"
              + "(?:\\.v(\\d+)\\s+)?\\.([a-z]+\\d*(?:x\\d+)?)\\s+([^;]+);");

  private static final Pattern DECLARATOR =
      Pattern.compile("\\s*([A-Za-z_$%][\\w$]*)((?:\\s*\\[\\s*\\d*\\s*])*)\\s*");
  private static final Pattern DIMENSION = Pattern.compile("\\[\\s*(\\d*)\\s*]");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$%][\\w$]*");
  private static final Pattern TYPE = Pattern.compile("[a-z]+?(\\d+)(?:x(\\d+))?");

  /** A {@code .shared} variable: where it is declared, its alignment and size; -1 if unknown. */
  private record Variable(int position, long align, long size) {}

  /** A function with a body: its own {@code .shared} variables and the names it uses. */
  private record Body(boolean entry, List<Variable> variables, Set<String> names) {}

  private PtxSharedMemory() {}

  /**
   * {@return the static shared memory of every entry of {@code text} by name, empty where the
   * simulator cannot size a variable it uses}
   */
  static Map<String, OptionalInt> of(String text) {
    String ptx = PtxEntries.stripComments(text);
    Map<String, Body> bodies = new LinkedHashMap<>();
    StringBuilder moduleScope = new StringBuilder(ptx);
    Matcher header = FUNCTION.matcher(ptx);
    int from = 0;
    while (from < ptx.length() && header.find(from)) {
      int open = bodyStart(ptx, header.end());
      if (open < 0) {
        from = Math.max(header.end(), semicolonAfter(ptx, header.end()));
        continue; // a prototype
      }
      int close = Brackets.closing(ptx, open);
      String body = ptx.substring(open + 1, close);
      Set<String> names = new HashSet<>();
      Matcher identifier = IDENTIFIER.matcher(body);
      while (identifier.find()) {
        names.add(identifier.group());
      }
      bodies.putIfAbsent(
          header.group(2),
          new Body(
              header.group(1).equals("entry"),
              List.copyOf(variables(body, open + 1).values()),
              names));
      for (int i = open; i <= Math.min(close, ptx.length() - 1); i++) {
        moduleScope.setCharAt(i, ' '); // what is left outside bodies is module scope
      }
      from = close + 1;
    }
    Map<String, Variable> module = variables(moduleScope.toString(), 0);
    Map<String, OptionalInt> sizes = new LinkedHashMap<>();
    for (Map.Entry<String, Body> e : bodies.entrySet()) {
      if (e.getValue().entry()) {
        sizes.put(e.getKey(), size(e.getKey(), bodies, module));
      }
    }
    return sizes;
  }

  /** The variables of the entry {@code name}, of the functions it reaches, and of module scope. */
  private static OptionalInt size(
      String name, Map<String, Body> bodies, Map<String, Variable> module) {
    Set<String> reached = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>(List.of(name));
    List<Variable> used = new ArrayList<>();
    Set<String> moduleUsed = new HashSet<>();
    while (!pending.isEmpty()) {
      String f = pending.pop();
      Body body = bodies.get(f);
      if (body == null || !reached.add(f)) {
        continue;
      }
      used.addAll(body.variables());
      for (String n : body.names()) {
        if (bodies.containsKey(n) && !bodies.get(n).entry()) {
          pending.push(n);
        } else if (module.containsKey(n) && moduleUsed.add(n)) {
          used.add(module.get(n));
        }
      }
    }
    used.sort((a, b) -> Integer.compare(a.position(), b.position()));
    long end = 0;
    for (Variable v : used) {
      if (v.size() < 0) {
        return OptionalInt.empty();
      }
      end = (end + v.align() - 1) / v.align() * v.align() + v.size();
    }
    return end > Integer.MAX_VALUE ? OptionalInt.empty() : OptionalInt.of((int) end);
  }

  /** {@return the static {@code .shared} variables declared in {@code text}, by name} */
  private static Map<String, Variable> variables(String text, int offset) {
    Map<String, Variable> variables = new LinkedHashMap<>();
    Matcher m = SHARED.matcher(text);
    while (m.find()) {
      if (m.group(1).contains(".extern")) {
        continue; // dynamic shared memory, sized by each launch
      }
      Matcher type = TYPE.matcher(m.group(4));
      long element = -1;
      if (type.matches() && Integer.parseInt(type.group(1)) % 8 == 0) {
        element =
            Integer.parseInt(type.group(1))
                / 8L
                * (type.group(2) == null ? 1 : Integer.parseInt(type.group(2)))
                * (m.group(3) == null ? 1 : Integer.parseInt(m.group(3)));
      }
      for (String declarator : m.group(5).split(",")) {
        Matcher d = DECLARATOR.matcher(declarator);
        if (!d.matches()) {
          continue;
        }
        long size = element;
        Matcher dimension = DIMENSION.matcher(d.group(2));
        while (dimension.find() && size >= 0) {
          size = dimension.group(1).isEmpty() ? -1 : size * Long.parseLong(dimension.group(1));
        }
        long align = m.group(2) == null ? Math.max(1, element) : Long.parseLong(m.group(2));
        variables.putIfAbsent(
            d.group(1), new Variable(offset + m.start(), align, element <= 0 ? -1 : size));
      }
    }
    return variables;
  }

  /** {@return the offset of the body's opening brace, or -1 when a semicolon comes first} */
  private static int bodyStart(String ptx, int from) {
    int depth = 0;
    for (int i = from; i < ptx.length(); i++) {
      char c = ptx.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (depth == 0 && c == '{') {
        return i;
      } else if (depth == 0 && c == ';') {
        return -1;
      }
    }
    return -1;
  }

  private static int semicolonAfter(String ptx, int from) {
    int at = ptx.indexOf(';', from);
    return at < 0 ? ptx.length() : at + 1;
  }
}
