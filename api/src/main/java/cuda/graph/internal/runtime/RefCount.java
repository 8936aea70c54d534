// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Shared ownership of one native resource: its owner holds one reference, every use in flight (an
 * execution, a captured graph, a pending launch) holds another, and the resource is destroyed
 * exactly once, when the last reference is released. Once the owner has closed it, new uses are
 * refused, but uses already in flight keep it alive. Thread-safe and lock-free.
 */
public final class RefCount {

  private final AtomicLong references = new AtomicLong(1);
  private final AtomicBoolean ownerClosed = new AtomicBoolean();
  private final Runnable destroy;

  /** The order of the resource's uses, for an exclusive buffer's memory; null otherwise. */
  private final @Nullable ExclusiveUse exclusive;

  /**
   * @param destroy runs once, on the thread that releases the last reference
   */
  public RefCount(Runnable destroy) {
    this(destroy, null);
  }

  /**
   * @param destroy runs once, on the thread that releases the last reference
   * @param exclusive the order of the uses of an exclusive buffer whose memory this is, or null
   */
  RefCount(Runnable destroy, @Nullable ExclusiveUse exclusive) {
    this.destroy = destroy;
    this.exclusive = exclusive;
  }

  /**
   * {@return the order of the uses of the exclusive buffer whose memory this is}, or null: a lease
   * of it makes a use (an execution, a graph's launches) wait for the last use on another stream
   */
  public @Nullable ExclusiveUse exclusive() {
    return exclusive;
  }

  /** Takes a reference for a new use; false if the owner closed the resource or it is destroyed. */
  public boolean tryAcquire() {
    if (ownerClosed.get()) {
      return false;
    }
    long n;
    do {
      n = references.get();
      if (n == 0) {
        return false;
      }
    } while (!references.compareAndSet(n, n + 1));
    return true;
  }

  /**
   * Takes a reference for a new use, or fails with a message naming {@code what} that was closed.
   */
  public void acquire(Object what) {
    if (!tryAcquire()) {
      throw new IllegalStateException(
          what + " is closed; create a new one, or close it only after its last use");
    }
  }

  /** Takes another reference for a use that already holds one (never fails). */
  public void retain() {
    long n = references.getAndIncrement();
    if (n <= 0) {
      references.getAndDecrement();
      throw new IllegalStateException(
          "retain() on a destroyed resource: the caller held no reference");
    }
  }

  /** Releases one reference; destroys the resource when it was the last. */
  public void release() {
    long n = references.decrementAndGet();
    if (n == 0) {
      destroy.run();
    } else if (n < 0) {
      throw new IllegalStateException("a reference was released twice");
    }
  }

  /**
   * Releases the owner's reference, once; later calls do nothing. {@return whether this call closed
   * it}
   */
  public boolean closeOwner() {
    if (ownerClosed.compareAndSet(false, true)) {
      release();
      return true;
    }
    return false;
  }

  /**
   * {@return whether the owner has closed the resource (it may still be alive for uses in flight)}
   */
  public boolean isClosed() {
    return ownerClosed.get();
  }

  /** {@return whether a use besides the owner's holds a reference now} */
  public boolean isInUse() {
    long n = references.get();
    return ownerClosed.get() ? n > 0 : n > 1;
  }

  /** {@return whether the resource has been destroyed} */
  public boolean isDestroyed() {
    return references.get() == 0;
  }
}
