// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The implementation of {@link MappedHostBuffer}: pinned memory the buffer owns, plus the device
 * view of it at the device pointer the driver gave ({@link DeviceBufferImpl#mapped}), which shares
 * this buffer's lifetime. The acquire and release accessors go through the memory segment's var
 * handles, which are atomic on aligned elements (the driver's memory is page-aligned).
 */
public final class MappedHostBufferImpl<T> extends HostBufferImpl<T>
    implements MappedHostBuffer<T> {

  private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
  private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

  private final DeviceBufferImpl<T> view;

  /**
   * Wraps mapped memory the device's context just allocated, whose device pointer is {@code
   * devicePointer}; the buffer owns it from now on.
   */
  public MappedHostBufferImpl(
      DeviceImpl device,
      ElementType<T> type,
      long length,
      MemorySegment memory,
      long devicePointer) {
    super(device, type, length, memory);
    this.view = DeviceBufferImpl.mapped(this, devicePointer);
  }

  /** {@return the device's view of this memory} */
  @Override
  public DeviceBuffer<T> deviceView() {
    checkUsable("deviceView()");
    return view;
  }

  /**
   * Fails if this buffer is closed, or its platform is: the platform's close frees mapped memory
   * still allocated, and the segment the provider handed out with it is closed then.
   */
  @Override
  void checkUsable(String call) {
    requireOpen();
    if (device().platform().isClosed()) {
      throw new IllegalStateException(
          this
              + "."
              + call
              + ": "
              + device().platform()
              + " is closed and has freed the buffer's mapped memory; use a mapped buffer only"
              + " before closing its platform, and close the buffer first");
    }
  }

  /** {@return element {@code index}, read with acquire semantics} */
  @Override
  public int getIntAcquire(long index) {
    checkAtomic(ElementType.I32, "getIntAcquire(long)", index);
    return (int) INT.getAcquire(memory(), index * Integer.BYTES);
  }

  /** {@return element {@code index}, read with acquire semantics} */
  @Override
  public long getLongAcquire(long index) {
    checkAtomic(ElementType.I64, "getLongAcquire(long)", index);
    return (long) LONG.getAcquire(memory(), index * Long.BYTES);
  }

  /** Stores {@code value} in element {@code index} with release semantics. */
  @Override
  public void setIntRelease(long index, int value) {
    checkAtomic(ElementType.I32, "setIntRelease(long, int)", index);
    INT.setRelease(memory(), index * Integer.BYTES, value);
  }

  /** Stores {@code value} in element {@code index} with release semantics. */
  @Override
  public void setLongRelease(long index, long value) {
    checkAtomic(ElementType.I64, "setLongRelease(long, long)", index);
    LONG.setRelease(memory(), index * Long.BYTES, value);
  }

  /** Fails unless {@code accessor} may access element {@code index} of an open buffer. */
  private void checkAtomic(ElementType<?> wanted, String accessor, long index) {
    if (elementType() != wanted) {
      throw new IllegalArgumentException(
          accessor
              + " accesses a "
              + wanted
              + " element, but "
              + this
              + " holds "
              + elementType()
              + ": allocate flags and counters as ElementType.I32 (getIntAcquire, setIntRelease)"
              + " or ElementType.I64 (getLongAcquire, setLongRelease)");
    }
    checkUsable(accessor);
    checkIndex(index);
  }

  @Override
  String users() {
    return "op or captured graph";
  }

  @Override
  String factory() {
    return "Device.allocateMapped";
  }

  @Override
  public String toString() {
    return "MappedHostBuffer<" + elementType() + ">[" + length() + "]";
  }
}
