// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bad input at every public entry point of the API: null, negative and overflowing arguments;
 * closed buffers, host buffers, streams, events, graphs, modules and platforms; objects of another
 * platform of the same provider (also on device 0); values of the wrong type through raw types, a
 * lazy op where a buffer is expected; launch shapes over the device's limits; scheduling policies
 * that return null, a closed stream or another platform's stream.
 *
 * <p>The cases are data ({@code BadInputCases}): one dynamic test per case, grouped by the public
 * type it calls, so that a failure names its case. Each case runs in its own {@link
 * ConformanceSession} and checks, in order:
 *
 * <ol>
 *   <li>the call throws one of the expected types (a future's failure counts as thrown);
 *   <li>the message contains every expected key word, case-insensitively: what is wrong (the bad
 *       value, {@code closed}, {@code platform}) and, where there is one, the fix (the device
 *       limit, the factory to use);
 *   <li>the platform is usable afterwards: the execution lock is free, no stream is capturing, a
 *       kernel runs and computes on the session's stream, and {@code sync()} runs through the
 *       platform's policy;
 *   <li>nothing leaked: the session's ledger at close (and the other platform's, when the case used
 *       one) shows no live handle and no lifetime violation.
 * </ol>
 *
 * <p>Nothing here provokes a sticky device error: launches over the device's limits are refused by
 * the driver, if they reach it, without poisoning the context. JUnit Jupiter tests: bind the
 * contract as {@code CoreApiContract} is bound.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface BadInputContract extends ConformanceContract {

  /** {@return one container per public type of the API, holding one test per bad-input case} */
  @TestFactory
  default Stream<DynamicNode> badInputIsRefusedWithAHelpfulMessageAndLeavesThePlatformUsable() {
    Map<String, List<DynamicNode>> groups = new LinkedHashMap<>();
    for (BadInputCase c : BadInputCases.all()) {
      groups
          .computeIfAbsent(c.entryPoint(), k -> new java.util.ArrayList<>())
          .add(DynamicTest.dynamicTest(c.toString(), () -> check(c)));
    }
    return groups.entrySet().stream()
        .map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue()));
  }

  /**
   * Runs one case in a new session and checks the exception, its message, the platform afterwards
   * and the ledger.
   *
   * @param c the case
   */
  private void check(BadInputCase c) {
    try (ConformanceSession session = openSession();
        BadInputFixture f = new BadInputFixture(this, session)) {
      Throwable thrown = null;
      Object returned = null;
      try {
        returned = c.action().run(f);
      } catch (Throwable t) {
        thrown = unwrap(t);
      }
      closeQuietly(returned);
      if (thrown == null) {
        fail(
            c
                + ": accepted; expected "
                + c.expectedNames()
                + " naming "
                + c.keywords()
                + ", but the call "
                + (returned == null ? "returned normally" : "returned " + returned));
      }
      Throwable t = thrown;
      if (c.expected().stream().noneMatch(type -> type.isInstance(t))) {
        throw new AssertionError(
            c
                + ": expected "
                + c.expectedNames()
                + ", got "
                + t.getClass().getName()
                + ": "
                + t.getMessage(),
            t);
      }
      List<String> missing = c.missingKeywords(t.getMessage(), f.placeholders());
      if (!missing.isEmpty()) {
        throw new AssertionError(
            c
                + ": the message must name "
                + missing
                + "; it reads: "
                + (t.getMessage() == null ? "(no message)" : "\"" + t.getMessage() + "\""),
            t);
      }
      f.assertPlatformUsable("after " + c.name());
    }
  }

  /** A future's failure, or a reflective wrapper's, is what the call threw. */
  private static Throwable unwrap(Throwable t) {
    Throwable cause = t.getCause();
    if ((t instanceof CompletionException || t instanceof ExecutionException) && cause != null) {
      return cause;
    }
    return t;
  }

  private static void closeQuietly(@Nullable Object returned) {
    if (returned instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // What a wrongly accepted call returned: the case fails anyway.
      }
    }
  }
}
