// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.CudaDriverError;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.EventFlags;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Observes when submitted work is done: each submission records an event after its work, and one
 * thread per platform polls the pending events, so no thread is blocked per future. Only then are
 * the execution's leases released, and its future completed.
 *
 * <p>The polling thread spins briefly after activity (completions of short work are seen within
 * microseconds), then backs off to sleeping polls, and parks when nothing is pending, so it keeps
 * no core busy while idle. It runs in relaxed capture mode and only queries events recorded outside
 * any capture, so it never invalidates another thread's graph capture. It runs no user code: a
 * future's completion (its dependent stages, and the conversion of a read left for completion) runs
 * on the thread that waits for it or on a completer thread ({@link DeviceFuture}).
 *
 * <p>Failures: a submission that failed has its future failed at once, and its leases kept until
 * the work it did enqueue is done. A failed query fails the future (or tells the listener) with the
 * driver's error; unless the error is sticky (the device runs nothing more), the leases stay until
 * a later query says the work is done. When no event can be recorded, the submitting thread
 * synchronizes instead; when even that fails without a sticky error, the leases are kept until the
 * platform closes (logged), never released under work that may still run.
 *
 * <p>Completion events are pooled per device, at most {@value #MAX_SPARE_EVENTS} each: more events
 * than that exist only while that many submissions are pending, and a completed one beyond the cap
 * is destroyed.
 */
public final class CompletionService {

  private static final System.Logger LOG = System.getLogger("cuda.graph");

  /** {@code Pending.state}: nobody is querying the event. */
  private static final int OPEN = 0;

  /** {@code Pending.state}: one thread is querying the event. */
  private static final int QUERYING = 1;

  /** {@code Pending.state}: one thread took the submission and finishes it. */
  private static final int TAKEN = 2;

  private static final long SPIN_NANOS = 50_000;
  private static final long MIN_SLEEP_NANOS = 20_000;
  private static final long MAX_SLEEP_NANOS = 500_000;

  /** Completed events kept for reuse, per device. */
  public static final int MAX_SPARE_EVENTS = 64;

  /** How a future still pending when the platform closes fails. */
  public static final String CLOSED = "the platform was closed before this work completed";

  private final CudaPlatformImpl platform;
  private final ConcurrentLinkedQueue<Pending<?>> submitted = new ConcurrentLinkedQueue<>();

  /** Executions whose deferred read was converted: the polling thread releases their leases. */
  private final ConcurrentLinkedQueue<Execution> converted = new ConcurrentLinkedQueue<>();

  /** Submissions whose leases are not released yet. */
  private final AtomicInteger unfinished = new AtomicInteger();

  private final Map<DeviceImpl, Spares> spareEvents = new ConcurrentHashMap<>();

  private final Object lock = new Object();
  private @Nullable Thread thread; // guarded by lock
  private boolean stopped; // guarded by lock: the polling thread is gone, for good
  private final List<Execution> orphans = new ArrayList<>(); // guarded by lock

  /** Futures failed by the polling thread while closing, on their way to a completer. */
  private final List<DeviceFuture<?>> failedWhileClosing = new ArrayList<>(); // guarded by lock

  private volatile boolean closing;

  /** Spare events of one device, counted so the pool can be capped. */
  private static final class Spares {
    final ConcurrentLinkedQueue<CuEvent> events = new ConcurrentLinkedQueue<>();
    final AtomicInteger count = new AtomicInteger();
  }

  /**
   * Host work left for when an execution's work is done: the conversion of a read staged into
   * pinned memory, then the host functions composed after it ({@code map}, a {@code zip}'s
   * combination), applied one after the other rather than as one composed function, so that any
   * number of them runs on a small stack. Built by the executing thread, then handed over with the
   * submission and only read.
   */
  public static final class HostTail {
    private final MemorySegment staging;
    private final Function<? super MemorySegment, ?> convert;
    private final List<Function<@Nullable Object, ?>> after = new ArrayList<>(2);

    private HostTail(MemorySegment staging, Function<? super MemorySegment, ?> convert) {
      this.staging = staging;
      this.convert = convert;
    }

    /** {@return the tail of a read whose copy into {@code staging} is enqueued} */
    public static HostTail read(MemorySegment staging, Function<? super MemorySegment, ?> convert) {
      return new HostTail(staging, convert);
    }

    /** {@return this tail, now followed by {@code next}, applied to its result} */
    @SuppressWarnings("unchecked")
    public HostTail andThen(Function<?, ?> next) {
      after.add((Function<@Nullable Object, ?>) next);
      return this;
    }

    /** Converts the staged data; library code only, run before the staging lease goes. */
    @Nullable Object convert() {
      return convert.apply(staging);
    }

    /** Runs the host functions composed after the read: user code, run after the leases went. */
    @Nullable Object after(@Nullable Object converted) {
      Object value = converted;
      for (Function<@Nullable Object, ?> f : after) {
        value = f.apply(value);
      }
      return value;
    }
  }

  /** One submission: what it leased, how its completion is observed, who hears of it. */
  private final class Pending<T extends @Nullable Object>
      implements Runnable, DeviceFuture.Observer {
    final Execution execution;
    final @Nullable DeviceFuture<T> future;
    final @Nullable Object result; // a value, or a HostTail
    final @Nullable Consumer<Throwable> onFailure;
    @Nullable CuEvent event;

    /** Confined to the polling thread: whether the future or listener got its answer. */
    boolean reported;

    /** Written before delivery: how run() completes the future, when not with the result. */
    @Nullable Throwable failure;

    /**
     * Who may query the event: {@link #OPEN} anyone, {@link #QUERYING} the one thread querying now
     * (the polling thread or the future's waiter, {@link #completeHere}), {@link #TAKEN} the one
     * that saw the work done (or the failure that ended it) and alone finishes the submission.
     * Queries are serialized by it, so a failed query is always reported before a later query's
     * success could complete the future.
     */
    final AtomicInteger state = new AtomicInteger(OPEN);

    /** What a waiter's own query failed with, for the polling thread to report as its own. */
    volatile @Nullable Throwable observedFailure;

    Pending(
        Execution execution,
        @Nullable DeviceFuture<T> future,
        @Nullable Object result,
        @Nullable Consumer<Throwable> onFailure) {
      this.execution = execution;
      this.future = future;
      this.result = result;
      this.onFailure = onFailure;
      if (future != null) {
        future.observer = this;
      }
    }

    /**
     * Called by a thread waiting for the future: queries the completion event itself and, when the
     * work is done and the polling thread has not taken it, finishes the submission here (releases
     * the leases, completes the future) without a hand-over. Leaves everything else (failures,
     * closing) to the polling thread. {@return whether this thread completed the future}
     */
    @Override
    public boolean completeHere() {
      CuEvent e = event;
      DeviceFuture<T> f = future;
      if (e == null || f == null || closing || observedFailure != null) {
        return false;
      }
      if (Thread.currentThread().isVirtual()) {
        return false; // it may change carriers between binding the context and using it
      }
      if (!state.compareAndSet(OPEN, QUERYING)) {
        return false;
      }
      if (f.isDone() || f.delivered()) {
        state.set(OPEN); // a failed query was reported: the polling thread sees it through
        return false;
      }
      boolean done;
      CaptureMode previous = null;
      try {
        execution.device.bind();
        // Like the polling thread's, this query must not count against another thread's capture.
        previous = platform.driver().threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
        done = execution.driver.eventQuery(e);
      } catch (RuntimeException | Error failure) {
        // The polling thread reports it, exactly as if its own query had failed.
        observedFailure = failure;
        state.set(OPEN);
        Thread t = pollingThread();
        if (t != null) {
          LockSupport.unpark(t);
        }
        return false;
      } finally {
        if (previous != null && previous != CaptureMode.RELAXED) {
          platform.driver().threadExchangeStreamCaptureMode(previous);
        }
      }
      if (!done) {
        state.set(OPEN);
        return false;
      }
      state.set(TAKEN);
      recycle(execution.device, e);
      if (!(result instanceof HostTail)) {
        Throwable released = finishHere(execution);
        if (released != null) {
          failure = released;
        }
      }
      run(); // a HostTail converts, then finishes here
      return true;
    }

    /** Completes the future; runs on a waiting thread or a completer, never the polling thread. */
    @Override
    @SuppressWarnings("unchecked")
    public void run() {
      DeviceFuture<T> f = future;
      if (f == null) {
        return;
      }
      Throwable error = failure;
      Object value = result;
      if (error == null && value instanceof HostTail tail) {
        Object raw = null;
        try {
          raw = tail.convert();
        } catch (Throwable e) {
          error = e;
        }
        if (Thread.currentThread().isVirtual()) {
          // A virtual thread may change carriers between binding a context and using it.
          finishLater(execution);
        } else {
          Throwable released = finishHere(execution);
          error = error == null ? released : error;
        }
        if (error == null) {
          try {
            value = tail.after(raw);
          } catch (Throwable e) {
            error = e;
          }
        }
      }
      if (error != null) {
        f.completeExceptionally(error);
      } else {
        f.complete((T) value);
      }
    }
  }

  public CompletionService(CudaPlatformImpl platform) {
    this.platform = platform;
  }

  /**
   * Takes over an execution whose work was enqueued: {@return a future completed once that work is
   * done} With {@code failure}, the op failed on submission: the future is failed now, and the
   * leases are released once the work the op did enqueue is done.
   *
   * @param result the op's result, or a {@link HostTail} computing it once the work is done
   */
  public <T extends @Nullable Object> CompletableFuture<T> submit(
      Execution execution, @Nullable Object result, @Nullable Throwable failure) {
    DeviceFuture<T> future = new DeviceFuture<>();
    if (failure != null) {
      future.completeExceptionally(failure);
      Throwable unobservable = enqueue(new Pending<T>(execution, null, null, null));
      if (unobservable != null) {
        failure.addSuppressed(unobservable);
      }
    } else {
      enqueue(new Pending<>(execution, future, result, null));
    }
    return future;
  }

  /**
   * Takes over an execution whose caller needs no future (it failed, or it returns at once): its
   * leases are released once its work is done. {@code onFailure} (library code, called on the
   * polling thread) hears of a failure the driver reports when the work is observed.
   *
   * @return null; or, when no completion event could be recorded (the work was then waited for
   *     here), what the driver failed with, for the caller to report
   */
  public @Nullable Throwable releaseWhenDone(
      Execution execution, @Nullable Consumer<Throwable> onFailure) {
    return enqueue(new Pending<>(execution, null, null, onFailure));
  }

  /** {@return whether a failure means the device runs nothing more, so leases can go at once} */
  public static boolean deviceIsDead(Throwable failure) {
    return failure instanceof CudaDriverError e
        && (e.isSticky() || e.code() == CuResult.DEINITIALIZED);
  }

  /**
   * Records the completion event of {@code p} and hands it to the polling thread. {@return null; or
   * what failed when no event could be recorded: the future is failed with it, and the work was
   * waited for here}
   */
  private @Nullable Throwable enqueue(Pending<?> p) {
    Execution ex = p.execution;
    CuEvent event = null;
    try {
      event = takeSpare(ex.device);
      if (event == null) {
        event = ex.driver.eventCreate(EventFlags.DISABLE_TIMING);
      }
      ex.driver.eventRecord(event, ex.cuStream);
    } catch (RuntimeException | Error e) {
      if (event != null) {
        recycle(ex.device, event); // never recorded: as good as a completed one
      }
      // Nothing to observe the work with: fail the future now, wait for the work here.
      if (p.future != null) {
        report(p, e);
      }
      waitHereThenFinish(ex, e);
      return e;
    }
    p.event = event;
    Thread t;
    synchronized (lock) {
      if (stopped) {
        t = null;
      } else {
        unfinished.incrementAndGet();
        submitted.add(p);
        t = thread;
        if (t == null) {
          t = Thread.ofPlatform().daemon().name("cuda-graph-completion").start(this::run);
          thread = t;
          return null;
        }
      }
    }
    if (t == null) {
      afterStop(p);
    } else {
      LockSupport.unpark(t);
    }
    return null;
  }

  /**
   * The work of {@code ex} cannot be observed by an event: synchronizes its stream (the caller
   * still leases it) and releases the leases, unless the synchronize fails without the device being
   * dead: then nobody can know when the work is done, and the leases stay until the platform
   * closes.
   */
  private void waitHereThenFinish(Execution ex, Throwable cause) {
    try {
      ex.driver.streamSynchronize(ex.cuStream);
    } catch (RuntimeException | Error e) {
      if (!deviceIsDead(e)) {
        cause.addSuppressed(e);
        LOG.log(
            System.Logger.Level.WARNING,
            "cuda.graph: the completion of work on "
                + ex.stream
                + " cannot be observed ("
                + cause.getMessage()
                + "); what it uses stays allocated until the platform closes");
        synchronized (lock) {
          orphans.add(ex);
        }
        return;
      }
    }
    finishQuietly(ex);
  }

  /** A submission after the polling thread stopped (the platform closed): handled here. */
  private void afterStop(Pending<?> p) {
    CuEvent event = p.event;
    try {
      p.execution.driver.eventSynchronize(event);
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.DEBUG, "cuda.graph: work failed while closing: " + e);
    }
    try {
      p.execution.driver.eventDestroy(event);
    } catch (RuntimeException | Error e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "cuda.graph: could not destroy a completion event while closing: " + e.getMessage());
    }
    finishQuietly(p.execution);
    deliverFailure(p, closedFailure());
  }

  private @Nullable CuEvent takeSpare(DeviceImpl device) {
    Spares spares = spareEvents.get(device);
    if (spares == null) {
      return null;
    }
    CuEvent event = spares.events.poll();
    if (event != null) {
      spares.count.decrementAndGet();
    }
    return event;
  }

  private void recycle(DeviceImpl device, CuEvent event) {
    Spares spares = spareEvents.computeIfAbsent(device, d -> new Spares());
    if (spares.count.incrementAndGet() <= MAX_SPARE_EVENTS) {
      spares.events.add(event);
    } else {
      spares.count.decrementAndGet();
      device.release(driver -> driver.eventDestroy(event));
    }
  }

  /**
   * The conversion of a deferred read ran on this (platform) thread, which releases the leases;
   * {@return what the release threw, or null}
   */
  private @Nullable Throwable finishHere(Execution execution) {
    Throwable failure = finish(execution);
    if (closing) {
      Thread t;
      synchronized (lock) {
        t = thread;
      }
      if (t != null) {
        LockSupport.unpark(t); // it may be waiting for this last submission to stop
      }
    }
    return failure;
  }

  /** The conversion of a deferred read ran: the polling thread releases the execution's leases. */
  private void finishLater(Execution execution) {
    converted.add(execution);
    Thread t;
    synchronized (lock) {
      t = thread;
    }
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  private void run() {
    List<Pending<?>> pending = new ArrayList<>();
    boolean relaxed = false;
    long idleSince = System.nanoTime();
    long sleep = MIN_SLEEP_NANOS;
    while (true) {
      for (Pending<?> p; (p = submitted.poll()) != null; ) {
        pending.add(p);
      }
      boolean progressed = false;
      for (Execution e; (e = converted.poll()) != null; ) {
        finish(e);
        progressed = true;
      }
      if (pending.isEmpty()) {
        synchronized (lock) {
          if (closing && submitted.isEmpty() && converted.isEmpty() && unfinished.get() == 0) {
            stopped = true;
            thread = null;
            return;
          }
        }
        if (!progressed && submitted.isEmpty() && converted.isEmpty()) {
          LockSupport.park(this);
        }
        idleSince = System.nanoTime();
        sleep = MIN_SLEEP_NANOS;
        continue;
      }
      for (Iterator<Pending<?>> it = pending.iterator(); it.hasNext(); ) {
        Pending<?> p = it.next();
        p.execution.device.bind();
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
  }

  /** {@return whether the pending work is done (its leases released, its future answered)} */
  private boolean poll(Pending<?> p) {
    if (!p.state.compareAndSet(OPEN, QUERYING)) {
      // TAKEN: its waiter saw it done and finished it. QUERYING: its waiter is asking; next round.
      return p.state.get() == TAKEN;
    }
    Throwable seen = p.observedFailure;
    if (seen != null) {
      p.observedFailure = null;
      return settle(p, queryFailed(p, seen));
    }
    CuEvent event = p.event;
    boolean done;
    try {
      done = p.execution.driver.eventQuery(event);
    } catch (RuntimeException | Error e) {
      return settle(p, queryFailed(p, e));
    }
    if (!done) {
      p.state.set(OPEN);
      return false;
    }
    p.state.set(TAKEN);
    recycle(p.execution.device, event);
    DeviceFuture<?> future = p.future;
    if (future == null || p.reported) {
      finish(p.execution);
    } else if (closing) {
      finish(p.execution);
      deliverFailure(p, closedFailure());
    } else if (p.result instanceof HostTail) {
      p.reported = true;
      future.deliver(p); // converted on the completing thread, then finished here
    } else {
      Throwable failure = finish(p.execution);
      if (failure != null) {
        deliverFailure(p, failure);
      } else {
        p.reported = true;
        future.deliver(p);
      }
    }
    return true;
  }

  /** Ends the polling thread's query: {@return {@code over}}, the submission taken if it is. */
  private static boolean settle(Pending<?> p, boolean over) {
    p.state.set(over ? TAKEN : OPEN);
    return over;
  }

  /**
   * The query failed: the future or listener hears of it. Unless the device is dead or the platform
   * closing, the work may still run, so the leases stay and the event is queried again later.
   * {@return whether the pending work is over with}
   */
  private boolean queryFailed(Pending<?> p, Throwable e) {
    report(p, e);
    boolean dead = deviceIsDead(e);
    if (!dead && !closing) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "cuda.graph: a completion query failed, it is asked again: " + e.getMessage());
      return false;
    }
    CuEvent event = p.event;
    DeviceImpl device = p.execution.device;
    boolean recycled = false;
    if (!dead) {
      // Closing: wait for the work, since the platform's contexts go next.
      try {
        p.execution.driver.eventSynchronize(event);
        recycle(device, event);
        recycled = true;
      } catch (RuntimeException | Error ignored) {
        // Destroyed below; the platform's close releases what is left.
      }
    }
    if (!recycled) {
      device.release(driver -> driver.eventDestroy(event));
    }
    finish(p.execution);
    return true;
  }

  /** Tells the future (or the listener) of a failure, once. */
  private void report(Pending<?> p, Throwable failure) {
    if (p.reported) {
      return;
    }
    if (p.future != null) {
      deliverFailure(p, failure);
    } else {
      p.reported = true;
      Consumer<Throwable> listener = p.onFailure;
      if (listener != null) {
        try {
          listener.accept(failure);
        } catch (RuntimeException | Error e) {
          LOG.log(System.Logger.Level.WARNING, "cuda.graph: a failure listener failed", e);
        }
      }
    }
  }

  private void deliverFailure(Pending<?> p, Throwable failure) {
    p.reported = true;
    p.failure = failure;
    DeviceFuture<?> future = p.future;
    if (future != null) {
      if (Thread.currentThread() == pollingThread()) {
        if (closing) {
          synchronized (lock) {
            failedWhileClosing.add(future); // close() returns once it is done
          }
        }
        future.deliver(p);
      } else {
        p.run(); // the submitting thread: the future has no dependents yet
      }
    }
  }

  private @Nullable Thread pollingThread() {
    synchronized (lock) {
      return thread;
    }
  }

  private static IllegalStateException closedFailure() {
    return new IllegalStateException(CLOSED);
  }

  /** Releases the leases of a submission; {@return what the release threw, or null} */
  private @Nullable Throwable finish(Execution execution) {
    try {
      execution.finish();
      return null;
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.WARNING, "cuda.graph: releasing an execution's leases failed", e);
      return e;
    } finally {
      unfinished.decrementAndGet();
    }
  }

  private static void finishQuietly(Execution execution) {
    try {
      execution.finish();
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.WARNING, "cuda.graph: releasing an execution's leases failed", e);
    }
  }

  /**
   * Stops taking work and waits, until {@code deadline} ({@link System#nanoTime()}; with {@code
   * bounded} false, for as long as it takes), until every pending submission is done: the futures
   * still pending fail with {@link #CLOSED} once their work has stopped, so nothing they lease is
   * released under running work; when this returns, every such future is done. Then releases what
   * could never be observed, and destroys the pooled events. Submissions must have stopped (the
   * platform admits no new execution).
   *
   * @return whether everything pending was done in time; if not, nothing was released
   */
  public boolean close(boolean bounded, long deadline) {
    Thread t;
    synchronized (lock) {
      closing = true;
      t = thread;
      if (t == null) {
        stopped = true;
      }
    }
    if (t != null) {
      LockSupport.unpark(t);
      try {
        if (bounded) {
          long left = deadline - System.nanoTime();
          if (left > 0) {
            t.join(java.time.Duration.ofNanos(left));
          }
        } else {
          t.join();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (t.isAlive()) {
        return false;
      }
    }
    // A failure is only handed to a completer thread: wait until it is set (which happens before
    // any dependent stage runs, so no user code can hold this up).
    List<DeviceFuture<?>> failed;
    synchronized (lock) {
      failed = List.copyOf(failedWhileClosing);
      failedWhileClosing.clear();
    }
    for (DeviceFuture<?> future : failed) {
      while (!future.isDone()) {
        if (bounded && System.nanoTime() - deadline >= 0) {
          return false;
        }
        LockSupport.parkNanos(this, 10_000);
      }
    }
    List<Execution> unobservable;
    synchronized (lock) {
      unobservable = List.copyOf(orphans);
      orphans.clear();
    }
    unobservable.forEach(CompletionService::finishQuietly);
    spareEvents.forEach(
        (device, spares) -> {
          for (CuEvent event; (event = spares.events.poll()) != null; ) {
            spares.count.decrementAndGet();
            try {
              device.bind();
              platform.driver().eventDestroy(event);
            } catch (RuntimeException e) {
              LOG.log(
                  System.Logger.Level.WARNING,
                  "cuda.graph: could not destroy a completion event while closing: "
                      + e.getMessage());
            }
          }
        });
    return true;
  }

  /** {@return how many submissions' leases are not released yet, for tests and diagnostics} */
  public int pendingCount() {
    return unfinished.get();
  }
}
