// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import org.jspecify.annotations.Nullable;

/**
 * The thread-local, non-reentrant execution lock: held while an op executes, while a graph is
 * captured and while a graph's inputs are updated, so work nested inside them cannot be submitted
 * on the side. Always released in {@code finally}, so an exception or error never leaves a thread
 * locked.
 *
 * <p>Each thread keeps one slot for its whole life and the lock only writes the slot's field:
 * taking and releasing allocate nothing and leave the thread's map of thread locals as it was
 * (removing the entry on every release made the next execution create it again).
 */
public final class ExecutionLock {

  private static final ThreadLocal<Slot> HOLDER = ThreadLocal.withInitial(Slot::new);

  /** What this thread is executing, or null. */
  private static final class Slot {
    @Nullable Object activity;
  }

  private ExecutionLock() {}

  /**
   * Takes the lock for {@code activity}, an object whose {@code toString()} says what the thread is
   * doing (formatted only when a nested execution is reported, never on the hot path).
   *
   * @return null if taken; otherwise the activity that already holds it (the lock is not taken)
   */
  public static @Nullable Object tryAcquire(Object activity) {
    Slot slot = HOLDER.get();
    Object current = slot.activity;
    if (current != null) {
      return current;
    }
    slot.activity = activity;
    return null;
  }

  /** Releases the lock this thread holds. */
  public static void release() {
    HOLDER.get().activity = null;
  }

  /** {@return whether this thread holds the lock} */
  public static boolean isHeld() {
    return HOLDER.get().activity != null;
  }
}
