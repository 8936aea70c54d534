// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import org.jspecify.annotations.Nullable;

/** A simulated GPU: its memory budget, address range and primary context. */
final class SimDevice {

  final int ordinal;
  final String name;
  final long totalMemory;
  long usedMemory;
  long nextAddress;
  int primaryRetains;
  @Nullable SimContext primary;

  /** The memory mapped for the device's graph allocations, and its accounting. */
  final GraphMemoryPool graphMemory;

  /** A sticky error that outlived its context: the process cannot use this device again. */
  int poisoned;

  SimDevice(int ordinal, String name, long totalMemory, long graphMemoryMappingUnit) {
    this.graphMemory = new GraphMemoryPool(graphMemoryMappingUnit);
    this.ordinal = ordinal;
    this.name = name;
    this.totalMemory = totalMemory;
    this.nextAddress = DeviceMemory.rangeStart(ordinal);
  }
}
