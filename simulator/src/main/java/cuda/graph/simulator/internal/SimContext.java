// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuContext;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * A device's primary context and what it owns. Its sticky error, once set by a faulting operation,
 * fails every later call that uses the context.
 */
final class SimContext implements HandleTable.Handled {

  final CuContext handle;
  final SimDevice device;
  final SimStream legacy;
  final Map<Thread, SimStream> perThread = new WeakHashMap<>();

  /** Every stream of the context, the legacy and per-thread ones included. */
  final Set<SimStream> streams = new LinkedHashSet<>();

  final Set<Object> owned = new LinkedHashSet<>();

  /** Device memory of this context that was not forgotten yet (graph reservations included). */
  final Set<Allocation> allocations = new LinkedHashSet<>();

  volatile int stickyError;
  volatile @Nullable String stickyDetail;
  boolean destroyed;

  SimContext(CuContext handle, SimDevice device) {
    this.handle = handle;
    this.device = device;
    this.legacy = new SimStream(cuda.graph.spi.CuStream.LEGACY, this, SimStream.Kind.LEGACY, true);
    streams.add(legacy);
  }

  /** Records a sticky device error; the first one wins, as on the GPU. */
  synchronized void fault(int status, String detail) {
    if (stickyError == 0) {
      stickyDetail = detail;
      stickyError = status;
    }
  }

  @Override
  public CuContext handle() {
    return handle;
  }
}
