package cuda.graph.internal.ops;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Makes an op execute at most once: the first execution claims it, a second one fails with a
 * message naming the op, because ops describe work that runs once (use {@code shared()} to let
 * several consumers see one result).
 */
public abstract class OnceGuard {

  private static final VarHandle CLAIMED;

  static {
    try {
      CLAIMED = MethodHandles.lookup().findVarHandle(OnceGuard.class, "claimed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // accessed through CLAIMED
  private volatile boolean claimed;

  public final void claim() {
    if (!CLAIMED.compareAndSet(this, false, true)) {
      throw new IllegalStateException(
          this
              + " was already executed: an op runs once; build a new op, or make it shared() so"
              + " several consumers share one execution");
    }
  }
}
