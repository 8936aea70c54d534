package cuda.graph.internal.runtime;

import cuda.graph.CudaDriverError;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.EventFlags;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Completes the futures of {@link DeviceOp#asyncOn}: each submission records an event after its
 * work, and one thread per platform polls the pending events, so no thread is blocked per future.
 *
 * <p>The thread spins briefly after activity (completions of short work are seen within
 * microseconds), then backs off to sleeping polls, and parks when nothing is pending, so it keeps
 * no core busy while idle. It runs in relaxed capture mode and only queries events recorded outside
 * any capture, so it never invalidates another thread's graph capture. A sticky device error fails
 * every pending future of that device.
 */
public final class CompletionService {

  private static final long SPIN_NANOS = 50_000;
  private static final long MIN_SLEEP_NANOS = 20_000;
  private static final long MAX_SLEEP_NANOS = 500_000;

  private final CudaPlatformImpl platform;
  private final ConcurrentLinkedQueue<Pending<?>> submitted = new ConcurrentLinkedQueue<>();
  private static final System.Logger LOG = System.getLogger("cuda.graph");

  /** Recorded-and-completed events, per device (an event belongs to its device's context). */
  private final Map<DeviceImpl, ConcurrentLinkedQueue<CuEvent>> spareEvents =
      new ConcurrentHashMap<>();

  private volatile @Nullable Thread thread;
  private volatile boolean closed;

  private static final class Pending<T extends @Nullable Object> {
    final Execution execution;
    final CuEvent event;
    final @Nullable T result;
    final @Nullable Throwable failure;
    final CompletableFuture<T> future = new DeviceFuture<>();

    Pending(Execution execution, CuEvent event, @Nullable T result, @Nullable Throwable failure) {
      this.execution = execution;
      this.event = event;
      this.result = result;
      this.failure = failure;
    }
  }

  public CompletionService(CudaPlatformImpl platform) {
    this.platform = platform;
  }

  /** Registers an execution whose work was enqueued; the future completes when it is done. */
  public <T extends @Nullable Object> CompletableFuture<T> submit(
      Execution execution, @Nullable T result, @Nullable Throwable failure) {
    CuEvent event = sparesOf(execution.device).poll();
    if (event == null) {
      event = execution.driver.eventCreate(EventFlags.DISABLE_TIMING);
    }
    try {
      execution.driver.eventRecord(event, execution.cuStream);
    } catch (RuntimeException | Error e) {
      sparesOf(execution.device).add(event);
      execution.driver.streamSynchronize(execution.cuStream);
      execution.finish();
      if (failure != null) {
        e.addSuppressed(failure);
      }
      throw e;
    }
    Pending<T> pending = new Pending<>(execution, event, result, failure);
    submitted.add(pending);
    wake();
    return pending.future;
  }

  private ConcurrentLinkedQueue<CuEvent> sparesOf(DeviceImpl device) {
    return spareEvents.computeIfAbsent(device, d -> new ConcurrentLinkedQueue<>());
  }

  private void recycle(Pending<?> p) {
    sparesOf(p.execution.device).add(p.event);
  }

  private void wake() {
    Thread t = thread;
    if (t == null) {
      synchronized (this) {
        t = thread;
        if (t == null) {
          t = Thread.ofPlatform().daemon().name("cuda-graph-completion").start(this::run);
          thread = t;
          return;
        }
      }
    }
    LockSupport.unpark(t);
  }

  private void run() {
    List<Pending<?>> pending = new ArrayList<>();
    boolean relaxed = false;
    long idleSince = System.nanoTime();
    long sleep = MIN_SLEEP_NANOS;
    while (!closed) {
      for (Pending<?> p; (p = submitted.poll()) != null; ) {
        pending.add(p);
      }
      if (pending.isEmpty()) {
        LockSupport.park(this);
        idleSince = System.nanoTime();
        sleep = MIN_SLEEP_NANOS;
        continue;
      }
      boolean progressed = false;
      for (Iterator<Pending<?>> it = pending.iterator(); it.hasNext(); ) {
        Pending<?> p = it.next();
        DeviceImpl device = p.execution.device;
        device.bind();
        if (!relaxed) {
          // Queries from this thread must never count against another thread's capture.
          platform.driver().threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
          relaxed = true;
        }
        if (poll(p)) {
          it.remove();
          progressed = true;
        }
      }
      if (progressed) {
        idleSince = System.nanoTime();
        sleep = MIN_SLEEP_NANOS;
      } else if (System.nanoTime() - idleSince < SPIN_NANOS) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(this, sleep);
        sleep = Math.min(MAX_SLEEP_NANOS, sleep * 2);
      }
    }
    // Closed: hand what is still pending back, for close() to fail.
    submitted.addAll(pending);
  }

  /** {@return whether the pending work is done (and its future completed)} */
  private <T extends @Nullable Object> boolean poll(Pending<T> p) {
    boolean done;
    try {
      done = platform.driver().eventQuery(p.event);
    } catch (CudaDriverError e) {
      complete(p, e);
      return true;
    }
    if (done) {
      recycle(p);
      complete(p, null);
    }
    return done;
  }

  private <T extends @Nullable Object> void complete(
      Pending<T> p, @Nullable Throwable deviceFailure) {
    Throwable failure = deviceFailure != null ? deviceFailure : p.failure;
    if (deviceFailure != null && p.failure != null) {
      deviceFailure.addSuppressed(p.failure);
    }
    try {
      p.execution.finish();
    } catch (RuntimeException | Error e) {
      failure = failure == null ? e : failure;
    }
    if (failure == null) {
      p.future.complete(p.result);
    } else {
      p.future.completeExceptionally(failure);
    }
  }

  /**
   * Stops the thread. Futures still pending fail, once their work has stopped (so nothing they
   * lease is released under running work); then the pooled events are destroyed.
   */
  public void close() {
    closed = true;
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
      try {
        t.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (Pending<?> p; (p = submitted.poll()) != null; ) {
      abandon(p);
    }
    spareEvents.forEach(
        (device, events) -> {
          for (CuEvent event; (event = events.poll()) != null; ) {
            try {
              device.bind();
              platform.driver().eventDestroy(event);
            } catch (CudaDriverError e) {
              LOG.log(
                  System.Logger.Level.WARNING,
                  "cuda.graph: could not destroy a completion event while closing: "
                      + e.getMessage());
            }
          }
        });
  }

  private void abandon(Pending<?> p) {
    try {
      p.execution.device.bind();
      platform.driver().eventSynchronize(p.event);
      recycle(p);
    } catch (CudaDriverError e) {
      // The device failed: nothing more runs on it, so the leases can go.
      LOG.log(
          System.Logger.Level.DEBUG,
          "cuda.graph: pending work failed while closing: " + e.getMessage());
    }
    try {
      p.execution.finish();
    } finally {
      p.future.completeExceptionally(
          new IllegalStateException("the platform was closed before this work completed"));
    }
  }
}
