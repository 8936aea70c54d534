// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.nccl.internal.collective.Backend;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps a native communicator alive while anything may still run its collectives: the owner holds
 * one reference, every execution (and every graph that captured one) another; the communicator is
 * destroyed once, when the last goes.
 */
final class Uses implements Backend.UsesHandle {

  private final AtomicLong references = new AtomicLong(1);
  private final AtomicBoolean ownerClosed = new AtomicBoolean();
  private final String what;
  private final Runnable destroy;

  Uses(String what, Runnable destroy) {
    this.what = what;
    this.destroy = destroy;
  }

  /** Takes a reference for an execution, or fails if the owner closed the communicator. */
  @Override
  public void acquire() {
    long n;
    do {
      n = references.get();
      if (n == 0 || ownerClosed.get()) {
        throw new IllegalStateException(
            what + " is closed; make the collectives' nodes before closing it, and close it last");
      }
    } while (!references.compareAndSet(n, n + 1));
  }

  /** Releases one reference; the last destroys the communicator. */
  @Override
  public void release() {
    long n = references.decrementAndGet();
    if (n == 0) {
      destroy.run();
    } else if (n < 0) {
      throw new IllegalStateException("a use of " + what + " was released twice");
    }
  }

  /** Releases the owner's reference, once. {@return whether this call closed it} */
  boolean closeOwner() {
    if (ownerClosed.compareAndSet(false, true)) {
      release();
      return true;
    }
    return false;
  }

  boolean isClosed() {
    return ownerClosed.get();
  }
}
