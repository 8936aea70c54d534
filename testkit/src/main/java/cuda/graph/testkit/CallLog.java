// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HostFunction;
import cuda.graph.testkit.LoggedCall.Outcome;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The calls made through one {@link InstrumentedDriver}, in the order they were made, each with its
 * arguments, status, outcome and calling thread.
 *
 * <p>A call is recorded when it starts (or when it is refused, or a fault is injected in its
 * place), and its record shows {@link Outcome#SUCCEEDED} until the call fails: the record of a call
 * that is still running reads as a success. The log keeps the newest {@link #CAPACITY} records and
 * drops older ones. Recording is on from the start. Thread-safe: each method is atomic.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class CallLog {

  /** How many records the log keeps. */
  public static final int CAPACITY = 100_000;

  /** A record whose call may still fail. Guarded by the log. */
  private static final class Entry {
    final DriverCall call;
    final String arguments;
    final String thread;
    final long threadId;
    final long epoch;
    int status;
    Outcome outcome;

    Entry(DriverCall call, String arguments, int status, Outcome outcome, long epoch) {
      Thread current = Thread.currentThread();
      this.call = call;
      this.arguments = arguments;
      this.thread = current.getName();
      this.threadId = current.threadId();
      this.epoch = epoch;
      this.status = status;
      this.outcome = outcome;
    }

    LoggedCall record() {
      return new LoggedCall(call, arguments, status, outcome, thread);
    }
  }

  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private boolean enabled = true;

  /** Advances whenever recording restarts, so that a call never updates a record from before. */
  private long epoch;

  CallLog() {}

  // ---- reading

  /** {@return a snapshot of the records, oldest first} */
  public synchronized List<LoggedCall> records() {
    return entries.stream().map(Entry::record).toList();
  }

  /**
   * {@return how many calls of {@code call} are recorded}
   *
   * @param call the entry point to count
   */
  public synchronized long count(DriverCall call) {
    return entries.stream().filter(e -> e.call == call).count();
  }

  /**
   * {@return how many calls of {@code call} are recorded with {@code outcome}}
   *
   * @param call the entry point to count
   * @param outcome the outcome to count
   */
  public synchronized long count(DriverCall call, Outcome outcome) {
    return entries.stream().filter(e -> e.call == call && e.outcome == outcome).count();
  }

  /** Forgets every record. */
  public synchronized void clear() {
    entries.clear();
    epoch++;
  }

  /**
   * Turns recording on (the default) or off; calls made while it is off leave no record.
   *
   * @param enabled whether to record
   */
  public synchronized void setEnabled(boolean enabled) {
    if (enabled && !this.enabled) {
      epoch++;
    }
    this.enabled = enabled;
  }

  // ---- recording, by the instrumented driver

  synchronized boolean enabled() {
    return enabled;
  }

  /** Records a call that is about to run: a success, until {@link #finished} says otherwise. */
  synchronized void started(DriverCall call, String arguments) {
    add(call, arguments, 0, Outcome.SUCCEEDED);
  }

  /** Records a call that is already over: refused, or replaced by an injected fault. */
  synchronized void add(DriverCall call, String arguments, int status, Outcome outcome) {
    if (!enabled) {
      return;
    }
    if (entries.size() == CAPACITY) {
      entries.removeFirst();
    }
    entries.addLast(new Entry(call, arguments, status, outcome, epoch));
  }

  /**
   * Gives the record of the calling thread's running call of {@code call} its final status. That is
   * the thread's newest record of {@code call} that still reads as a success: a call made from
   * inside another on the same thread (a host function run inline) is newer than the outer one, and
   * it fails first, because drivers refuse calls from host functions.
   */
  synchronized void finished(DriverCall call, int status, Outcome outcome) {
    if (!enabled) {
      return;
    }
    long me = Thread.currentThread().threadId();
    for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.epoch != epoch) {
        return;
      }
      if (e.threadId == me && e.call == call && e.outcome == Outcome.SUCCEEDED) {
        e.status = status;
        e.outcome = outcome;
        return;
      }
    }
  }

  /** {@return the arguments of a call, formatted for reading} */
  static String describe(@Nullable Object[] arguments) {
    StringJoiner text = new StringJoiner(", ");
    for (Object argument : arguments) {
      text.add(
          switch (argument) {
            case null -> "null";
            case MemorySegment m ->
                "0x" + Long.toHexString(m.address()) + " (" + m.byteSize() + " B)";
            case HostFunction _ -> "HostFunction";
            default -> argument.toString();
          });
    }
    return text.toString();
  }
}
