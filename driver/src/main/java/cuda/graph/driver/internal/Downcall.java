// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A downcall handle that links itself on its first invocation and is a JIT constant from then on.
 *
 * <p>{@link #lazy} returns the {@linkplain MutableCallSite#dynamicInvoker() dynamic invoker} of a
 * call site whose first target links the real downcall, installs it as the call site's target and
 * calls it. Held in a {@code static final} field the invoker is a constant, and HotSpot folds the
 * target of a constant call site too (recompiling dependent code when it changes, which happens
 * once, on that first call). So {@code invokeExact} on such a field compiles to a direct call of
 * the downcall stub, as it would with the linked handle itself in the field; and declaring the
 * field costs nothing native: a class may hold it before any library is bound, and an entry point
 * is looked up and linked only when first called.
 */
final class Downcall extends MutableCallSite {

  private static final MethodHandle LINK = findLink();

  private final Supplier<MethodHandle> linker;

  // Written once, under the lock; volatile so a thread that still sees the first target takes no
  // lock once the handle exists.
  private volatile @Nullable MethodHandle linked;

  private Downcall(MethodType type, Supplier<MethodHandle> linker) {
    super(type);
    this.linker = linker;
    // Until linked, the target asks link() for the downcall, then invokes it with its arguments.
    setTarget(MethodHandles.foldArguments(MethodHandles.exactInvoker(type), LINK.bindTo(this)));
  }

  /**
   * {@return a handle of {@code type} that calls {@code linker} on its first invocation, then
   * invokes what it returned, now and from then on}; a linker that throws is asked again on the
   * next invocation
   */
  static MethodHandle lazy(MethodType type, Supplier<MethodHandle> linker) {
    return new Downcall(type, linker).dynamicInvoker();
  }

  /**
   * Rethrows what invoking a downcall threw. The native call itself throws nothing, but linking can
   * fail ({@link IllegalStateException} when no library is bound, {@link UnsatisfiedLinkError}) and
   * arguments can be refused before the call: a segment of a closed arena ({@link
   * IllegalStateException}), one confined to another thread ({@link WrongThreadException}). All of
   * those propagate unchanged; only {@code invokeExact}'s {@code throws Throwable} is absorbed.
   */
  static RuntimeException rethrow(Throwable thrown) {
    if (thrown instanceof RuntimeException e) {
      return e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
    throw new AssertionError("a downcall threw a checked exception", thrown);
  }

  private MethodHandle link() {
    MethodHandle target = linked;
    if (target == null) {
      synchronized (this) {
        target = linked;
        if (target == null) {
          target = linker.get();
          setTarget(target); // checks the type before anything is kept
          syncAll(new MutableCallSite[] {this});
          linked = target;
        }
      }
    }
    return target;
  }

  private static MethodHandle findLink() {
    try {
      return MethodHandles.lookup()
          .findVirtual(Downcall.class, "link", MethodType.methodType(MethodHandle.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("Downcall.link() is missing", e);
    }
  }
}
