// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

/** Bracket matching in source text (PTX, CUDA C++) for the simulator's readers of it. */
final class Brackets {

  private Brackets() {}

  /**
   * {@return the index of the bracket that closes the one at {@code open}} (a {@code (}, {@code {}
   * or {@code [}; brackets of other kinds are not counted), or the text's length when none does
   */
  static int closing(String text, int open) {
    char o = text.charAt(open);
    char c =
        switch (o) {
          case '(' -> ')';
          case '{' -> '}';
          case '[' -> ']';
          default -> throw new IllegalArgumentException("not an opening bracket: " + o);
        };
    int depth = 0;
    for (int i = open; i < text.length(); i++) {
      char at = text.charAt(i);
      if (at == o) {
        depth++;
      } else if (at == c && --depth == 0) {
        return i;
      }
    }
    return text.length();
  }
}
