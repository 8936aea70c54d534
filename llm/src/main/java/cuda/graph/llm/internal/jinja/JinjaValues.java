// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The values a template sees, with Python's meaning: String, Long, Double, Boolean, List, Map, null
 * (None), {@link Undefined}, {@link Namespace}, the loop variable and functions. Nothing else
 * reaches a template, so it cannot reach into Java objects.
 */
final class JinjaValues {

  private JinjaValues() {}

  /**
   * jinja2's default Undefined: renders empty, is falsy, iterates as empty; anything else fails.
   */
  record Undefined(String hint) {}

  /** {@code namespace(...)}: the one value a template may change from inside a loop. */
  static final class Namespace {
    final Map<String, @Nullable Object> attributes = new LinkedHashMap<>();
  }

  /** A Python tuple: a list that Python writes in parentheses (what {@code items()} yields). */
  static final class Tuple extends java.util.AbstractList<@Nullable Object> {
    private final @Nullable Object[] items;

    Tuple(@Nullable Object... items) {
      this.items = items.clone();
    }

    @Override
    public @Nullable Object get(int index) {
      return items[index];
    }

    @Override
    public int size() {
      return items.length;
    }
  }

  /** A function of the template: a global, a macro or a bound method of a value. */
  @FunctionalInterface
  interface Function {
    @Nullable Object call(List<@Nullable Object> args, Map<String, @Nullable Object> kwargs);
  }

  /** An error of evaluation; the renderer adds the line. */
  static class EvalError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EvalError(String reason) {
      super(reason, null, false, false);
    }
  }

  static EvalError undefinedError(Undefined u) {
    return new EvalError(u.hint());
  }

  static boolean truthy(@Nullable Object v) {
    return switch (v) {
      case null -> false;
      case Boolean b -> b;
      case Long l -> l != 0;
      case Double d -> d != 0.0;
      case String s -> !s.isEmpty();
      case List<?> l -> !l.isEmpty();
      case Map<?, ?> m -> !m.isEmpty();
      case Undefined u -> false;
      default -> true;
    };
  }

  /** Python's type name, for error messages as Python writes them. */
  static String typeName(@Nullable Object v) {
    return switch (v) {
      case null -> "NoneType";
      case Boolean b -> "bool";
      case Long l -> "int";
      case Double d -> "float";
      case String s -> "str";
      case Tuple t -> "tuple";
      case List<?> l -> "list";
      case Map<?, ?> m -> "dict";
      case Undefined u -> "Undefined";
      case Namespace n -> "Namespace";
      default -> "function";
    };
  }

  /** Python's {@code str(v)}, what {@code {{ v }}} writes. */
  static String str(@Nullable Object v) {
    return switch (v) {
      case String s -> s;
      case Undefined u -> "";
      case null, default -> repr(v);
    };
  }

  /** Python's {@code repr(v)}. */
  static String repr(@Nullable Object v) {
    return switch (v) {
      case null -> "None";
      case Boolean b -> b ? "True" : "False";
      case Long l -> l.toString();
      case Double d -> floatRepr(d);
      case String s -> stringRepr(s);
      case Tuple t -> {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < t.size(); i++) {
          b.append(i > 0 ? ", " : "").append(repr(t.get(i)));
        }
        yield b.append(t.size() == 1 ? ",)" : ")").toString();
      }
      case List<?> l -> {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < l.size(); i++) {
          b.append(i > 0 ? ", " : "").append(repr(l.get(i)));
        }
        yield b.append(']').toString();
      }
      case Map<?, ?> m -> {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
          b.append(first ? "" : ", ")
              .append(repr(e.getKey()))
              .append(": ")
              .append(repr(e.getValue()));
          first = false;
        }
        yield b.append('}').toString();
      }
      case Undefined u -> "Undefined";
      case Namespace n -> "<Namespace " + repr(n.attributes) + ">";
      default -> "<function>";
    };
  }

  private static String stringRepr(String s) {
    char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
    StringBuilder b = new StringBuilder().append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c == quote) {
            b.append('\\').append(c);
          } else if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\x%02x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append(quote).toString();
  }

  /** Python's float repr: the shortest round-tripping digits, exponent outside [1e-4, 1e16). */
  static String floatRepr(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0.0" : "0.0";
    }
    // Java's Double.toString gives the shortest round-tripping digits too (JDK 19 and later).
    BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
    String digits = exact.unscaledValue().toString();
    int exponent = digits.length() - 1 - exact.scale(); // of the first digit
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign
          + mantissa
          + "e"
          + (exponent < 0 ? "-" : "+")
          + (Math.abs(exponent) < 10 ? "0" : "")
          + Math.abs(exponent);
    }
    String plain = exact.toPlainString();
    return sign + (plain.contains(".") ? plain : plain + ".0");
  }

  /** transformers' tojson: Python's json.dumps with ensure_ascii off unless asked. */
  static String toJson(
      @Nullable Object v, @Nullable Integer indent, boolean ensureAscii, boolean sortKeys) {
    StringBuilder b = new StringBuilder();
    writeJson(b, v, indent, ensureAscii, sortKeys, 0);
    return b.toString();
  }

  private static void writeJson(
      StringBuilder b,
      @Nullable Object v,
      @Nullable Integer indent,
      boolean ascii,
      boolean sortKeys,
      int level) {
    switch (v) {
      case null -> b.append("null");
      case Boolean x -> b.append(x ? "true" : "false");
      case Long x -> b.append(x);
      case Double x ->
          b.append(
              x.isNaN()
                  ? "NaN"
                  : x.isInfinite() ? (x > 0 ? "Infinity" : "-Infinity") : floatRepr(x));
      case String s -> jsonString(b, s, ascii);
      case List<?> l -> {
        if (l.isEmpty()) {
          b.append("[]");
          return;
        }
        b.append('[');
        for (int i = 0; i < l.size(); i++) {
          if (i > 0) {
            b.append(indent == null ? ", " : ",");
          }
          newline(b, indent, level + 1);
          writeJson(b, l.get(i), indent, ascii, sortKeys, level + 1);
        }
        newline(b, indent, level);
        b.append(']');
      }
      case Map<?, ?> m -> {
        if (m.isEmpty()) {
          b.append("{}");
          return;
        }
        List<Map.Entry<?, ?>> entries = new ArrayList<>(m.entrySet());
        if (sortKeys) {
          entries.sort((x, y) -> str(x.getKey()).compareTo(str(y.getKey())));
        }
        b.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : entries) {
          if (!first) {
            b.append(indent == null ? ", " : ",");
          }
          first = false;
          newline(b, indent, level + 1);
          Object key = e.getKey();
          String k =
              switch (key) {
                case String s -> s;
                case Boolean x -> x ? "true" : "false";
                case null -> "null";
                case Long x -> x.toString();
                case Double x -> floatRepr(x);
                default ->
                    throw new EvalError(
                        "tojson: keys must be str, int, float, bool or None, not " + typeName(key));
              };
          jsonString(b, k, ascii);
          b.append(": ");
          writeJson(b, e.getValue(), indent, ascii, sortKeys, level + 1);
        }
        newline(b, indent, level);
        b.append('}');
      }
      case Namespace n ->
          throw new EvalError("tojson: Object of type Namespace is not JSON serializable");
      case Undefined u ->
          throw new EvalError("tojson: Object of type Undefined is not JSON serializable");
      default ->
          throw new EvalError(
              "tojson: Object of type " + typeName(v) + " is not JSON serializable");
    }
  }

  private static void newline(StringBuilder b, @Nullable Integer indent, int level) {
    if (indent != null) {
      b.append('\n').append(" ".repeat(indent * level));
    }
  }

  private static void jsonString(StringBuilder b, String s, boolean ascii) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20 || (ascii && c > 0x7e)) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  /** Python's {@code ==}: numbers by value (bool as 0 and 1), containers element by element. */
  static boolean equal(@Nullable Object a, @Nullable Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Undefined || b instanceof Undefined) {
      return a instanceof Undefined && b instanceof Undefined;
    }
    if (isNumber(a) && isNumber(b)) {
      if (a instanceof Double || b instanceof Double) {
        return toDouble(a) == toDouble(b);
      }
      return toLong(a) == toLong(b);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!equal(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : x.entrySet()) {
        if (!y.containsKey(e.getKey()) || !equal(e.getValue(), y.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** Python's ordering of {@code a} and {@code b}: numbers, strings or lists of them. */
  static int compare(@Nullable Object a, @Nullable Object b, String op) {
    if (isNumber(a) && isNumber(b)) {
      return a instanceof Double || b instanceof Double
          ? Double.compare(toDouble(a), toDouble(b))
          : Long.compare(toLong(a), toLong(b));
    }
    if (a instanceof String x && b instanceof String y) {
      return x.compareTo(y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        if (!equal(x.get(i), y.get(i))) {
          return compare(x.get(i), y.get(i), op);
        }
      }
      return Integer.compare(x.size(), y.size());
    }
    if (a instanceof Undefined u) {
      throw undefinedError(u);
    }
    if (b instanceof Undefined u) {
      throw undefinedError(u);
    }
    throw new EvalError(
        "'"
            + op
            + "' not supported between instances of '"
            + typeName(a)
            + "' and '"
            + typeName(b)
            + "'");
  }

  static boolean isNumber(@Nullable Object v) {
    return v instanceof Long || v instanceof Double || v instanceof Boolean;
  }

  static long toLong(@Nullable Object v) {
    return switch (v) {
      case Long l -> l;
      case Boolean b -> b ? 1 : 0;
      case Double d -> d.longValue();
      case null, default -> throw new EvalError("expected a number, got " + typeName(v));
    };
  }

  static double toDouble(@Nullable Object v) {
    return switch (v) {
      case Long l -> l;
      case Boolean b -> b ? 1 : 0;
      case Double d -> d;
      case null, default -> throw new EvalError("expected a number, got " + typeName(v));
    };
  }

  /** Python's {@code str.isspace} of one character. */
  static boolean isSpace(int c) {
    return Character.isWhitespace(c)
        || Character.isSpaceChar(c)
        || c == 0x85
        || (c >= 0x1c && c <= 0x1f);
  }

  /** Python's {@code str.strip(chars)}; {@code chars} null strips whitespace. */
  static String strip(String s, @Nullable String chars, boolean left, boolean right) {
    int b = 0;
    int e = s.length();
    while (left && b < e && stripped(s.charAt(b), chars)) {
      b++;
    }
    while (right && e > b && stripped(s.charAt(e - 1), chars)) {
      e--;
    }
    return s.substring(b, e);
  }

  private static boolean stripped(char c, @Nullable String chars) {
    return chars == null ? isSpace(c) : chars.indexOf(c) >= 0;
  }

  /** A JSON value as a template sees it (integers as Long, other numbers as Double). */
  static @Nullable Object fromJson(@Nullable JsonElement e) {
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (e.isJsonPrimitive()) {
      JsonPrimitive p = e.getAsJsonPrimitive();
      if (p.isBoolean()) {
        return p.getAsBoolean();
      }
      if (p.isString()) {
        return p.getAsString();
      }
      String n = p.getAsString();
      if (n.contains(".") || n.contains("e") || n.contains("E")) {
        return p.getAsDouble();
      }
      try {
        return Long.parseLong(n);
      } catch (NumberFormatException x) {
        return p.getAsDouble();
      }
    }
    if (e.isJsonArray()) {
      List<@Nullable Object> list = new ArrayList<>();
      e.getAsJsonArray().forEach(x -> list.add(fromJson(x)));
      return list;
    }
    Map<Object, @Nullable Object> map = new LinkedHashMap<>();
    e.getAsJsonObject().entrySet().forEach(x -> map.put(x.getKey(), fromJson(x.getValue())));
    return map;
  }

  /** Python's {@code datetime.strftime} for the directives chat templates use. */
  static String strftime(LocalDateTime t, String format) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%' || i + 1 == format.length()) {
        b.append(c);
        continue;
      }
      char d = format.charAt(++i);
      boolean unpadded = d == '-' && i + 1 < format.length();
      if (unpadded) {
        d = format.charAt(++i);
      }
      String two = unpadded ? "%d" : "%02d";
      switch (d) {
        case 'd' -> b.append(String.format(two, t.getDayOfMonth()));
        case 'm' -> b.append(String.format(two, t.getMonthValue()));
        case 'Y' -> b.append(t.getYear());
        case 'y' -> b.append(String.format("%02d", t.getYear() % 100));
        case 'H' -> b.append(String.format(two, t.getHour()));
        case 'I' -> b.append(String.format(two, (t.getHour() + 11) % 12 + 1));
        case 'M' -> b.append(String.format(two, t.getMinute()));
        case 'S' -> b.append(String.format(two, t.getSecond()));
        case 'p' -> b.append(t.getHour() < 12 ? "AM" : "PM");
        case 'j' -> b.append(String.format(unpadded ? "%d" : "%03d", t.getDayOfYear()));
        case 'b' -> b.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
        case 'B' -> b.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
        case 'a' -> b.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
        case 'A' -> b.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
        case '%' -> b.append('%');
        default ->
            throw new EvalError(
                "strftime_now: the directive %" + d + " of \"" + format + "\" is not supported");
      }
    }
    return b.toString();
  }
}
