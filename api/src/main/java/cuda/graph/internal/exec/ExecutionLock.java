package cuda.graph.internal.exec;

import org.jspecify.annotations.Nullable;

/**
 * The thread-local, non-reentrant execution lock: held while an op executes, while a graph is
 * captured and while a graph's inputs are updated, so work nested inside them cannot be submitted
 * on the side. Always released in {@code finally}, so an exception or error never leaves a thread
 * locked.
 */
public final class ExecutionLock {

  private static final ThreadLocal<Object> HOLDER = new ThreadLocal<>();

  private ExecutionLock() {}

  /**
   * Takes the lock for {@code activity}, an object whose {@code toString()} says what the thread is
   * doing (formatted only when a nested execution is reported, never on the hot path).
   *
   * @return null if taken; otherwise the activity that already holds it (the lock is not taken)
   */
  public static @Nullable Object tryAcquire(Object activity) {
    Object current = HOLDER.get();
    if (current != null) {
      return current;
    }
    HOLDER.set(activity);
    return null;
  }

  /** Releases the lock this thread holds. */
  public static void release() {
    HOLDER.remove();
  }

  /** {@return whether this thread holds the lock} */
  public static boolean isHeld() {
    return HOLDER.get() != null;
  }
}
