package cuda.graph.conformance;

import cuda.graph.spi.DriverCall;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The calls made to an {@link InstrumentedDriver}, in the order they finished, with their status.
 * Records at most {@link #CAPACITY} calls (the oldest are dropped). Thread-safe.
 */
public final class DriverCallLog {

  /** How many records the log keeps. */
  public static final int CAPACITY = 100_000;

  private final ArrayDeque<LoggedCall> records = new ArrayDeque<>();
  private boolean enabled = true;

  DriverCallLog() {}

  synchronized void add(DriverCall call, int status, LoggedCall.Outcome outcome) {
    if (!enabled) {
      return;
    }
    if (records.size() == CAPACITY) {
      records.removeFirst();
    }
    records.addLast(new LoggedCall(call, status, outcome, Thread.currentThread().getName()));
  }

  /** {@return a snapshot of the records, oldest first} */
  public synchronized List<LoggedCall> records() {
    return List.copyOf(records);
  }

  /** {@return how many calls of {@code call} were recorded} */
  public synchronized long count(DriverCall call) {
    return records.stream().filter(r -> r.call() == call).count();
  }

  /** {@return how many calls of {@code call} were recorded with {@code outcome}} */
  public synchronized long count(DriverCall call, LoggedCall.Outcome outcome) {
    return records.stream().filter(r -> r.call() == call && r.outcome() == outcome).count();
  }

  /** Forgets every record. */
  public synchronized void clear() {
    records.clear();
  }

  /** Turns recording on (the default) or off. */
  public synchronized void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }
}
