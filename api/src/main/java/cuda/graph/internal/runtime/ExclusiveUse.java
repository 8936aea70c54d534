// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.EventFlags;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The order of the uses of one exclusive buffer ({@code DeviceBuffer.allocateExclusive}): the
 * stream of its last use and an event recorded after that use was enqueued. A use on another stream
 * first waits for that event, so no two uses of the buffer overlap on the device, whichever streams
 * and threads they come from. Every use holds its device's {@link Order#lock} from its wait until
 * its own event is recorded, so two uses never both wait for the same earlier one and then overlap.
 */
public final class ExclusiveUse {

  private final Order order;

  /** The stream of the last use (compared by identity: stream handles are reused), or null. */
  private @Nullable StreamImpl lastStream;

  /** Recorded after the last use was enqueued; created on the first use. */
  private @Nullable CuEvent done;

  ExclusiveUse(Order order) {
    this.order = order;
  }

  /** {@return the lock every use of the device's exclusive buffers holds} */
  ReentrantLock lock() {
    return order.lock;
  }

  /**
   * Enqueues on {@code stream} a wait for the last use, unless that was on {@code stream} itself.
   * The caller holds {@link #lock()}.
   */
  void orderAfterLastUse(TranslatingDriver driver, StreamImpl stream) {
    CuEvent e = done;
    if (e != null && lastStream != stream) {
      driver.streamWaitEvent(stream.handle(), e, 0);
    }
  }

  /**
   * Notes a use just enqueued on {@code stream}: later uses elsewhere wait for it. The caller holds
   * {@link #lock()}.
   */
  void usedOn(TranslatingDriver driver, StreamImpl stream) {
    CuEvent e = done;
    if (e == null) {
      e = driver.eventCreate(EventFlags.DISABLE_TIMING);
      done = e;
      order.live.add(this);
    }
    driver.eventRecord(e, stream.handle());
    lastStream = stream;
  }

  /** Destroys the event once the buffer's memory is released: no use can come any more. */
  void destroy(TranslatingDriver driver) {
    order.lock.lock();
    try {
      CuEvent e = done;
      done = null;
      lastStream = null;
      order.live.remove(this);
      if (e != null) {
        driver.eventDestroy(e); // waits already enqueued on it still hold
      }
    } finally {
      order.lock.unlock();
    }
  }

  /**
   * What one device's exclusive buffers share: the lock their uses hold, and the buffers with an
   * event, whose events the device destroys when it closes.
   */
  public static final class Order {
    final ReentrantLock lock = new ReentrantLock();
    final Set<ExclusiveUse> live = ConcurrentHashMap.newKeySet();

    /** Destroys the events of the buffers still alive (the device is closing). */
    void close(TranslatingDriver driver) {
      for (ExclusiveUse x : Set.copyOf(live)) {
        x.destroy(driver);
      }
    }
  }
}
