package cuda.graph.internal;

import org.jspecify.annotations.Nullable;

/**
 * The thread-local, non-reentrant execution lock: held while an op executes, while a graph is
 * captured and while a graph's inputs are updated, so work nested inside them cannot be submitted
 * on the side. Always released in {@code finally}, so an exception or error never leaves a thread
 * locked.
 */
public final class ExecutionLock {

  private static final ThreadLocal<String> HOLDER = new ThreadLocal<>();

  private ExecutionLock() {}

  /**
   * Takes the lock for {@code activity}.
   *
   * @return null if taken; otherwise what this thread is already doing (the lock is not taken)
   */
  public static @Nullable String tryAcquire(String activity) {
    String current = HOLDER.get();
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
