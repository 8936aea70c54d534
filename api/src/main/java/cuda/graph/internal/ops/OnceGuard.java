// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * Makes an op execute at most once: the first execution claims it, a second one fails with a
 * message naming the op, because ops describe work that runs once (use {@code shared()} to let
 * several consumers see one result).
 *
 * <p>With {@code -Dcuda.graph.unrunOps=report} ({@link UnrunOps}) each op also remembers where it
 * was built until it runs or another op takes it ({@link #adopt}); off, those checks are constant
 * false and fold away.
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

  /** Where the op was built, while the detector of unrun ops is on; else null. */
  private final UnrunOps.@Nullable Tracker unrun;

  protected OnceGuard() {
    unrun = UnrunOps.ENABLED ? UnrunOps.track(this) : null;
  }

  public final void claim() {
    if (!CLAIMED.compareAndSet(this, false, true)) {
      throw new IllegalStateException(
          this
              + " was already executed: an op runs once; build a new op, or make it shared() so"
              + " several consumers share one execution");
    }
    if (UnrunOps.ENABLED && unrun != null) {
      unrun.settle();
    }
  }

  /**
   * Tells the detector of unrun ops that a composite op took {@code op}: whether it runs is the
   * composite's to report, once, where the composite was built.
   *
   * @return {@code op}
   */
  public static <T> T adopt(T op) {
    if (UnrunOps.ENABLED) {
      Object inner = op;
      while (inner instanceof NodeOp<?> node) { // a wrapper, not tracked: what it wraps is
        inner = node.composition;
      }
      if (inner instanceof OnceGuard guard && guard.unrun != null) {
        guard.unrun.settle();
      }
    }
    return op;
  }

  /** {@link #adopt Adopts} each op of {@code ops}. */
  public static void adoptAll(Iterable<?> ops) {
    if (UnrunOps.ENABLED) {
      ops.forEach(OnceGuard::adopt);
    }
  }
}
