// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Javadoc comments of the type declarations in one Java source file, found by reading the
 * source: enough of Java's lexical structure (comments, string, character and text block literals,
 * braces) to find a declaration by its nesting and the comment just before it.
 */
final class TypeJavadocs {

  private static final String MODIFIER =
      "public|protected|private|static|final|abstract|sealed|non-sealed|strictfp";

  private final String source;

  /** The source with every comment and literal blanked to spaces, newlines kept: only code. */
  private final String code;

  TypeJavadocs(String source) {
    this.source = source;
    this.code = blankCommentsAndLiterals(source);
  }

  /** Where a type is declared: the line of its keyword and its Javadoc, if it has one. */
  record Declaration(int line, Optional<String> javadoc) {}

  /**
   * {@return the declaration of the type named by {@code path}: a top-level type's simple name,
   * then the simple names of the member types down to it}
   *
   * @throws AssertionError if the source declares no such type
   */
  Declaration find(List<String> path) {
    int from = 0;
    int to = code.length();
    int at = -1;
    for (String simpleName : path) {
      at = declarationOf(simpleName, from, to);
      if (at < 0) {
        throw new AssertionError("no declaration of " + String.join(".", path) + " in the source");
      }
      int open = code.indexOf('{', at);
      from = open + 1;
      to = closingBrace(open);
    }
    return new Declaration(lineOf(at), javadocBefore(at));
  }

  /** The offset of the keyword declaring {@code simpleName} directly in the range, not deeper. */
  private int declarationOf(String simpleName, int from, int to) {
    Pattern declaration =
        Pattern.compile(
            "(?<![\\w@.])(?:class|interface|enum|record)\\s+"
                + Pattern.quote(simpleName)
                + "\\b|@interface\\s+"
                + Pattern.quote(simpleName)
                + "\\b");
    Matcher m = declaration.matcher(code).region(from, to);
    while (m.find()) {
      if (braceDepth(from, m.start()) == 0) {
        return m.start();
      }
    }
    return -1;
  }

  private int braceDepth(int from, int to) {
    int depth = 0;
    for (int i = from; i < to; i++) {
      char c = code.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
      }
    }
    return depth;
  }

  private int closingBrace(int open) {
    int depth = 0;
    for (int i = open; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    throw new AssertionError("unbalanced braces after offset " + open);
  }

  /**
   * The last Javadoc comment between the end of the previous declaration or statement and the
   * keyword at {@code at}, provided only annotations and modifiers separate it from the keyword.
   */
  private Optional<String> javadocBefore(int at) {
    int start = at;
    int parens = 0;
    while (start > 0) {
      char c = code.charAt(start - 1);
      if (c == ')') {
        parens++;
      } else if (c == '(') {
        parens--;
      } else if (parens == 0 && (c == ';' || c == '{' || c == '}')) {
        break;
      }
      start--;
    }
    int open = source.lastIndexOf("/**", at);
    if (open < start) {
      return Optional.empty();
    }
    int close = source.indexOf("*/", open + 3);
    String between = code.substring(close + 2, at).replaceAll("\\([^()]*\\)", " ").strip();
    if (!between.matches("((@[\\w.]+|" + MODIFIER + ")\\s*)*")) {
      return Optional.empty();
    }
    return Optional.of(source.substring(open, close + 2));
  }

  private int lineOf(int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (source.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static String blankCommentsAndLiterals(String s) {
    StringBuilder out = new StringBuilder(s);
    int i = 0;
    while (i < s.length()) {
      int end;
      if (s.startsWith("//", i)) {
        end = s.indexOf('\n', i);
        end = end < 0 ? s.length() : end;
      } else if (s.startsWith("/*", i)) {
        end = s.indexOf("*/", i + 2);
        end = end < 0 ? s.length() : end + 2;
      } else if (s.startsWith("\"\"\"", i)) {
        end = literalEnd(s, i + 3, "\"\"\"");
      } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
        end = literalEnd(s, i + 1, String.valueOf(s.charAt(i)));
      } else {
        i++;
        continue;
      }
      for (int j = i; j < end; j++) {
        if (out.charAt(j) != '\n') {
          out.setCharAt(j, ' ');
        }
      }
      i = end;
    }
    return out.toString();
  }

  /** The offset after the {@code quote} that closes a literal whose text starts at {@code i}. */
  private static int literalEnd(String s, int i, String quote) {
    while (i < s.length()) {
      if (s.charAt(i) == '\\') {
        i += 2;
      } else if (s.startsWith(quote, i)) {
        return i + quote.length();
      } else {
        i++;
      }
    }
    return s.length();
  }
}
