package cuda.graph.simulator.internal;

import cuda.graph.simulator.FaultInjector;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Fault rules, consulted before each driver call. Thread-safe. */
final class InjectedFaults implements FaultInjector {

  private static final class Rule {
    final DriverCall call;
    final int status;
    final boolean always;
    int remaining;

    Rule(DriverCall call, int nth, int status, boolean always) {
      this.call = call;
      this.remaining = nth;
      this.status = status;
      this.always = always;
    }

    @Override
    public String toString() {
      return always
          ? "every " + call.symbol() + " -> " + CuResult.describe(status)
          : call.symbol() + " call #" + remaining + " from now -> " + CuResult.describe(status);
    }
  }

  private final List<Rule> rules = new ArrayList<>();
  private final AtomicLong fired = new AtomicLong();

  @Override
  public synchronized void failNth(DriverCall call, int nth, int status) {
    validate(status);
    if (nth < 1) {
      throw new IllegalArgumentException("nth counts from 1 (the next call), got " + nth);
    }
    rules.add(new Rule(call, nth, status, false));
  }

  @Override
  public synchronized void failAlways(DriverCall call, int status) {
    validate(status);
    rules.add(new Rule(call, 1, status, true));
  }

  private static void validate(int status) {
    if (status == CuResult.SUCCESS) {
      throw new IllegalArgumentException(
          "an injected fault needs a failing status, not CUDA_SUCCESS");
    }
  }

  /** {@return the status to fail this call with, or 0 to let it run} */
  synchronized int check(DriverCall call) {
    int status = 0;
    for (Iterator<Rule> it = rules.iterator(); it.hasNext(); ) {
      Rule rule = it.next();
      if (rule.call != call) {
        continue;
      }
      if (rule.always) {
        status = status == 0 ? rule.status : status;
        continue;
      }
      rule.remaining--;
      if (rule.remaining == 0) {
        it.remove();
        status = status == 0 ? rule.status : status;
      }
    }
    if (status != 0) {
      fired.incrementAndGet();
    }
    return status;
  }

  @Override
  public synchronized List<String> pending() {
    return rules.stream().map(Rule::toString).toList();
  }

  @Override
  public long fired() {
    return fired.get();
  }

  @Override
  public synchronized void clear() {
    rules.clear();
  }
}
