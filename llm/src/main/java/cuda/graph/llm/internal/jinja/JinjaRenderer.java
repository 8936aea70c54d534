// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import static cuda.graph.llm.internal.jinja.JinjaValues.equal;
import static cuda.graph.llm.internal.jinja.JinjaValues.repr;
import static cuda.graph.llm.internal.jinja.JinjaValues.str;
import static cuda.graph.llm.internal.jinja.JinjaValues.truthy;
import static cuda.graph.llm.internal.jinja.JinjaValues.typeName;

import cuda.graph.llm.internal.jinja.JinjaSyntax.Assign;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Binary;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Break;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Call;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Compare;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Conditional;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Continue;
import cuda.graph.llm.internal.jinja.JinjaSyntax.DictExpr;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Expr;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Filter;
import cuda.graph.llm.internal.jinja.JinjaSyntax.For;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Generation;
import cuda.graph.llm.internal.jinja.JinjaSyntax.GetAttr;
import cuda.graph.llm.internal.jinja.JinjaSyntax.GetItem;
import cuda.graph.llm.internal.jinja.JinjaSyntax.If;
import cuda.graph.llm.internal.jinja.JinjaSyntax.ListExpr;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Literal;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Macro;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Name;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Node;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Output;
import cuda.graph.llm.internal.jinja.JinjaSyntax.SetBlock;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Slice;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Test;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Text;
import cuda.graph.llm.internal.jinja.JinjaSyntax.Unary;
import cuda.graph.llm.internal.jinja.JinjaValues.EvalError;
import cuda.graph.llm.internal.jinja.JinjaValues.Function;
import cuda.graph.llm.internal.jinja.JinjaValues.Namespace;
import cuda.graph.llm.internal.jinja.JinjaValues.Undefined;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Renders a parsed template as jinja2 does, with transformers' extras ({@code raise_exception},
 * {@code strftime_now}, its {@code tojson}, loop controls). Bounded: output and every string or
 * list it builds are at most {@link #MAX_SIZE} long, {@code range} at most 100,000 items, macros
 * nest at most {@link #MAX_CALL_DEPTH} deep and a render takes at most {@link #MAX_STEPS} steps.
 * One instance renders once.
 */
final class JinjaRenderer {

  /** The most characters of output, and of any string or list built on the way: 1 MiB. */
  static final int MAX_SIZE = 1 << 20;

  /** The most expressions and statements one render evaluates. */
  static final long MAX_STEPS = 10_000_000;

  static final int MAX_CALL_DEPTH = 64;

  /** jinja2's sandbox's bound on range(). */
  private static final int MAX_RANGE = 100_000;

  static final Set<String> FILTERS =
      Set.of(
          "trim",
          "tojson",
          "length",
          "count",
          "upper",
          "lower",
          "capitalize",
          "title",
          "default",
          "d",
          "join",
          "first",
          "last",
          "list",
          "string",
          "int",
          "float",
          "replace",
          "selectattr",
          "rejectattr",
          "select",
          "reject",
          "map",
          "items",
          "indent",
          "reverse",
          "abs",
          "safe");

  static final Set<String> TESTS =
      Set.of(
          "defined",
          "undefined",
          "none",
          "string",
          "mapping",
          "iterable",
          "sequence",
          "number",
          "integer",
          "float",
          "boolean",
          "true",
          "false",
          "equalto",
          "eq",
          "==",
          "ne",
          "!=",
          "sameas",
          "divisibleby",
          "even",
          "odd",
          "in",
          "lower",
          "upper",
          "callable");

  /** What a template's raise_exception throws; its message is the template's reason. */
  static final class Raised extends EvalError {
    private static final long serialVersionUID = 1L;

    Raised(String message) {
      super(message);
    }
  }

  /** A failure at a line of the template. */
  static final class RenderError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int line;
    final boolean raised;

    RenderError(int line, String reason, boolean raised) {
      super(reason, null, false, false);
      this.line = line;
      this.raised = raised;
    }
  }

  private enum Flow {
    NORMAL,
    BREAK,
    CONTINUE
  }

  private static final class Scope {
    final Map<String, @Nullable Object> vars = new HashMap<>();
    final @Nullable Scope parent;

    Scope(@Nullable Scope parent) {
      this.parent = parent;
    }

    @Nullable Object get(String name, Object missing) {
      for (Scope s = this; s != null; s = s.parent) {
        if (s.vars.containsKey(name)) {
          return s.vars.get(name);
        }
      }
      return missing;
    }
  }

  /** The {@code loop} variable of a for. */
  private record Loop(int index0, int length, @Nullable Object prev, @Nullable Object next) {}

  private static final Object MISSING = new Object();

  private final LocalDateTime now;
  private final Map<String, Object> globals = new HashMap<>();
  private StringBuilder out = new StringBuilder();
  private long steps;
  private int callDepth;
  private int line = 1;

  private JinjaRenderer(LocalDateTime now) {
    this.now = now;
    globals.put(
        "raise_exception",
        (Function)
            (args, kwargs) -> {
              throw new Raised(args.isEmpty() ? "" : str(args.getFirst()));
            });
    globals.put(
        "strftime_now",
        (Function)
            (args, kwargs) -> JinjaValues.strftime(this.now, str(arg(args, kwargs, 0, "format"))));
    globals.put(
        "namespace",
        (Function)
            (args, kwargs) -> {
              Namespace ns = new Namespace();
              for (Object a : args) {
                if (!(a instanceof Map<?, ?> m)) {
                  throw new EvalError("namespace() takes a dict, not " + typeName(a));
                }
                m.forEach((k, v) -> ns.attributes.put(str(k), v));
              }
              ns.attributes.putAll(kwargs);
              return ns;
            });
    globals.put("range", (Function) (args, kwargs) -> range(args));
    globals.put(
        "dict", (Function) (args, kwargs) -> new LinkedHashMap<Object, @Nullable Object>(kwargs));
  }

  /**
   * Renders {@code nodes} over {@code context}.
   *
   * @throws RenderError naming the line and reason of a failure
   */
  static String render(List<Node> nodes, Map<String, @Nullable Object> context, LocalDateTime now) {
    JinjaRenderer r = new JinjaRenderer(now);
    Scope root = new Scope(null);
    root.vars.putAll(context);
    try {
      Flow f = r.exec(nodes, root);
      if (f != Flow.NORMAL) {
        throw new EvalError("'" + f.name().toLowerCase(Locale.ROOT) + "' outside a for loop");
      }
      return r.out.toString();
    } catch (Raised e) {
      throw new RenderError(r.line, "raise_exception(\"" + e.getMessage() + "\")", true);
    } catch (EvalError e) {
      throw new RenderError(r.line, e.getMessage(), false);
    } catch (StackOverflowError e) {
      throw new RenderError(r.line, "nested too deeply", false);
    }
  }

  // ---- Statements ----

  private void step(int at) {
    line = at;
    charge(1);
  }

  /** Counts {@code units} steps: a loop's iteration, or a string or list built (16 items one). */
  private void charge(long units) {
    steps += units;
    if (steps > MAX_STEPS) {
      throw new EvalError(
          "the template took more than " + MAX_STEPS + " steps; it cannot be rendered");
    }
  }

  /** Charges for the size of what an operation built, so that big values cost their size. */
  private @Nullable Object charged(@Nullable Object v) {
    long size =
        switch (v) {
          case String s -> s.length();
          case List<?> l -> l.size();
          case Map<?, ?> m -> m.size();
          case null, default -> 0;
        };
    charge(size / 16);
    return v;
  }

  private void emit(String s) {
    if (out.length() + (long) s.length() > MAX_SIZE) {
      throw new EvalError("the output exceeds " + MAX_SIZE + " characters");
    }
    out.append(s);
  }

  private Flow exec(List<Node> nodes, Scope scope) {
    for (Node n : nodes) {
      Flow f = exec(n, scope);
      if (f != Flow.NORMAL) {
        return f;
      }
    }
    return Flow.NORMAL;
  }

  private Flow exec(Node node, Scope scope) {
    step(node.line());
    switch (node) {
      case Text t -> emit(t.text());
      case Output o -> emit(str(eval(o.expr(), scope)));
      case If i -> {
        for (int k = 0; k < i.conditions().size(); k++) {
          if (truthy(eval(i.conditions().get(k), scope))) {
            return exec(i.bodies().get(k), scope);
          }
        }
        return exec(i.orElse(), scope);
      }
      case For f -> {
        return execFor(f, scope);
      }
      case Assign a -> {
        Object value = eval(a.value(), scope);
        step(a.line());
        if (a.attribute() != null) {
          Object target = scope.get(a.targets().getFirst(), MISSING);
          if (!(target instanceof Namespace ns)) {
            throw new EvalError(
                "cannot assign attribute on non-namespace object '" + a.targets().getFirst() + "'");
          }
          ns.attributes.put(a.attribute(), value);
        } else {
          bind(scope, a.targets(), value);
        }
      }
      case SetBlock s -> scope.vars.put(s.target(), capture(s.body(), scope));
      case Macro m -> scope.vars.put(m.name(), macro(m, scope));
      case Break b -> {
        return Flow.BREAK;
      }
      case Continue c -> {
        return Flow.CONTINUE;
      }
      case Generation g -> {
        return exec(g.body(), scope);
      }
    }
    return Flow.NORMAL;
  }

  private Flow execFor(For f, Scope scope) {
    List<@Nullable Object> items = iterate(eval(f.iterable(), scope));
    charge(items.size() / 16);
    if (f.filter() != null) {
      List<@Nullable Object> kept = new ArrayList<>();
      for (Object item : items) {
        step(f.line());
        Scope s = new Scope(scope);
        bind(s, f.targets(), item);
        if (truthy(eval(f.filter(), s))) {
          kept.add(item);
        }
      }
      items = kept;
    }
    if (items.isEmpty()) {
      return exec(f.orElse(), scope);
    }
    int n = items.size();
    for (int i = 0; i < n; i++) {
      step(f.line());
      Scope s = new Scope(scope);
      bind(s, f.targets(), items.get(i));
      s.vars.put(
          "loop",
          new Loop(
              i,
              n,
              i > 0 ? items.get(i - 1) : new Undefined("there is no previous item"),
              i + 1 < n ? items.get(i + 1) : new Undefined("there is no next item")));
      if (exec(f.body(), s) == Flow.BREAK) {
        break;
      }
    }
    return Flow.NORMAL;
  }

  private void bind(Scope scope, List<String> targets, @Nullable Object value) {
    if (targets.size() == 1) {
      scope.vars.put(targets.getFirst(), value);
      return;
    }
    List<@Nullable Object> values = iterate(value);
    if (values.size() != targets.size()) {
      throw new EvalError(
          (values.size() > targets.size() ? "too many" : "not enough")
              + " values to unpack (expected "
              + targets.size()
              + ", got "
              + values.size()
              + ")");
    }
    for (int i = 0; i < targets.size(); i++) {
      scope.vars.put(targets.get(i), values.get(i));
    }
  }

  private String capture(List<Node> body, Scope scope) {
    StringBuilder saved = out;
    out = new StringBuilder();
    try {
      exec(body, scope);
      return out.toString();
    } finally {
      out = saved;
    }
  }

  private Function macro(Macro m, Scope definedIn) {
    return (args, kwargs) -> {
      if (args.size() > m.params().size()) {
        throw new EvalError(
            "macro '" + m.name() + "' takes not more than " + m.params().size() + " argument(s)");
      }
      for (String k : kwargs.keySet()) {
        if (!m.params().contains(k)) {
          throw new EvalError("macro '" + m.name() + "' takes no keyword argument '" + k + "'");
        }
      }
      if (++callDepth > MAX_CALL_DEPTH) {
        throw new EvalError("macros nested deeper than " + MAX_CALL_DEPTH + " calls");
      }
      try {
        Scope s = new Scope(definedIn);
        for (int i = 0; i < m.params().size(); i++) {
          String p = m.params().get(i);
          Expr d = m.defaults().get(i);
          Object v =
              i < args.size()
                  ? args.get(i)
                  : kwargs.containsKey(p)
                      ? kwargs.get(p)
                      : d != null ? eval(d, s) : new Undefined("'" + p + "' is undefined");
          s.vars.put(p, v);
        }
        return capture(m.body(), s);
      } finally {
        callDepth--;
      }
    };
  }

  // ---- Expressions ----

  private @Nullable Object eval(Expr e, Scope scope) {
    step(e.line());
    return switch (e) {
      case Literal l -> l.value();
      case Name n -> {
        Object v = scope.get(n.name(), MISSING);
        if (v == MISSING) {
          v = globals.containsKey(n.name()) ? globals.get(n.name()) : MISSING;
        }
        yield v == MISSING ? new Undefined("'" + n.name() + "' is undefined") : v;
      }
      case ListExpr l -> {
        List<@Nullable Object> list = new ArrayList<>();
        for (Expr x : l.items()) {
          list.add(eval(x, scope));
        }
        yield l.tuple() ? new JinjaValues.Tuple(list.toArray()) : list;
      }
      case DictExpr d -> {
        Map<Object, @Nullable Object> map = new LinkedHashMap<>();
        for (int i = 0; i < d.keys().size(); i++) {
          Object k = eval(d.keys().get(i), scope);
          if (k == null || k instanceof Undefined || k instanceof List || k instanceof Map) {
            throw new EvalError("unhashable or missing dict key " + repr(k));
          }
          map.put(k, eval(d.values().get(i), scope));
        }
        yield map;
      }
      case GetAttr g -> attribute(eval(g.target(), scope), g.attribute());
      case GetItem g -> item(eval(g.target(), scope), eval(g.key(), scope));
      case Slice s ->
          slice(
              eval(s.target(), scope),
              opt(s.start(), scope),
              opt(s.stop(), scope),
              opt(s.step(), scope));
      case Call c -> {
        Object callee = eval(c.callee(), scope);
        List<@Nullable Object> args = evalAll(c.args(), scope);
        Map<String, @Nullable Object> kwargs = evalAll(c.kwargs(), scope);
        step(c.line());
        yield charged(call(callee, args, kwargs));
      }
      case Filter f -> {
        Object v = eval(f.value(), scope);
        List<@Nullable Object> args = evalAll(f.args(), scope);
        Map<String, @Nullable Object> kwargs = evalAll(f.kwargs(), scope);
        step(f.line());
        yield charged(filter(f.name(), v, args, kwargs));
      }
      case Test t -> {
        Object v = eval(t.value(), scope);
        List<@Nullable Object> args = evalAll(t.args(), scope);
        step(t.line());
        yield test(t.name(), v, args) != t.negated();
      }
      case Unary u -> {
        Object v = eval(u.operand(), scope);
        step(u.line());
        yield switch (u.op()) {
          case "not" -> !truthy(v);
          case "-" -> negate(v);
          default -> {
            number(v, "+");
            yield v;
          }
        };
      }
      case Binary b -> {
        Object l = eval(b.left(), scope);
        yield switch (b.op()) {
          case "and" -> truthy(l) ? eval(b.right(), scope) : l;
          case "or" -> truthy(l) ? l : eval(b.right(), scope);
          default -> {
            Object r = eval(b.right(), scope);
            step(b.line());
            yield charged(binary(b.op(), l, r));
          }
        };
      }
      case Compare c -> {
        Object l = eval(c.first(), scope);
        boolean result = true;
        for (int i = 0; i < c.ops().size() && result; i++) {
          Object r = eval(c.rest().get(i), scope);
          step(c.line());
          result = compare(c.ops().get(i), l, r);
          l = r;
        }
        yield result;
      }
      case Conditional c ->
          truthy(eval(c.condition(), scope))
              ? eval(c.then(), scope)
              : c.orElse() != null
                  ? eval(c.orElse(), scope)
                  : new Undefined(
                      "the inline if-expression on line "
                          + c.line()
                          + " evaluated to false and no else section was defined.");
    };
  }

  private @Nullable Object opt(@Nullable Expr e, Scope scope) {
    return e == null ? null : eval(e, scope);
  }

  private List<@Nullable Object> evalAll(List<Expr> exprs, Scope scope) {
    List<@Nullable Object> values = new ArrayList<>();
    for (Expr x : exprs) {
      values.add(eval(x, scope));
    }
    return values;
  }

  private Map<String, @Nullable Object> evalAll(Map<String, Expr> exprs, Scope scope) {
    Map<String, @Nullable Object> values = new LinkedHashMap<>();
    exprs.forEach((k, x) -> values.put(k, eval(x, scope)));
    return values;
  }

  private static @Nullable Object call(
      @Nullable Object callee, List<@Nullable Object> args, Map<String, @Nullable Object> kwargs) {
    if (callee instanceof Function f) {
      return f.call(args, kwargs);
    }
    if (callee instanceof Undefined u) {
      throw JinjaValues.undefinedError(u);
    }
    throw new EvalError("'" + typeName(callee) + "' object is not callable");
  }

  /** jinja2's getattr: an attribute (a method) first, then an item. */
  private static @Nullable Object attribute(@Nullable Object target, String name) {
    return switch (target) {
      case Undefined u -> throw JinjaValues.undefinedError(u);
      case Map<?, ?> m -> {
        if (Set.of("items", "keys", "values", "get").contains(name)) {
          yield dictMethod(m, name);
        }
        yield m.containsKey(name)
            ? m.get(name)
            : new Undefined("'dict object' has no attribute '" + name + "'");
      }
      case String s -> {
        Function method = StringMethods.of(s, name);
        yield method != null
            ? method
            : new Undefined("'str object' has no attribute '" + name + "'");
      }
      case Namespace ns ->
          ns.attributes.containsKey(name)
              ? ns.attributes.get(name)
              : new Undefined("'Namespace' has no attribute '" + name + "'");
      case Loop l -> loopAttribute(l, name);
      case null -> new Undefined("'None' has no attribute '" + name + "'");
      default -> new Undefined("'" + typeName(target) + " object' has no attribute '" + name + "'");
    };
  }

  /** jinja2's getitem: an item first, then (for a string key) an attribute. */
  private static @Nullable Object item(@Nullable Object target, @Nullable Object key) {
    switch (target) {
      case Undefined u -> throw JinjaValues.undefinedError(u);
      case Map<?, ?> m -> {
        if (key != null && m.containsKey(key)) {
          return m.get(key);
        }
      }
      case List<?> l -> {
        if (key instanceof Long || key instanceof Boolean) {
          long i = JinjaValues.toLong(key);
          long k = i < 0 ? i + l.size() : i;
          return k >= 0 && k < l.size()
              ? l.get((int) k)
              : new Undefined("'list object' has no element " + i);
        }
      }
      case String s -> {
        if (key instanceof Long || key instanceof Boolean) {
          int[] cps = s.codePoints().toArray();
          long i = JinjaValues.toLong(key);
          long k = i < 0 ? i + cps.length : i;
          return k >= 0 && k < cps.length
              ? Character.toString(cps[(int) k])
              : new Undefined("'str object' has no element " + i);
        }
      }
      case null, default -> {}
    }
    if (key instanceof String name) {
      return attribute(target, name);
    }
    return new Undefined("'" + typeName(target) + " object' has no element " + repr(key));
  }

  private static @Nullable Object loopAttribute(Loop l, String name) {
    return switch (name) {
      case "index" -> (long) l.index0() + 1;
      case "index0" -> (long) l.index0();
      case "revindex" -> (long) (l.length() - l.index0());
      case "revindex0" -> (long) (l.length() - l.index0() - 1);
      case "first" -> l.index0() == 0;
      case "last" -> l.index0() == l.length() - 1;
      case "length" -> (long) l.length();
      case "previtem" -> l.prev();
      case "nextitem" -> l.next();
      case "cycle" ->
          (Function)
              (args, kwargs) -> {
                if (args.isEmpty()) {
                  throw new EvalError("loop.cycle() needs at least one item");
                }
                return args.get(l.index0() % args.size());
              };
      default -> new Undefined("'LoopContext' has no attribute '" + name + "'");
    };
  }

  private static Function dictMethod(Map<?, ?> m, String name) {
    return (args, kwargs) ->
        switch (name) {
          case "items" -> {
            List<@Nullable Object> pairs = new ArrayList<>();
            m.forEach((k, v) -> pairs.add(new JinjaValues.Tuple(k, v)));
            yield pairs;
          }
          case "keys" -> new ArrayList<@Nullable Object>(m.keySet());
          case "values" -> new ArrayList<@Nullable Object>(m.values());
          default -> {
            Object key = arg(args, kwargs, 0, "key");
            Object fallback = args.size() > 1 ? args.get(1) : kwargs.getOrDefault("default", null);
            yield key != null && m.containsKey(key) ? m.get(key) : fallback;
          }
        };
  }

  static @Nullable Object arg(
      List<@Nullable Object> args, Map<String, @Nullable Object> kwargs, int index, String name) {
    if (index < args.size()) {
      return args.get(index);
    }
    if (kwargs.containsKey(name)) {
      return kwargs.get(name);
    }
    throw new EvalError("missing argument '" + name + "'");
  }

  private static @Nullable Object argOr(
      List<@Nullable Object> args,
      Map<String, @Nullable Object> kwargs,
      int index,
      String name,
      @Nullable Object fallback) {
    return index < args.size()
        ? args.get(index)
        : kwargs.containsKey(name) ? kwargs.get(name) : fallback;
  }

  static List<@Nullable Object> iterate(@Nullable Object v) {
    return switch (v) {
      case List<?> l -> new ArrayList<@Nullable Object>(l);
      case Map<?, ?> m -> new ArrayList<@Nullable Object>(m.keySet());
      case String s -> {
        List<@Nullable Object> chars = new ArrayList<>();
        s.codePoints().forEach(c -> chars.add(Character.toString(c)));
        yield chars;
      }
      case Undefined u -> new ArrayList<>();
      case null, default -> throw new EvalError("'" + typeName(v) + "' object is not iterable");
    };
  }

  static long length(@Nullable Object v) {
    return switch (v) {
      case String s -> s.codePointCount(0, s.length());
      case List<?> l -> l.size();
      case Map<?, ?> m -> m.size();
      case Namespace ns -> ns.attributes.size();
      case Undefined u -> 0;
      case null, default ->
          throw new EvalError("object of type '" + typeName(v) + "' has no len()");
    };
  }

  private static @Nullable Object slice(
      @Nullable Object target,
      @Nullable Object start,
      @Nullable Object stop,
      @Nullable Object stepValue) {
    if (target instanceof Undefined u) {
      throw JinjaValues.undefinedError(u);
    }
    List<@Nullable Object> items;
    if (target instanceof List<?> l) {
      items = new ArrayList<>(l);
    } else if (target instanceof String s) {
      items = iterate(s);
    } else {
      throw new EvalError("'" + typeName(target) + "' object is not subscriptable");
    }
    long step = stepValue == null ? 1 : sliceIndex(stepValue);
    if (step == 0) {
      throw new EvalError("slice step cannot be zero");
    }
    long len = items.size();
    long lower = step > 0 ? 0 : -1;
    long upper = step > 0 ? len : len - 1;
    long from =
        start == null ? (step > 0 ? lower : upper) : clamp(sliceIndex(start), len, lower, upper);
    long to =
        stop == null ? (step > 0 ? upper : lower) : clamp(sliceIndex(stop), len, lower, upper);
    List<@Nullable Object> result = new ArrayList<>();
    for (long i = from; step > 0 ? i < to : i > to; i += step) {
      result.add(items.get((int) i));
    }
    if (target instanceof String) {
      StringBuilder b = new StringBuilder();
      result.forEach(c -> b.append((String) c));
      return b.toString();
    }
    return result;
  }

  private static long sliceIndex(@Nullable Object v) {
    if (v instanceof Long || v instanceof Boolean) {
      return JinjaValues.toLong(v);
    }
    throw new EvalError("slice indices must be integers or None, not " + typeName(v));
  }

  private static long clamp(long i, long len, long lower, long upper) {
    if (i < 0) {
      i += len;
      return Math.max(i, lower);
    }
    return Math.min(i, upper);
  }

  private static Object negate(@Nullable Object v) {
    number(v, "unary -");
    return v instanceof Double d ? -d : (Object) Math.negateExact(JinjaValues.toLong(v));
  }

  private static void number(@Nullable Object v, String op) {
    if (v instanceof Undefined u) {
      throw JinjaValues.undefinedError(u);
    }
    if (!JinjaValues.isNumber(v)) {
      throw new EvalError("bad operand type for " + op + ": '" + typeName(v) + "'");
    }
  }

  private static String checkedSize(String s) {
    if (s.length() > MAX_SIZE) {
      throw new EvalError("a string of more than " + MAX_SIZE + " characters");
    }
    return s;
  }

  private static Object binary(String op, @Nullable Object l, @Nullable Object r) {
    if (op.equals("~")) {
      checkedLength((long) str(l).length() + str(r).length());
      return str(l) + str(r);
    }
    if (l instanceof Undefined u) {
      throw JinjaValues.undefinedError(u);
    }
    if (r instanceof Undefined u) {
      throw JinjaValues.undefinedError(u);
    }
    try {
      if (JinjaValues.isNumber(l) && JinjaValues.isNumber(r)) {
        return arithmetic(op, l, r);
      }
      if (op.equals("+") && l instanceof String a && r instanceof String b) {
        checkedLength((long) a.length() + b.length());
        return a + b;
      }
      if (op.equals("+") && l instanceof List<?> a && r instanceof List<?> b) {
        checkedLength((long) a.size() + b.size());
        List<@Nullable Object> c = new ArrayList<>(a);
        c.addAll(b);
        return c;
      }
      if (op.equals("*") && (r instanceof Long || r instanceof Boolean)) {
        Object repeated = repeat(l, JinjaValues.toLong(r));
        if (repeated != null) {
          return repeated;
        }
      }
      if (op.equals("*") && (l instanceof Long || l instanceof Boolean)) {
        Object repeated = repeat(r, JinjaValues.toLong(l));
        if (repeated != null) {
          return repeated;
        }
      }
    } catch (ArithmeticException e) {
      throw new EvalError("integer overflow in '" + op + "'");
    }
    if (op.equals("%") && l instanceof String) {
      throw new EvalError("printf-style formatting of strings (str % value) is not supported");
    }
    throw new EvalError(
        "unsupported operand type(s) for "
            + op
            + ": '"
            + typeName(l)
            + "' and '"
            + typeName(r)
            + "'");
  }

  private static void checkedLength(long n) {
    if (n > MAX_SIZE) {
      throw new EvalError("a string or list of more than " + MAX_SIZE + " items");
    }
  }

  private static @Nullable Object repeat(@Nullable Object v, long times) {
    long n = Math.max(0, times);
    if (v instanceof String s) {
      checkedLength(s.length() * Math.min(n, MAX_SIZE + 1L));
      return s.repeat((int) n);
    }
    if (v instanceof List<?> l) {
      checkedLength(l.size() * Math.min(n, MAX_SIZE + 1L));
      List<@Nullable Object> c = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        c.addAll(l);
      }
      return c;
    }
    return null;
  }

  private static Object arithmetic(String op, Object l, Object r) {
    boolean floating = l instanceof Double || r instanceof Double;
    if (op.equals("/")) {
      double d = JinjaValues.toDouble(r);
      if (d == 0) {
        throw new EvalError("division by zero");
      }
      return JinjaValues.toDouble(l) / d;
    }
    if ((op.equals("//") || op.equals("%")) && JinjaValues.toDouble(r) == 0) {
      throw new EvalError(op.equals("%") ? "modulo by zero" : "integer division or modulo by zero");
    }
    if (floating) {
      double a = JinjaValues.toDouble(l);
      double b = JinjaValues.toDouble(r);
      return switch (op) {
        case "+" -> a + b;
        case "-" -> a - b;
        case "*" -> a * b;
        case "//" -> Math.floor(a / b);
        case "%" -> a - b * Math.floor(a / b);
        default -> Math.pow(a, b);
      };
    }
    long a = JinjaValues.toLong(l);
    long b = JinjaValues.toLong(r);
    return switch (op) {
      case "+" -> Math.addExact(a, b);
      case "-" -> Math.subtractExact(a, b);
      case "*" -> Math.multiplyExact(a, b);
      case "//" -> Math.floorDiv(a, b);
      case "%" -> Math.floorMod(a, b);
      default -> {
        if (b < 0) {
          yield Math.pow(a, b);
        }
        long p = 1;
        for (long i = 0; i < b && p != 0 && (p != 1 || a != 1); i++) {
          p = Math.multiplyExact(p, a);
        }
        yield p;
      }
    };
  }

  private static boolean compare(String op, @Nullable Object l, @Nullable Object r) {
    return switch (op) {
      case "==" -> equal(l, r);
      case "!=" -> !equal(l, r);
      case "<" -> JinjaValues.compare(l, r, op) < 0;
      case "<=" -> JinjaValues.compare(l, r, op) <= 0;
      case ">" -> JinjaValues.compare(l, r, op) > 0;
      case ">=" -> JinjaValues.compare(l, r, op) >= 0;
      case "in" -> contains(r, l);
      default -> !contains(r, l);
    };
  }

  static boolean contains(@Nullable Object container, @Nullable Object item) {
    return switch (container) {
      case String s -> {
        if (item instanceof String x) {
          yield s.contains(x);
        }
        if (item instanceof Undefined u) {
          throw JinjaValues.undefinedError(u);
        }
        throw new EvalError("'in <string>' requires string as left operand, not " + typeName(item));
      }
      case List<?> l -> l.stream().anyMatch(x -> equal(x, item));
      case Map<?, ?> m -> item != null && m.containsKey(item);
      case Undefined u -> false;
      case null, default ->
          throw new EvalError("argument of type '" + typeName(container) + "' is not iterable");
    };
  }

  private static @Nullable Object range(List<@Nullable Object> args) {
    if (args.isEmpty() || args.size() > 3) {
      throw new EvalError("range expected 1 to 3 arguments, got " + args.size());
    }
    long start = 0;
    long stop;
    long step = 1;
    if (args.size() == 1) {
      stop = sliceIndex(args.getFirst());
    } else {
      start = sliceIndex(args.get(0));
      stop = sliceIndex(args.get(1));
      if (args.size() == 3) {
        step = sliceIndex(args.get(2));
      }
    }
    if (step == 0) {
      throw new EvalError("range() arg 3 must not be zero");
    }
    List<@Nullable Object> values = new ArrayList<>();
    for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (values.size() == MAX_RANGE) {
        throw new EvalError("range too big, the most is " + MAX_RANGE + " items");
      }
      values.add(i);
    }
    return values;
  }

  // ---- Tests ----

  private static boolean test(String name, @Nullable Object v, List<@Nullable Object> args) {
    return switch (name) {
      case "defined" -> !(v instanceof Undefined);
      case "undefined" -> v instanceof Undefined;
      case "none" -> v == null;
      case "string" -> v instanceof String;
      case "mapping" -> v instanceof Map;
      case "iterable" ->
          v instanceof String || v instanceof List || v instanceof Map || v instanceof Undefined;
      case "sequence" ->
          v instanceof String || v instanceof List || v instanceof Map || v instanceof Undefined;
      case "number" -> JinjaValues.isNumber(v);
      case "integer" -> v instanceof Long;
      case "float" -> v instanceof Double;
      case "boolean" -> v instanceof Boolean;
      case "true" -> Boolean.TRUE.equals(v);
      case "false" -> Boolean.FALSE.equals(v);
      case "callable" -> v instanceof Function;
      case "equalto", "eq", "==" -> equal(v, one(name, args));
      case "ne", "!=" -> !equal(v, one(name, args));
      case "sameas" -> {
        Object o = one(name, args);
        yield v == o || (v instanceof Boolean && v.equals(o)) || (v == null && o == null);
      }
      case "in" -> contains(one(name, args), v);
      case "divisibleby" -> {
        long d = JinjaValues.toLong(one(name, args));
        if (d == 0) {
          throw new EvalError("divisibleby 0");
        }
        yield JinjaValues.toLong(v) % d == 0;
      }
      case "even" -> JinjaValues.toLong(v) % 2 == 0;
      case "odd" -> JinjaValues.toLong(v) % 2 != 0;
      case "lower" -> str(v).equals(str(v).toLowerCase(Locale.ROOT));
      case "upper" -> str(v).equals(str(v).toUpperCase(Locale.ROOT));
      default -> throw new EvalError("no test named '" + name + "'");
    };
  }

  private static @Nullable Object one(String test, List<@Nullable Object> args) {
    if (args.size() != 1) {
      throw new EvalError("the test '" + test + "' takes one argument, got " + args.size());
    }
    return args.getFirst();
  }

  // ---- Filters ----

  private @Nullable Object filter(
      String name,
      @Nullable Object v,
      List<@Nullable Object> args,
      Map<String, @Nullable Object> kw) {
    return switch (name) {
      case "trim" -> {
        Object chars = argOr(args, kw, 0, "chars", null);
        yield JinjaValues.strip(str(v), chars == null ? null : str(chars), true, true);
      }
      case "tojson" -> {
        Object ensureAscii = argOr(args, kw, 0, "ensure_ascii", false);
        Object indent = argOr(args, kw, 1, "indent", null);
        Object separators = argOr(args, kw, 2, "separators", null);
        Object sortKeys = argOr(args, kw, 3, "sort_keys", false);
        if (separators != null) {
          throw new EvalError("tojson: separators are not supported");
        }
        if (v instanceof Undefined u) {
          throw new EvalError("tojson: Object of type Undefined is not JSON serializable");
        }
        yield checkedSize(
            JinjaValues.toJson(
                v,
                indent == null ? null : (int) JinjaValues.toLong(indent),
                truthy(ensureAscii),
                truthy(sortKeys)));
      }
      case "length", "count" -> length(v);
      case "upper" -> str(v).toUpperCase(Locale.ROOT);
      case "lower" -> str(v).toLowerCase(Locale.ROOT);
      case "capitalize" -> StringMethods.capitalize(str(v));
      case "title" -> titleFilter(str(v));
      case "default", "d" -> {
        Object fallback = argOr(args, kw, 0, "default_value", "");
        boolean ifFalsy = truthy(argOr(args, kw, 1, "boolean", false));
        yield v instanceof Undefined || (ifFalsy && !truthy(v)) ? fallback : v;
      }
      case "join" -> {
        String sep = str(argOr(args, kw, 0, "d", ""));
        Object attribute = argOr(args, kw, 1, "attribute", null);
        StringBuilder b = new StringBuilder();
        boolean first = true;
        for (Object x : iterate(v)) {
          b.append(first ? "" : sep).append(str(attribute == null ? x : path(x, attribute)));
          first = false;
          checkedLength(b.length());
        }
        yield b.toString();
      }
      case "first" -> {
        List<@Nullable Object> items = iterate(v);
        yield items.isEmpty()
            ? new Undefined("No first item, sequence was empty.")
            : items.getFirst();
      }
      case "last" -> {
        List<@Nullable Object> items = iterate(v);
        yield items.isEmpty()
            ? new Undefined("No last item, sequence was empty.")
            : items.getLast();
      }
      case "list" -> iterate(v);
      case "string" -> str(v);
      case "int" -> toInt(v, argOr(args, kw, 0, "default", 0L));
      case "float" -> toFloat(v, argOr(args, kw, 0, "default", 0.0));
      case "replace" -> {
        Object count = argOr(args, kw, 2, "count", null);
        yield StringMethods.replace(
            str(v),
            str(arg(args, kw, 0, "old")),
            str(arg(args, kw, 1, "new")),
            count == null ? -1 : JinjaValues.toLong(count));
      }
      case "selectattr", "rejectattr" -> {
        boolean keep = name.equals("selectattr");
        Object attribute = arg(args, kw, 0, "attribute");
        List<@Nullable Object> kept = new ArrayList<>();
        for (Object x : iterate(v)) {
          if (selected(path(x, attribute), args.subList(1, args.size())) == keep) {
            kept.add(x);
          }
        }
        yield kept;
      }
      case "select", "reject" -> {
        boolean keep = name.equals("select");
        List<@Nullable Object> kept = new ArrayList<>();
        for (Object x : iterate(v)) {
          if (selected(x, args) == keep) {
            kept.add(x);
          }
        }
        yield kept;
      }
      case "map" -> {
        List<@Nullable Object> mapped = new ArrayList<>();
        if (kw.containsKey("attribute")) {
          Object fallback = kw.get("default");
          for (Object x : iterate(v)) {
            Object y = path(x, kw.get("attribute"));
            mapped.add(y instanceof Undefined && kw.containsKey("default") ? fallback : y);
          }
        } else {
          String filter = str(arg(args, kw, 0, "filter"));
          if (!FILTERS.contains(filter)) {
            throw new EvalError("map: no filter named '" + filter + "'");
          }
          for (Object x : iterate(v)) {
            mapped.add(filter(filter, x, args.subList(1, args.size()), Map.of()));
          }
        }
        yield mapped;
      }
      case "items" -> {
        if (v instanceof Undefined) {
          yield new ArrayList<@Nullable Object>();
        }
        if (!(v instanceof Map<?, ?> m)) {
          throw new EvalError("items: can only get item pairs from a mapping, not " + typeName(v));
        }
        yield dictMethod(m, "items").call(List.of(), Map.of());
      }
      case "indent" -> {
        Object width = argOr(args, kw, 0, "width", 4L);
        String indention =
            width instanceof String s ? s : " ".repeat((int) JinjaValues.toLong(width));
        yield checkedSize(
            indent(
                str(v),
                indention,
                truthy(argOr(args, kw, 1, "first", false)),
                truthy(argOr(args, kw, 2, "blank", false))));
      }
      case "reverse" -> {
        if (v instanceof String s) {
          yield new StringBuilder(s).reverse().toString();
        }
        List<@Nullable Object> items = iterate(v);
        java.util.Collections.reverse(items);
        yield items;
      }
      case "abs" -> {
        number(v, "abs()");
        yield v instanceof Double d ? Math.abs(d) : (Object) Math.absExact(JinjaValues.toLong(v));
      }
      case "safe" -> v;
      default -> throw new EvalError("no filter named '" + name + "'");
    };
  }

  /** select/selectattr's test: truthiness, or the named test with its arguments. */
  private static boolean selected(@Nullable Object v, List<@Nullable Object> testAndArgs) {
    if (testAndArgs.isEmpty()) {
      return truthy(v);
    }
    String test = str(testAndArgs.getFirst());
    if (!TESTS.contains(test)) {
      throw new EvalError("no test named '" + test + "'");
    }
    return test(test, v, testAndArgs.subList(1, testAndArgs.size()));
  }

  /** jinja2's attribute getter: "a.b.0" item by item. */
  private static @Nullable Object path(@Nullable Object v, @Nullable Object attribute) {
    if (attribute instanceof Long) {
      return item(v, attribute);
    }
    Object x = v;
    for (String part : str(attribute).split("\\.", -1)) {
      x =
          part.chars().allMatch(Character::isDigit) && !part.isEmpty()
              ? item(x, Long.parseLong(part))
              : item(x, part);
    }
    return x;
  }

  private static Object toInt(@Nullable Object v, @Nullable Object fallback) {
    return switch (v) {
      case Long l -> l;
      case Boolean b -> b ? 1L : 0L;
      case Double d -> Double.isFinite(d) ? (Object) (long) d.doubleValue() : fallback;
      case String s -> {
        String t = JinjaValues.strip(s, null, true, true).replace("_", "");
        try {
          yield Long.parseLong(t);
        } catch (NumberFormatException e) {
          try {
            yield (long) Double.parseDouble(t);
          } catch (NumberFormatException e2) {
            yield fallback;
          }
        }
      }
      case null, default -> fallback;
    };
  }

  private static @Nullable Object toFloat(@Nullable Object v, @Nullable Object fallback) {
    return switch (v) {
      case Long l -> (double) l;
      case Boolean b -> b ? 1.0 : 0.0;
      case Double d -> d;
      case String s -> {
        try {
          yield Double.parseDouble(JinjaValues.strip(s, null, true, true));
        } catch (NumberFormatException e) {
          yield fallback;
        }
      }
      case null, default -> fallback;
    };
  }

  private static final Pattern WORD_BEGINNING = Pattern.compile("([-\\s({\\[<]+)");

  /** jinja2's title filter: each piece between separators capitalized. */
  private static String titleFilter(String s) {
    StringBuilder b = new StringBuilder();
    Matcher m = WORD_BEGINNING.matcher(s);
    int last = 0;
    while (m.find()) {
      b.append(StringMethods.capitalizeFirst(s.substring(last, m.start())));
      b.append(m.group());
      last = m.end();
    }
    b.append(StringMethods.capitalizeFirst(s.substring(last)));
    return b.toString();
  }

  /** jinja2's indent filter, splitting lines as Python's splitlines does on \n. */
  private static String indent(String s, String indention, boolean first, boolean blank) {
    List<String> lines = StringMethods.splitLines(s + "\n");
    StringBuilder b = new StringBuilder();
    if (blank) {
      b.append(String.join("\n" + indention, lines));
    } else {
      b.append(lines.getFirst());
      for (int i = 1; i < lines.size(); i++) {
        String l = lines.get(i);
        b.append('\n').append(l.isEmpty() ? l : indention + l);
      }
    }
    return first ? indention + b : b.toString();
  }
}
