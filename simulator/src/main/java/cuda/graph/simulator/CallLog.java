package cuda.graph.simulator;

import cuda.graph.spi.DriverCall;
import java.util.List;

/**
 * The calls made to a simulated driver, in the order they completed. Recording is on from the start
 * and holds at most {@link #CAPACITY} records (the oldest are dropped). Thread-safe.
 */
public interface CallLog {

  /** How many records the log keeps. */
  int CAPACITY = 100_000;

  /** {@return a snapshot of the records} */
  List<CallRecord> records();

  /** {@return how many calls of one entry point were recorded} */
  default long count(DriverCall call) {
    return records().stream().filter(r -> r.call() == call).count();
  }

  /** Forgets every record. */
  void clear();

  /** Turns recording on or off. */
  void setEnabled(boolean enabled);
}
