package cuda.graph.simulator.internal;

import cuda.graph.simulator.CallLog;
import cuda.graph.simulator.CallRecord;
import cuda.graph.spi.DriverCall;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Supplier;

/** A bounded, thread-safe log of driver calls. */
final class RecordingCallLog implements CallLog {

  private final ArrayDeque<CallRecord> records = new ArrayDeque<>();
  private volatile boolean enabled = true;

  void record(DriverCall call, Supplier<String> arguments, int status) {
    if (!enabled) {
      return;
    }
    CallRecord record =
        new CallRecord(call, arguments.get(), status, Thread.currentThread().getName());
    synchronized (records) {
      if (records.size() == CAPACITY) {
        records.removeFirst();
      }
      records.addLast(record);
    }
  }

  @Override
  public List<CallRecord> records() {
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  @Override
  public void clear() {
    synchronized (records) {
      records.clear();
    }
  }

  @Override
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }
}
