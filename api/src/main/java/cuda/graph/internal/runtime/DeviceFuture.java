// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The future {@link DeviceOp#asyncOn} returns: a {@link CompletableFuture} that the thread polling
 * completions never completes itself, so that no dependent stage (nor a deferred read's conversion)
 * ever runs on it.
 *
 * <p>A thread waiting in {@code join()} or {@code get()} first queries the completion event itself
 * while it spins, and when the work is done it finishes the submission there, without the polling
 * thread (whichever of the two sees the event complete first takes it).
 *
 * <p>When the work is done, the {@link CompletionService} {@linkplain #deliver delivers} the
 * future's completion, an action that completes it. A thread waiting in {@link #join()} or {@link
 * #get()} runs the action itself: it spins briefly first (GPU work often completes within
 * microseconds, and a parked thread takes longer than that to wake up), then parks until the
 * service wakes it. When nobody waits, the action runs on a completer thread, one of a cached pool
 * of daemon threads: a dependent stage that blocks holds its completer only, and the next
 * completion gets another thread. Either way, stages registered before completion run on the thread
 * that completes, as {@code CompletableFuture} does; stages registered after completion run on the
 * registering thread.
 */
public final class DeviceFuture<T extends @Nullable Object> extends CompletableFuture<T> {

  /** How long a waiting caller spins before it parks, in nanoseconds. */
  private static final long SPIN_NANOS = 50_000;

  /** A parked waiter wakes at least this often, in case the service woke another one. */
  private static final long PARK_NANOS = 1_000_000;

  /** Threads that run completions nobody waits for; idle ones go after a while. */
  private static final ExecutorService COMPLETERS =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          10,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          Thread.ofPlatform().daemon().name("cuda-graph-completer-", 0).factory());

  private static final VarHandle WAITERS;
  private static final VarHandle CLAIMED;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      WAITERS = lookup.findVarHandle(DeviceFuture.class, "waiters", int.class);
      CLAIMED = lookup.findVarHandle(DeviceFuture.class, "claimed", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** What a waiter may ask to observe the work itself, without waiting for the polling thread. */
  interface Observer {
    /** {@return whether the work was seen done and the future completed on this thread} */
    boolean completeHere();
  }

  /** Set at submission: lets a spinning waiter query the completion event itself. */
  volatile @Nullable Observer observer;

  /** What completes the future, once the work is done; run once, by whoever claims it. */
  private volatile @Nullable Runnable completion;

  /** Threads in join/get that will run the completion when it arrives. */
  private volatile int waiters;

  /** One parked waiter, which {@link #deliver} wakes. */
  private volatile @Nullable Thread parked;

  /** 1 once a thread has claimed the completion. */
  private volatile int claimed;

  /**
   * Hands over what completes this future; called once, by the completion service, which must not
   * run it itself: a waiting caller runs it, or else a completer thread.
   */
  void deliver(Runnable action) {
    completion = action;
    if (waiters == 0) {
      COMPLETERS.execute(this::runCompletion);
    } else {
      Thread t = parked;
      if (t != null) {
        LockSupport.unpark(t);
      }
    }
  }

  /** {@return whether the service has delivered the completion (run or not yet)} */
  boolean delivered() {
    return completion != null || claimed != 0;
  }

  /** Runs the delivered completion unless another thread has claimed it. */
  private void runCompletion() {
    Runnable action = completion;
    if (action != null && CLAIMED.compareAndSet(this, 0, 1)) {
      completion = null;
      action.run();
    }
  }

  /**
   * Waits, as a waiter the service relies on, until the completion is delivered (then runs it here,
   * unless another thread claimed it), the future is done, or the wait is cut short.
   *
   * @return whether the thread was interrupted (only when {@code interruptible})
   */
  private boolean awaitCompletion(boolean interruptible, boolean timed, long deadline) {
    if (isDone()) {
      return false;
    }
    Thread me = Thread.currentThread();
    boolean interrupted = false;
    boolean parker = false;
    WAITERS.getAndAdd(this, 1);
    try {
      long spinEnd = System.nanoTime() + SPIN_NANOS;
      while (completion == null && claimed == 0 && !isDone()) {
        long now = System.nanoTime();
        if (timed && now - deadline >= 0) {
          break;
        }
        if (now - spinEnd < 0) {
          // Query the event here: when the work is done, finishing on this thread saves the
          // polling thread's round and the hand-over.
          Observer o = observer;
          if (o != null && o.completeHere()) {
            break;
          }
          Thread.onSpinWait();
          continue;
        }
        if (!parker) {
          parked = me;
          parker = true;
          continue; // look once more before parking: deliver may have missed us
        }
        LockSupport.parkNanos(this, timed ? Math.min(PARK_NANOS, deadline - now) : PARK_NANOS);
        if (interruptible && Thread.interrupted()) {
          interrupted = true;
          break;
        }
        if (parked != me) {
          parked = me; // another waiter took the slot and left: take it back
        }
      }
    } finally {
      if (parker && parked == me) {
        parked = null;
      }
      WAITERS.getAndAdd(this, -1);
    }
    // Delivered while this thread counted as a waiter: the service left the completion to us.
    runCompletion();
    return interrupted;
  }

  @Override
  public T join() {
    awaitCompletion(false, false, 0);
    return super.join();
  }

  @Override
  public T get() throws InterruptedException, ExecutionException {
    if (awaitCompletion(true, false, 0)) {
      Thread.currentThread().interrupt();
    }
    return super.get();
  }

  @Override
  public T get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    long nanos = unit.toNanos(timeout);
    long deadline = System.nanoTime() + nanos;
    if (awaitCompletion(true, true, deadline)) {
      Thread.currentThread().interrupt();
    }
    return super.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
