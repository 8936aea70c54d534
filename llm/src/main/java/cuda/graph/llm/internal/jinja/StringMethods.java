// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import static cuda.graph.llm.internal.jinja.JinjaRenderer.arg;
import static cuda.graph.llm.internal.jinja.JinjaValues.repr;
import static cuda.graph.llm.internal.jinja.JinjaValues.str;
import static cuda.graph.llm.internal.jinja.JinjaValues.typeName;

import cuda.graph.llm.internal.jinja.JinjaValues.EvalError;
import cuda.graph.llm.internal.jinja.JinjaValues.Function;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The methods of Python's str that chat templates call, with Python's meaning. */
final class StringMethods {

  private StringMethods() {}

  /** {@return the method {@code name} bound to {@code s}, or null when str has none such} */
  static @Nullable Function of(String s, String name) {
    return switch (name) {
      case "strip", "lstrip", "rstrip" ->
          (args, kw) -> {
            Object chars = args.isEmpty() ? kw.get("chars") : args.getFirst();
            return JinjaValues.strip(
                s,
                chars == null ? null : str(chars),
                !name.equals("rstrip"),
                !name.equals("lstrip"));
          };
      case "startswith", "endswith" ->
          (args, kw) -> {
            Object affix = arg(args, kw, 0, name.equals("startswith") ? "prefix" : "suffix");
            List<?> options = affix instanceof List<?> l ? l : List.of(affix == null ? "" : affix);
            for (Object o : options) {
              if (!(o instanceof String a)) {
                throw new EvalError(
                    name + " first arg must be str or a tuple of str, not " + typeName(o));
              }
              if (name.equals("startswith") ? s.startsWith(a) : s.endsWith(a)) {
                return true;
              }
            }
            return false;
          };
      case "split" ->
          (args, kw) -> {
            Object sep = args.isEmpty() ? kw.get("sep") : args.getFirst();
            Object max = args.size() > 1 ? args.get(1) : kw.getOrDefault("maxsplit", -1L);
            return split(s, sep == null ? null : str(sep), JinjaValues.toLong(max));
          };
      case "upper" -> (args, kw) -> s.toUpperCase(Locale.ROOT);
      case "lower" -> (args, kw) -> s.toLowerCase(Locale.ROOT);
      case "title" -> (args, kw) -> title(s);
      case "capitalize" -> (args, kw) -> capitalize(s);
      case "replace" ->
          (args, kw) ->
              replace(
                  s,
                  str(arg(args, kw, 0, "old")),
                  str(arg(args, kw, 1, "new")),
                  args.size() > 2 ? JinjaValues.toLong(args.get(2)) : -1);
      case "format" -> (args, kw) -> format(s, args, kw);
      case "join" ->
          (args, kw) -> {
            StringBuilder b = new StringBuilder();
            boolean first = true;
            for (Object x : JinjaRenderer.iterate(arg(args, kw, 0, "iterable"))) {
              if (!(x instanceof String t)) {
                throw new EvalError("join: expected str, got " + typeName(x));
              }
              b.append(first ? "" : s).append(t);
              first = false;
              if (b.length() > JinjaRenderer.MAX_SIZE) {
                throw new EvalError(
                    "a string of more than " + JinjaRenderer.MAX_SIZE + " characters");
              }
            }
            return b.toString();
          };
      case "find" -> (args, kw) -> (long) s.indexOf(str(arg(args, kw, 0, "sub")));
      case "count" ->
          (args, kw) -> {
            String sub = str(arg(args, kw, 0, "sub"));
            if (sub.isEmpty()) {
              return (long) s.codePointCount(0, s.length()) + 1;
            }
            long n = 0;
            for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length())) {
              n++;
            }
            return n;
          };
      case "splitlines" -> (args, kw) -> new ArrayList<@Nullable Object>(splitLines(s));
      default -> null;
    };
  }

  static List<@Nullable Object> split(String s, @Nullable String sep, long maxSplit) {
    List<@Nullable Object> parts = new ArrayList<>();
    if (sep == null) {
      int i = 0;
      int n = s.length();
      while (true) {
        while (i < n && JinjaValues.isSpace(s.charAt(i))) {
          i++;
        }
        if (i == n) {
          return parts;
        }
        if (maxSplit >= 0 && parts.size() == maxSplit) {
          parts.add(JinjaValues.strip(s.substring(i), null, false, true));
          return parts;
        }
        int j = i;
        while (j < n && !JinjaValues.isSpace(s.charAt(j))) {
          j++;
        }
        parts.add(s.substring(i, j));
        i = j;
      }
    }
    if (sep.isEmpty()) {
      throw new EvalError("split: empty separator");
    }
    int from = 0;
    for (int i = s.indexOf(sep);
        i >= 0 && (maxSplit < 0 || parts.size() < maxSplit);
        i = s.indexOf(sep, from)) {
      parts.add(s.substring(from, i));
      from = i + sep.length();
    }
    parts.add(s.substring(from));
    return parts;
  }

  static String replace(String s, String old, String replacement, long count) {
    if (count < 0) {
      long n = old.isEmpty() ? s.length() + 1 : (s.length() / old.length());
      if ((long) s.length() + n * replacement.length() > JinjaRenderer.MAX_SIZE * 2L) {
        throw new EvalError("a string of more than " + JinjaRenderer.MAX_SIZE + " characters");
      }
      return s.replace(old, replacement);
    }
    StringBuilder b = new StringBuilder();
    int from = 0;
    long done = 0;
    if (old.isEmpty()) {
      int[] cps = s.codePoints().toArray();
      for (int cp : cps) {
        if (done++ < count) {
          b.append(replacement);
        }
        b.appendCodePoint(cp);
      }
      if (done < count) {
        b.append(replacement);
      }
      return b.toString();
    }
    for (int i = s.indexOf(old); i >= 0 && done < count; i = s.indexOf(old, from)) {
      b.append(s, from, i).append(replacement);
      from = i + old.length();
      done++;
    }
    return b.append(s.substring(from)).toString();
  }

  /** Python's str.capitalize: the first character title-cased, the rest lower-cased. */
  static String capitalize(String s) {
    if (s.isEmpty()) {
      return s;
    }
    int first = s.codePointAt(0);
    return new StringBuilder()
        .appendCodePoint(Character.toTitleCase(first))
        .append(s.substring(Character.charCount(first)).toLowerCase(Locale.ROOT))
        .toString();
  }

  /** The first character upper-cased, the rest lower-cased (jinja2's title filter's words). */
  static String capitalizeFirst(String s) {
    if (s.isEmpty()) {
      return s;
    }
    int first = s.codePointAt(0);
    return Character.toString(first).toUpperCase(Locale.ROOT)
        + s.substring(Character.charCount(first)).toLowerCase(Locale.ROOT);
  }

  /** Python's str.title: a letter after a letter lower-cased, any other title-cased. */
  static String title(String s) {
    StringBuilder b = new StringBuilder();
    boolean previousCased = false;
    for (int cp : s.codePoints().toArray()) {
      boolean cased =
          Character.isUpperCase(cp) || Character.isLowerCase(cp) || Character.isTitleCase(cp);
      b.appendCodePoint(
          cased ? (previousCased ? Character.toLowerCase(cp) : Character.toTitleCase(cp)) : cp);
      previousCased = cased;
    }
    return b.toString();
  }

  /** Python's splitlines on \n (the template's newlines are normalized already). */
  static List<String> splitLines(String s) {
    List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
    if (!lines.isEmpty() && lines.getLast().isEmpty()) {
      lines.removeLast();
    }
    return lines;
  }

  /** Python's str.format with {}, {0}, {name} and {x!r}; format specifications are refused. */
  static String format(String s, List<@Nullable Object> args, Map<String, @Nullable Object> kw) {
    StringBuilder b = new StringBuilder();
    int auto = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '}' && i + 1 < s.length() && s.charAt(i + 1) == '}') {
        b.append('}');
        i++;
      } else if (c == '{' && i + 1 < s.length() && s.charAt(i + 1) == '{') {
        b.append('{');
        i++;
      } else if (c == '{') {
        int close = s.indexOf('}', i);
        if (close < 0) {
          throw new EvalError("format: single '{' encountered in format string");
        }
        String field = s.substring(i + 1, close);
        boolean asRepr = field.endsWith("!r");
        if (asRepr || field.endsWith("!s")) {
          field = field.substring(0, field.length() - 2);
        }
        if (field.contains(":") || field.contains("!")) {
          throw new EvalError("format: the field {" + field + "} is not supported");
        }
        Object v;
        if (field.isEmpty()) {
          v = at(args, auto++);
        } else if (field.chars().allMatch(Character::isDigit)) {
          v = at(args, Integer.parseInt(field));
        } else if (kw.containsKey(field)) {
          v = kw.get(field);
        } else {
          throw new EvalError("format: no argument named '" + field + "'");
        }
        b.append(asRepr ? repr(v) : str(v));
        i = close;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static @Nullable Object at(List<@Nullable Object> args, int i) {
    if (i >= args.size()) {
      throw new EvalError("format: replacement index " + i + " out of range");
    }
    return args.get(i);
  }
}
