// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The failures an {@link InstrumentedDriver} injects. An injected failure replaces the call: the
 * decorator throws {@link CudaDriverException} with the chosen status and the driver never sees the
 * call, so it changes no driver state (a capture is not invalidated, nothing is created or
 * destroyed). Rules count the calls of their entry point from all threads, in the order the calls
 * reach the decorator. Thread-safe.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class FaultPlan {

  private static final class Rule {
    final DriverCall call;
    final int status;
    final boolean always;
    int remaining;

    Rule(DriverCall call, int status, boolean always, int remaining) {
      this.call = call;
      this.status = status;
      this.always = always;
      this.remaining = remaining;
    }

    @Override
    public String toString() {
      String which =
          always
              ? "every " + call.symbol()
              : "the " + ordinal(remaining) + " " + call.symbol() + " from now";
      return which + " fails with " + CuResult.describe(status);
    }
  }

  private final List<Rule> rules = new ArrayList<>();
  private int noGraphPending;
  private long fired;

  FaultPlan() {}

  /**
   * Makes the {@code nth} call of {@code call} from now on (1 = the next one) fail with {@code
   * status}. Each rule fires once.
   *
   * @param call the entry point to fail
   * @param nth which of its calls from now on fails, counting from 1
   * @param status the {@code CUresult} the failed call throws
   * @throws IllegalArgumentException if {@code nth < 1} or {@code status} is {@code CUDA_SUCCESS}
   */
  public synchronized void failNth(DriverCall call, int nth, int status) {
    Objects.requireNonNull(call, "call");
    if (nth < 1) {
      throw new IllegalArgumentException("nth counts from 1 (the next call), got " + nth);
    }
    requireFailure(status);
    rules.add(new Rule(call, status, false, nth));
  }

  /**
   * Makes every call of {@code call} from now on fail with {@code status}, until {@link #clear()}.
   *
   * @param call the entry point to fail
   * @param status the {@code CUresult} each failed call throws
   * @throws IllegalArgumentException if {@code status} is {@code CUDA_SUCCESS}
   */
  public synchronized void failAlways(DriverCall call, int status) {
    Objects.requireNonNull(call, "call");
    requireFailure(status);
    rules.add(new Rule(call, status, true, 0));
  }

  /**
   * Makes the next {@code cuStreamEndCapture} that succeeds on the driver (one that no other rule
   * fails) destroy the graph it returns and return null: a driver that reports success without a
   * graph. The capture really ends.
   */
  public synchronized void endCaptureReturnsNoGraph() {
    noGraphPending++;
  }

  /** {@return the rules that have not fired yet, for reading; {@code failAlways} rules stay} */
  public synchronized List<String> pending() {
    List<String> lines = new ArrayList<>();
    rules.forEach(r -> lines.add(r.toString()));
    for (int i = 0; i < noGraphPending; i++) {
      lines.add("a cuStreamEndCapture returns no graph");
    }
    return lines;
  }

  /** {@return whether a rule that fires once has not fired yet} */
  public synchronized boolean hasUnfired() {
    return noGraphPending > 0 || rules.stream().anyMatch(r -> !r.always);
  }

  /** {@return how many failures were injected (including "no graph" results)} */
  public synchronized long fired() {
    return fired;
  }

  /** Removes every rule. */
  public synchronized void clear() {
    rules.clear();
    noGraphPending = 0;
  }

  /** Counts a call of {@code call}; {@return the failure to throw in its place, or null} */
  synchronized @Nullable CudaDriverException next(DriverCall call) {
    Rule firing = null;
    for (Iterator<Rule> it = rules.iterator(); it.hasNext(); ) {
      Rule r = it.next();
      if (r.call != call) {
        continue;
      }
      if (r.always) {
        firing = firing == null ? r : firing;
      } else if (--r.remaining == 0) {
        it.remove();
        firing = firing == null ? r : firing;
      }
    }
    if (firing == null) {
      return null;
    }
    fired++;
    return new CudaDriverException(firing.status, call, "injected by a FaultPlan");
  }

  /** {@return whether a successful end of capture must return no graph}, consuming the request */
  synchronized boolean takeNoGraph() {
    if (noGraphPending == 0) {
      return false;
    }
    noGraphPending--;
    fired++;
    return true;
  }

  private static void requireFailure(int status) {
    if (status == CuResult.SUCCESS) {
      throw new IllegalArgumentException(
          "CUDA_SUCCESS is not a failure; inject a CUresult error code");
    }
  }

  private static String ordinal(int n) {
    String suffix =
        switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
    return n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : suffix);
  }
}
