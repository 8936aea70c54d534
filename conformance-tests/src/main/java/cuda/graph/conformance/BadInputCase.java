// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One case of {@link BadInputContract}: an API entry point given bad input, the exception it must
 * throw, and the key words its message must contain.
 *
 * @param entryPoint the public type whose entry point the case calls, e.g. {@code DeviceBuffer}
 * @param name what the case does, e.g. {@code "zeros with length 0"}
 * @param action calls the entry point; what it returns (should it wrongly succeed) is closed if it
 *     is {@link AutoCloseable}
 * @param expected the exception types any one of which the case accepts
 * @param keywords the key words the message must contain, case-insensitively: each is a set of
 *     alternatives separated by {@code |}, and {@code {NAME}} stands for a value of {@link
 *     BadInputFixture#placeholders()} (a device attribute, the device count)
 */
record BadInputCase(
    String entryPoint,
    String name,
    Action action,
    List<Class<? extends Throwable>> expected,
    List<String> keywords) {

  /** What a case does with its fixture. */
  @FunctionalInterface
  interface Action {
    /**
     * Calls the entry point with the bad input.
     *
     * @param f the objects the case uses
     * @return whatever the call returned, should it not throw
     * @throws Throwable what the entry point threw
     */
    @Nullable Object run(BadInputFixture f) throws Throwable;
  }

  BadInputCase {
    expected = List.copyOf(expected);
    keywords = List.copyOf(keywords);
  }

  /**
   * {@return the key words {@code message} lacks}, each as written in the case with its
   * placeholders filled in
   */
  List<String> missingKeywords(@Nullable String message, Map<String, String> placeholders) {
    String text = message == null ? "" : message.toLowerCase(Locale.ROOT);
    return keywords.stream()
        .map(k -> fill(k, placeholders))
        .filter(
            k -> {
              for (String alternative : k.split("\\|")) {
                if (text.contains(alternative.toLowerCase(Locale.ROOT))) {
                  return false;
                }
              }
              return true;
            })
        .toList();
  }

  private static String fill(String keyword, Map<String, String> placeholders) {
    String filled = keyword;
    for (Map.Entry<String, String> p : placeholders.entrySet()) {
      filled = filled.replace("{" + p.getKey() + "}", p.getValue());
    }
    return filled;
  }

  /** {@return the expected types, as the report names them} */
  String expectedNames() {
    return String.join(
        " or ", expected.stream().map(Class::getSimpleName).toList().toArray(new String[0]));
  }

  @Override
  public String toString() {
    return entryPoint + ": " + name;
  }
}
