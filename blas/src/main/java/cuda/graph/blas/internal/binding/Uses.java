// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts who may still use a backend's native objects (its handle and its plans' descriptors): the
 * owner holds one reference until it closes the backend, and so does every plan being made and
 * every execution of a node (for an eager one until its work is done, for a captured one as long as
 * the graph can replay). Whoever lets go of the last reference destroys them, exactly once.
 */
final class Uses {

  private final AtomicLong references = new AtomicLong(1);
  private volatile boolean ownerClosed;
  private final String what;

  Uses(String what) {
    this.what = what;
  }

  /**
   * Takes a reference.
   *
   * @throws IllegalStateException when the owner closed the backend
   */
  void acquire() {
    long n;
    do {
      n = references.get();
      if (n == 0 || ownerClosed) {
        throw new IllegalStateException(
            what + " is closed; plan and run its matmuls before closing it, and close it last");
      }
    } while (!references.compareAndSet(n, n + 1));
  }

  /** Lets go of one reference. {@return whether it was the last, so the caller destroys} */
  boolean release() {
    long n = references.decrementAndGet();
    if (n < 0) {
      throw new IllegalStateException("a use of " + what + " was released twice");
    }
    return n == 0;
  }

  /**
   * Lets go of the owner's reference, once. {@return whether that was the last, so the caller
   * destroys}; false also when the owner had closed already
   */
  synchronized boolean closeOwner() {
    if (ownerClosed) {
      return false;
    }
    ownerClosed = true;
    return release();
  }

  /** {@return whether the owner closed it} */
  boolean isClosed() {
    return ownerClosed;
  }
}
