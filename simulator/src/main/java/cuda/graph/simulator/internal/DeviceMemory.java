// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.IllegalDeviceAccessException;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;

/**
 * The unified device address space of one simulator: every device's allocations at distinct fake
 * addresses, aligned to 256 bytes and separated by unmapped guard gaps, so overruns are caught.
 * Lookups are lock-free (simulated kernels run concurrently); changes happen under the simulator
 * lock.
 */
final class DeviceMemory {

  static final long ALIGNMENT = 256;
  private static final long GUARD = 4096;
  private static final long DEVICE_SPAN = 0x0100_0000_0000L;
  private static final long FIRST_ADDRESS = 0x7f00_0000_0000L;

  private final ConcurrentSkipListMap<Long, Allocation> byBase = new ConcurrentSkipListMap<>();

  /** The first address of a device's range. */
  static long rangeStart(int ordinal) {
    return FIRST_ADDRESS + ordinal * DEVICE_SPAN;
  }

  /** Reserves an address range for a new allocation on a device (no real memory yet). */
  Allocation reserve(SimDevice device, long bytes, Allocation.Kind kind, @Nullable SimGraph owner) {
    long base = device.nextAddress;
    long end = base + ((bytes + ALIGNMENT - 1) & -ALIGNMENT);
    device.nextAddress = end + GUARD;
    Allocation allocation = new Allocation(base, bytes, device, kind, owner);
    byBase.put(base, allocation);
    return allocation;
  }

  /** Forgets an allocation's range: later uses of its addresses are illegal. */
  void remove(Allocation allocation) {
    byBase.remove(allocation.base, allocation);
  }

  /** {@return the allocation whose base is exactly {@code address}, or null} */
  @Nullable Allocation atBase(long address) {
    return byBase.get(address);
  }

  /** {@return the allocation containing [address, address + bytes), or null} */
  @Nullable Allocation containing(long address, long bytes) {
    Map.Entry<Long, Allocation> e = byBase.floorEntry(address);
    if (e == null) {
      return null;
    }
    Allocation a = e.getValue();
    return a.contains(address, bytes) ? a : null;
  }

  /**
   * {@return live device memory for [address, address + bytes) as an executing operation sees it}
   *
   * @throws IllegalDeviceAccessException if the range is not inside one backed allocation
   */
  MemorySegment access(long address, long bytes, @Nullable SimDevice requiredDevice) {
    Allocation a = containing(address, bytes);
    if (a == null) {
      throw new IllegalDeviceAccessException(
          "[0x"
              + Long.toHexString(address)
              + ", +"
              + bytes
              + ") is not inside any device allocation");
    }
    if (requiredDevice != null && a.device != requiredDevice && a.kind != Allocation.Kind.MAPPED) {
      throw new IllegalDeviceAccessException(
          "0x"
              + Long.toHexString(address)
              + " belongs to device "
              + a.device.ordinal
              + ", not to device "
              + requiredDevice.ordinal
              + " (no peer access)");
    }
    MemorySegment view = a.view(address, bytes);
    if (view == null) {
      throw new IllegalDeviceAccessException(
          "0x"
              + Long.toHexString(address)
              + " is in "
              + a
              + ", which is not allocated at this point of execution");
    }
    return view;
  }
}
