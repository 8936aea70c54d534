// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.jinja;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The Jinja subset of Hugging Face chat templates, lexed and parsed as Python's jinja2 does with
 * transformers' settings: {@code trim_blocks} and {@code lstrip_blocks} on, {@code
 * keep_trailing_newline} off, newlines normalized to {@code \n}.
 */
final class JinjaSyntax {

  private JinjaSyntax() {}

  /** How deep expressions and blocks may nest: a bound on the parser's recursion. */
  private static final int MAX_DEPTH = 200;

  // ---- The tree ----

  /** A statement of the template. */
  sealed interface Node {
    int line();
  }

  record Text(int line, String text) implements Node {}

  record Output(int line, Expr expr) implements Node {}

  record If(int line, List<Expr> conditions, List<List<Node>> bodies, List<Node> orElse)
      implements Node {}

  record For(
      int line,
      List<String> targets,
      Expr iterable,
      @Nullable Expr filter,
      List<Node> body,
      List<Node> orElse)
      implements Node {}

  /** {@code set name = value}, {@code set a, b = value} or {@code set ns.attr = value}. */
  record Assign(int line, List<String> targets, @Nullable String attribute, Expr value)
      implements Node {}

  record SetBlock(int line, String target, List<Node> body) implements Node {}

  record Macro(
      int line, String name, List<String> params, List<@Nullable Expr> defaults, List<Node> body)
      implements Node {}

  record Break(int line) implements Node {}

  record Continue(int line) implements Node {}

  /** transformers' {@code generation} block: renders its body. */
  record Generation(int line, List<Node> body) implements Node {}

  /** An expression. */
  sealed interface Expr {
    int line();
  }

  record Literal(int line, @Nullable Object value) implements Expr {}

  record Name(int line, String name) implements Expr {}

  /** A list literal, or a tuple ({@code (a, b)}), which Python writes in parentheses. */
  record ListExpr(int line, List<Expr> items, boolean tuple) implements Expr {
    ListExpr(int line, List<Expr> items) {
      this(line, items, false);
    }
  }

  record DictExpr(int line, List<Expr> keys, List<Expr> values) implements Expr {}

  record GetAttr(int line, Expr target, String attribute) implements Expr {}

  record GetItem(int line, Expr target, Expr key) implements Expr {}

  record Slice(
      int line, Expr target, @Nullable Expr start, @Nullable Expr stop, @Nullable Expr step)
      implements Expr {}

  record Call(int line, Expr callee, List<Expr> args, Map<String, Expr> kwargs) implements Expr {}

  record Filter(int line, Expr value, String name, List<Expr> args, Map<String, Expr> kwargs)
      implements Expr {}

  record Test(
      int line, Expr value, String name, List<Expr> args, Map<String, Expr> kwargs, boolean negated)
      implements Expr {}

  record Unary(int line, String op, Expr operand) implements Expr {}

  record Binary(int line, String op, Expr left, Expr right) implements Expr {}

  /** {@code a < b <= c}: Python's chained comparison. */
  record Compare(int line, Expr first, List<String> ops, List<Expr> rest) implements Expr {}

  record Conditional(int line, Expr condition, Expr then, @Nullable Expr orElse) implements Expr {}

  // ---- Lexing ----

  private enum Kind {
    TEXT,
    VAR_BEGIN,
    VAR_END,
    BLOCK_BEGIN,
    BLOCK_END,
    NAME,
    STRING,
    INT,
    FLOAT,
    OP,
    EOF
  }

  private record Token(Kind kind, String text, @Nullable Object value, int line) {}

  /** A syntax error: its line and reason. */
  static final class SyntaxError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int line;

    SyntaxError(int line, String reason) {
      super(reason, null, false, false);
      this.line = line;
    }
  }

  private static final String[] OPERATORS = {
    "//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "=", "(", ")", "[",
    "]", "{", "}", ",", ".", ":", "|"
  };

  private static List<Token> lex(String raw) {
    String src = raw.replace("\r\n", "\n").replace('\r', '\n');
    // keep_trailing_newline off: one newline at the end of the template is dropped.
    if (src.endsWith("\n")) {
      src = src.substring(0, src.length() - 1);
    }
    List<Token> tokens = new ArrayList<>();
    int n = src.length();
    int pos = 0;
    int line = 1;
    boolean lineStarting = true;
    while (pos < n) {
      int open = nextTagOpening(src, pos);
      if (open < 0) {
        tokens.add(new Token(Kind.TEXT, src.substring(pos), null, line));
        break;
      }
      String text = src.substring(pos, open);
      char kind = src.charAt(open + 1);
      int after = open + 2;
      char sign = after < n ? src.charAt(after) : 0;
      if (sign == '-') {
        text = text.stripTrailing();
      } else if (sign != '+' && kind != '{') {
        // lstrip_blocks: only spaces and tabs between the line's start and a block or comment.
        int lineStart = text.lastIndexOf('\n') + 1;
        if ((lineStart > 0 || lineStarting) && onlySpacesAndTabs(text, lineStart)) {
          text = text.substring(0, lineStart);
        }
      }
      if (!text.isEmpty()) {
        tokens.add(new Token(Kind.TEXT, text, null, line));
      }
      line += count(src, pos, open + 2, '\n');
      if (sign == '-' || sign == '+') {
        after++;
      }
      int tagLine = line;
      if (kind == '#') {
        int close = src.indexOf("#}", after);
        if (close < 0) {
          throw new SyntaxError(tagLine, "missing end of comment tag");
        }
        int end = close + 2;
        if (src.charAt(close - 1) == '-' && close - 1 >= after) {
          end = skipWhitespace(src, end);
        } else if (!(src.charAt(close - 1) == '+' && close - 1 >= after)
            && end < n
            && src.charAt(end) == '\n') {
          end++;
        }
        line += count(src, after, end, '\n');
        lineStarting = end > 0 && src.charAt(end - 1) == '\n';
        pos = end;
        continue;
      }
      boolean block = kind == '%';
      tokens.add(new Token(block ? Kind.BLOCK_BEGIN : Kind.VAR_BEGIN, "", null, tagLine));
      String closing = block ? "%}" : "}}";
      int p = after;
      while (true) {
        p = skipWhitespaceCounting(src, p);
        line = lineAt(src, after, p, tagLine);
        if (p >= n) {
          throw new SyntaxError(line, "unexpected end of template, expected '" + closing + "'");
        }
        int end = -1;
        if (src.startsWith("-" + closing, p)) {
          end = skipWhitespace(src, p + 3);
        } else if (src.startsWith("+" + closing, p)) {
          end = p + 3;
        } else if (src.startsWith(closing, p)) {
          end = p + 2;
          if (block && end < n && src.charAt(end) == '\n') {
            end++; // trim_blocks
          }
        }
        if (end >= 0) {
          tokens.add(new Token(block ? Kind.BLOCK_END : Kind.VAR_END, "", null, line));
          line = lineAt(src, p, end, line);
          lineStarting = src.charAt(end - 1) == '\n';
          pos = end;
          break;
        }
        p = lexOne(src, p, line, tokens);
      }
    }
    tokens.add(new Token(Kind.EOF, "", null, line));
    return tokens;
  }

  private static int nextTagOpening(String src, int from) {
    int i = src.indexOf('{', from);
    while (i >= 0 && i + 1 < src.length()) {
      char c = src.charAt(i + 1);
      if (c == '{' || c == '%' || c == '#') {
        return i;
      }
      i = src.indexOf('{', i + 1);
    }
    return -1;
  }

  private static boolean onlySpacesAndTabs(String s, int from) {
    for (int i = from; i < s.length(); i++) {
      if (s.charAt(i) != ' ' && s.charAt(i) != '\t') {
        return false;
      }
    }
    return true;
  }

  private static int count(String s, int from, int to, char c) {
    int k = 0;
    for (int i = from; i < to && i < s.length(); i++) {
      if (s.charAt(i) == c) {
        k++;
      }
    }
    return k;
  }

  private static int lineAt(String s, int from, int to, int lineAtFrom) {
    return lineAtFrom + count(s, from, to, '\n');
  }

  private static int skipWhitespace(String s, int p) {
    while (p < s.length() && Character.isWhitespace(s.charAt(p))) {
      p++;
    }
    return p;
  }

  private static int skipWhitespaceCounting(String s, int p) {
    return skipWhitespace(s, p);
  }

  /** Lexes one token of a tag's inside at {@code p}; returns where the next begins. */
  private static int lexOne(String src, int p, int line, List<Token> out) {
    char c = src.charAt(p);
    if (Character.isLetter(c) || c == '_') {
      int e = p + 1;
      while (e < src.length()
          && (Character.isLetterOrDigit(src.charAt(e)) || src.charAt(e) == '_')) {
        e++;
      }
      out.add(new Token(Kind.NAME, src.substring(p, e), null, line));
      return e;
    }
    if (Character.isDigit(c)) {
      int e = p;
      while (e < src.length() && (Character.isDigit(src.charAt(e)) || src.charAt(e) == '_')) {
        e++;
      }
      boolean isFloat = false;
      if (e + 1 < src.length() && src.charAt(e) == '.' && Character.isDigit(src.charAt(e + 1))) {
        isFloat = true;
        e++;
        while (e < src.length() && (Character.isDigit(src.charAt(e)) || src.charAt(e) == '_')) {
          e++;
        }
      }
      if (e < src.length() && (src.charAt(e) == 'e' || src.charAt(e) == 'E')) {
        int x = e + 1;
        if (x < src.length() && (src.charAt(x) == '+' || src.charAt(x) == '-')) {
          x++;
        }
        if (x < src.length() && Character.isDigit(src.charAt(x))) {
          isFloat = true;
          e = x;
          while (e < src.length() && Character.isDigit(src.charAt(e))) {
            e++;
          }
        }
      }
      String digits = src.substring(p, e).replace("_", "");
      try {
        out.add(
            isFloat
                ? new Token(Kind.FLOAT, digits, Double.parseDouble(digits), line)
                : new Token(Kind.INT, digits, Long.parseLong(digits), line));
      } catch (NumberFormatException ex) {
        throw new SyntaxError(line, "number " + digits + " out of range");
      }
      return e;
    }
    if (c == '\'' || c == '"') {
      StringBuilder b = new StringBuilder();
      int i = p + 1;
      while (true) {
        if (i >= src.length()) {
          throw new SyntaxError(line, "unterminated string");
        }
        char d = src.charAt(i);
        if (d == c) {
          break;
        }
        if (d == '\\' && i + 1 < src.length()) {
          i = unescape(src, i + 1, b, line);
          continue;
        }
        b.append(d);
        i++;
      }
      out.add(new Token(Kind.STRING, src.substring(p, i + 1), b.toString(), line));
      return i + 1;
    }
    for (String op : OPERATORS) {
      if (src.startsWith(op, p)) {
        out.add(new Token(Kind.OP, op, null, line));
        return p + op.length();
      }
    }
    throw new SyntaxError(line, "unexpected char '" + c + "'");
  }

  /** Python's unicode-escape of the character(s) at {@code i} (after a backslash). */
  private static int unescape(String s, int i, StringBuilder b, int line) {
    char e = s.charAt(i);
    switch (e) {
      case 'n' -> b.append('\n');
      case 't' -> b.append('\t');
      case 'r' -> b.append('\r');
      case 'b' -> b.append('\b');
      case 'f' -> b.append('\f');
      case 'v' -> b.append('\u000b');
      case 'a' -> b.append('\u0007');
      case '0' -> b.append('\0');
      case '\\', '\'', '"' -> b.append(e);
      case '\n' -> {} // a backslash at a line's end continues the string
      case 'x', 'u', 'U' -> {
        int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        if (i + 1 + len > s.length()) {
          throw new SyntaxError(line, "truncated \\" + e + " escape");
        }
        try {
          b.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 1 + len), 16));
        } catch (IllegalArgumentException ex) {
          throw new SyntaxError(line, "malformed \\" + e + " escape");
        }
        return i + 1 + len;
      }
      default -> b.append('\\').append(e); // Python keeps an unknown escape as it is
    }
    return i + 1;
  }

  // ---- Parsing ----

  /** Parses {@code source}; throws {@link SyntaxError} naming the line. */
  static List<Node> parse(String source) {
    Parser p = new Parser(lex(source));
    List<Node> body = p.body(Set.of());
    if (p.peek().kind != Kind.EOF) {
      Token t = p.tokens.get(p.pos + 1);
      throw new SyntaxError(t.line, "unexpected '" + t.text + "': no block is open to end");
    }
    return body;
  }

  private static final Set<String> KEYWORDS_ENDING_TEST_ARG =
      Set.of("else", "or", "and", "if", "in", "is", "not");

  private static final class Parser {
    final List<Token> tokens;
    int pos;
    int depth;

    /** The innermost block open, for "expected endfor"-style errors. */
    final List<String> open = new ArrayList<>();

    Parser(List<Token> tokens) {
      this.tokens = tokens;
    }

    Token peek() {
      return tokens.get(pos);
    }

    Token next() {
      return tokens.get(pos++);
    }

    boolean atOp(String op) {
      Token t = peek();
      return t.kind == Kind.OP && t.text.equals(op);
    }

    boolean atName(String name) {
      Token t = peek();
      return t.kind == Kind.NAME && t.text.equals(name);
    }

    Token expectOp(String op) {
      Token t = next();
      if (t.kind != Kind.OP || !t.text.equals(op)) {
        throw new SyntaxError(t.line, "unexpected " + describe(t) + ", expected '" + op + "'");
      }
      return t;
    }

    String expectName() {
      Token t = next();
      if (t.kind != Kind.NAME) {
        throw new SyntaxError(t.line, "unexpected " + describe(t) + ", expected a name");
      }
      return t.text;
    }

    void expect(Kind kind, String what) {
      Token t = next();
      if (t.kind != kind) {
        throw new SyntaxError(t.line, "unexpected " + describe(t) + ", expected " + what);
      }
    }

    static String describe(Token t) {
      return switch (t.kind) {
        case EOF -> "end of template";
        case VAR_END -> "'}}'";
        case BLOCK_END -> "'%}'";
        case VAR_BEGIN -> "'{{'";
        case BLOCK_BEGIN -> "'{%'";
        case TEXT -> "text";
        default -> "'" + t.text + "'";
      };
    }

    void enter(int line) {
      if (++depth > MAX_DEPTH) {
        throw new SyntaxError(line, "nested deeper than " + MAX_DEPTH + " levels");
      }
    }

    /** Statements until a block tag named in {@code ends} (left unread) or the end. */
    List<Node> body(Set<String> ends) {
      List<Node> nodes = new ArrayList<>();
      while (true) {
        Token t = peek();
        switch (t.kind) {
          case EOF -> {
            if (!ends.isEmpty()) {
              throw new SyntaxError(
                  t.line,
                  "unexpected end of template: the '"
                      + open.getLast()
                      + "' block needs one of "
                      + new java.util.TreeSet<>(ends));
            }
            return nodes;
          }
          case TEXT -> {
            next();
            nodes.add(new Text(t.line, t.text));
          }
          case VAR_BEGIN -> {
            next();
            Expr e = expression();
            expect(Kind.VAR_END, "'}}'");
            nodes.add(new Output(t.line, e));
          }
          case BLOCK_BEGIN -> {
            Token name = tokens.get(pos + 1);
            if (name.kind == Kind.NAME && ends.contains(name.text)) {
              return nodes;
            }
            next();
            nodes.add(statement());
          }
          default -> throw new SyntaxError(t.line, "unexpected " + describe(t));
        }
      }
    }

    /** Reads "{% name" of a block's end or middle, whose name {@link #body} stopped at. */
    String blockTag() {
      expect(Kind.BLOCK_BEGIN, "'{%'");
      return expectName();
    }

    Node statement() {
      Token t = peek();
      if (t.kind != Kind.NAME) {
        throw new SyntaxError(t.line, "expected a statement name, got " + describe(t));
      }
      String name = next().text;
      enter(t.line);
      try {
        return switch (name) {
          case "if" -> ifStatement(t.line);
          case "for" -> forStatement(t.line);
          case "set" -> setStatement(t.line);
          case "macro" -> macroStatement(t.line);
          case "break" -> {
            expect(Kind.BLOCK_END, "'%}'");
            yield new Break(t.line);
          }
          case "continue" -> {
            expect(Kind.BLOCK_END, "'%}'");
            yield new Continue(t.line);
          }
          case "generation" -> {
            expect(Kind.BLOCK_END, "'%}'");
            open.add("generation");
            List<Node> body = body(Set.of("endgeneration"));
            open.removeLast();
            blockTag();
            expect(Kind.BLOCK_END, "'%}'");
            yield new Generation(t.line, body);
          }
          default ->
              throw new SyntaxError(
                  t.line,
                  "unknown tag '"
                      + name
                      + "'"
                      + (name.startsWith("end") || name.equals("else") || name.equals("elif")
                          ? ": no block is open that it could end or continue"
                          : ""));
        };
      } finally {
        depth--;
      }
    }

    Node ifStatement(int line) {
      List<Expr> conditions = new ArrayList<>();
      List<List<Node>> bodies = new ArrayList<>();
      List<Node> orElse = List.of();
      conditions.add(expression());
      expect(Kind.BLOCK_END, "'%}'");
      open.add("if");
      Set<String> ends = Set.of("elif", "else", "endif");
      while (true) {
        bodies.add(body(ends));
        String tag = blockTag();
        if (tag.equals("elif")) {
          conditions.add(expression());
          expect(Kind.BLOCK_END, "'%}'");
        } else if (tag.equals("else")) {
          expect(Kind.BLOCK_END, "'%}'");
          orElse = body(Set.of("endif"));
          blockTag();
          break;
        } else {
          break;
        }
      }
      expect(Kind.BLOCK_END, "'%}'");
      open.removeLast();
      return new If(line, conditions, bodies, orElse);
    }

    Node forStatement(int line) {
      List<String> targets = targets();
      if (!atName("in")) {
        throw new SyntaxError(peek().line, "expected 'in' in the for tag, got " + describe(peek()));
      }
      next();
      Expr iterable = orExpression(false);
      Expr filter = null;
      if (atName("if")) {
        next();
        filter = expression();
      }
      expect(Kind.BLOCK_END, "'%}'");
      open.add("for");
      List<Node> body = body(Set.of("else", "endfor"));
      List<Node> orElse = List.of();
      if (blockTag().equals("else")) {
        expect(Kind.BLOCK_END, "'%}'");
        orElse = body(Set.of("endfor"));
        blockTag();
      }
      expect(Kind.BLOCK_END, "'%}'");
      open.removeLast();
      return new For(line, targets, iterable, filter, body, orElse);
    }

    List<String> targets() {
      List<String> names = new ArrayList<>();
      boolean paren = atOp("(");
      if (paren) {
        next();
      }
      names.add(expectName());
      while (atOp(",")) {
        next();
        names.add(expectName());
      }
      if (paren) {
        expectOp(")");
      }
      return names;
    }

    Node setStatement(int line) {
      String first = expectName();
      if (atOp(".")) {
        next();
        String attribute = expectName();
        expectOp("=");
        Expr value = expression();
        expect(Kind.BLOCK_END, "'%}'");
        return new Assign(line, List.of(first), attribute, value);
      }
      List<String> targets = new ArrayList<>(List.of(first));
      while (atOp(",")) {
        next();
        targets.add(expectName());
      }
      if (peek().kind == Kind.BLOCK_END && targets.size() == 1) {
        next();
        open.add("set");
        List<Node> body = body(Set.of("endset"));
        open.removeLast();
        blockTag();
        expect(Kind.BLOCK_END, "'%}'");
        return new SetBlock(line, first, body);
      }
      expectOp("=");
      Expr value = tupleOrExpression();
      expect(Kind.BLOCK_END, "'%}'");
      return new Assign(line, targets, null, value);
    }

    Node macroStatement(int line) {
      String name = expectName();
      expectOp("(");
      List<String> params = new ArrayList<>();
      List<@Nullable Expr> defaults = new ArrayList<>();
      while (!atOp(")")) {
        if (!params.isEmpty()) {
          expectOp(",");
        }
        params.add(expectName());
        if (atOp("=")) {
          next();
          defaults.add(expression());
        } else {
          defaults.add(null);
        }
      }
      expectOp(")");
      expect(Kind.BLOCK_END, "'%}'");
      open.add("macro");
      List<Node> body = body(Set.of("endmacro"));
      open.removeLast();
      blockTag();
      expect(Kind.BLOCK_END, "'%}'");
      return new Macro(line, name, params, defaults, body);
    }

    /** {@code a, b} as a list (set's right side may be a tuple), else one expression. */
    Expr tupleOrExpression() {
      Expr first = expression();
      if (!atOp(",")) {
        return first;
      }
      List<Expr> items = new ArrayList<>(List.of(first));
      while (atOp(",")) {
        next();
        items.add(expression());
      }
      return new ListExpr(first.line(), items, true);
    }

    Expr expression() {
      Token t = peek();
      enter(t.line);
      try {
        Expr e = orExpression(true);
        if (atName("if")) {
          next();
          Expr condition = orExpression(true);
          Expr orElse = null;
          if (atName("else")) {
            next();
            orElse = expression();
          }
          return new Conditional(t.line, condition, e, orElse);
        }
        return e;
      } finally {
        depth--;
      }
    }

    /** {@code withCondition} false: a for's iterable, where "if" starts its filter. */
    Expr orExpression(boolean withCondition) {
      Expr e = andExpression();
      while (atName("or")) {
        int line = next().line;
        e = new Binary(line, "or", e, andExpression());
      }
      return e;
    }

    Expr andExpression() {
      Expr e = notExpression();
      while (atName("and")) {
        int line = next().line;
        e = new Binary(line, "and", e, notExpression());
      }
      return e;
    }

    Expr notExpression() {
      if (atName("not")) {
        int line = next().line;
        enter(line);
        try {
          return new Unary(line, "not", notExpression());
        } finally {
          depth--;
        }
      }
      return compare();
    }

    Expr compare() {
      Expr first = math1();
      List<String> ops = new ArrayList<>();
      List<Expr> rest = new ArrayList<>();
      while (true) {
        Token t = peek();
        if (t.kind == Kind.OP && Set.of("==", "!=", "<", "<=", ">", ">=").contains(t.text)) {
          next();
          ops.add(t.text);
        } else if (atName("in")) {
          next();
          ops.add("in");
        } else if (atName("not")
            && tokens.get(pos + 1).kind == Kind.NAME
            && tokens.get(pos + 1).text.equals("in")) {
          pos += 2;
          ops.add("not in");
        } else {
          break;
        }
        rest.add(math1());
      }
      return ops.isEmpty() ? first : new Compare(first.line(), first, ops, rest);
    }

    Expr math1() {
      Expr e = concat();
      while (atOp("+") || atOp("-")) {
        Token t = next();
        e = new Binary(t.line, t.text, e, concat());
      }
      return e;
    }

    Expr concat() {
      Expr e = math2();
      while (atOp("~")) {
        Token t = next();
        e = new Binary(t.line, "~", e, math2());
      }
      return e;
    }

    Expr math2() {
      Expr e = pow();
      while (atOp("*") || atOp("/") || atOp("//") || atOp("%")) {
        Token t = next();
        e = new Binary(t.line, t.text, e, pow());
      }
      return e;
    }

    Expr pow() {
      Expr e = unary(true);
      while (atOp("**")) {
        Token t = next();
        e = new Binary(t.line, "**", e, unary(true));
      }
      return e;
    }

    Expr unary(boolean withFilter) {
      Token t = peek();
      enter(t.line);
      try {
        Expr e;
        if (atOp("-") || atOp("+")) {
          next();
          e = new Unary(t.line, t.text, unary(false));
        } else {
          e = postfix(primary());
        }
        return withFilter ? filters(e) : e;
      } finally {
        depth--;
      }
    }

    Expr primary() {
      Token t = next();
      switch (t.kind) {
        case NAME -> {
          return switch (t.text) {
            case "true", "True" -> new Literal(t.line, Boolean.TRUE);
            case "false", "False" -> new Literal(t.line, Boolean.FALSE);
            case "none", "None" -> new Literal(t.line, null);
            default -> new Name(t.line, t.text);
          };
        }
        case STRING -> {
          StringBuilder b = new StringBuilder((String) t.value);
          // Adjacent literals concatenate, as in Python.
          while (peek().kind == Kind.STRING) {
            b.append((String) next().value);
          }
          return new Literal(t.line, b.toString());
        }
        case INT, FLOAT -> {
          return new Literal(t.line, t.value);
        }
        case OP -> {
          switch (t.text) {
            case "(" -> {
              if (atOp(")")) {
                next();
                return new ListExpr(t.line, List.of(), true);
              }
              Expr e = expression();
              if (atOp(",")) {
                List<Expr> items = new ArrayList<>(List.of(e));
                while (atOp(",")) {
                  next();
                  if (atOp(")")) {
                    break;
                  }
                  items.add(expression());
                }
                e = new ListExpr(t.line, items, true);
              }
              expectOp(")");
              return e;
            }
            case "[" -> {
              List<Expr> items = new ArrayList<>();
              while (!atOp("]")) {
                if (!items.isEmpty()) {
                  expectOp(",");
                  if (atOp("]")) {
                    break;
                  }
                }
                items.add(expression());
              }
              expectOp("]");
              return new ListExpr(t.line, items);
            }
            case "{" -> {
              List<Expr> keys = new ArrayList<>();
              List<Expr> values = new ArrayList<>();
              while (!atOp("}")) {
                if (!keys.isEmpty()) {
                  expectOp(",");
                  if (atOp("}")) {
                    break;
                  }
                }
                keys.add(expression());
                expectOp(":");
                values.add(expression());
              }
              expectOp("}");
              return new DictExpr(t.line, keys, values);
            }
            default -> {}
          }
        }
        default -> {}
      }
      throw new SyntaxError(t.line, "unexpected " + describe(t));
    }

    Expr postfix(Expr e) {
      while (true) {
        Token t = peek();
        if (atOp(".")) {
          next();
          Token a = next();
          if (a.kind == Kind.NAME) {
            e = new GetAttr(t.line, e, a.text);
          } else if (a.kind == Kind.INT) {
            e = new GetItem(t.line, e, new Literal(a.line, a.value));
          } else {
            throw new SyntaxError(a.line, "unexpected " + describe(a) + " after '.'");
          }
        } else if (atOp("[")) {
          next();
          e = subscript(t.line, e);
        } else if (atOp("(")) {
          next();
          e = call(t.line, e);
        } else {
          return e;
        }
      }
    }

    Expr subscript(int line, Expr target) {
      Expr start = null;
      if (!atOp(":")) {
        start = expression();
        if (atOp("]")) {
          next();
          return new GetItem(line, target, start);
        }
      }
      expectOp(":");
      Expr stop = null;
      Expr step = null;
      if (!atOp("]") && !atOp(":")) {
        stop = expression();
      }
      if (atOp(":")) {
        next();
        if (!atOp("]")) {
          step = expression();
        }
      }
      expectOp("]");
      return new Slice(line, target, start, stop, step);
    }

    /** After "(": the arguments of a call, as a Call node. */
    Call call(int line, Expr callee) {
      List<Expr> args = new ArrayList<>();
      Map<String, Expr> kwargs = new LinkedHashMap<>();
      arguments(args, kwargs);
      return new Call(line, callee, args, kwargs);
    }

    void arguments(List<Expr> args, Map<String, Expr> kwargs) {
      boolean first = true;
      while (!atOp(")")) {
        if (!first) {
          expectOp(",");
          if (atOp(")")) {
            break;
          }
        }
        first = false;
        Token t = peek();
        if (t.kind == Kind.NAME
            && tokens.get(pos + 1).kind == Kind.OP
            && tokens.get(pos + 1).text.equals("=")) {
          pos += 2;
          kwargs.put(t.text, expression());
        } else {
          if (!kwargs.isEmpty()) {
            throw new SyntaxError(t.line, "a positional argument follows a keyword argument");
          }
          args.add(expression());
        }
      }
      expectOp(")");
    }

    Expr filters(Expr e) {
      while (true) {
        Token t = peek();
        if (atOp("|")) {
          next();
          String name = dottedName();
          if (!JinjaRenderer.FILTERS.contains(name)) {
            throw new SyntaxError(t.line, "no filter named '" + name + "'");
          }
          List<Expr> args = new ArrayList<>();
          Map<String, Expr> kwargs = new LinkedHashMap<>();
          if (atOp("(")) {
            next();
            arguments(args, kwargs);
          }
          e = new Filter(t.line, e, name, args, kwargs);
        } else if (atName("is")) {
          next();
          boolean negated = false;
          if (atName("not")) {
            next();
            negated = true;
          }
          String name = dottedName();
          if (!JinjaRenderer.TESTS.contains(name)) {
            throw new SyntaxError(t.line, "no test named '" + name + "'");
          }
          List<Expr> args = new ArrayList<>();
          Map<String, Expr> kwargs = new LinkedHashMap<>();
          Token a = peek();
          if (atOp("(")) {
            next();
            arguments(args, kwargs);
          } else if ((a.kind == Kind.NAME && !KEYWORDS_ENDING_TEST_ARG.contains(a.text))
              || a.kind == Kind.STRING
              || a.kind == Kind.INT
              || a.kind == Kind.FLOAT
              || atOp("[")
              || atOp("{")) {
            args.add(postfix(primary()));
          }
          e = new Test(t.line, e, name, args, kwargs, negated);
        } else if (atOp("(")) {
          next();
          e = call(t.line, e);
        } else {
          return e;
        }
      }
    }

    String dottedName() {
      StringBuilder b = new StringBuilder(expectName());
      while (atOp(".")) {
        next();
        b.append('.').append(expectName());
      }
      return b.toString();
    }
  }
}
