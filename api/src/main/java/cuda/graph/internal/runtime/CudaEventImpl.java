// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.CudaEvent;
import cuda.graph.DeviceOp;
import cuda.graph.internal.ops.EventRecordOp;
import cuda.graph.internal.ops.EventWaitOp;
import cuda.graph.spi.CuEvent;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The implementation of {@link CudaEvent}. */
public final class CudaEventImpl implements CudaEvent {

  private final DeviceImpl device;
  private final CuEvent handle;
  private final RefCount lifetime;

  public CudaEventImpl(DeviceImpl device, CuEvent handle) {
    this.device = device;
    this.handle = handle;
    this.lifetime = device.lifetime(driver -> driver.eventDestroy(handle));
    // Dropped without close(): the cleaner closes it (the action refers to the count, not to this).
    CudaPlatformImpl.CLEANER.register(this, lifetime::closeOwner);
  }

  /** {@return an op that records this event after the work before it on its stream} */
  @Override
  public DeviceOp<@Nullable Void> record() {
    requireOpen();
    return new EventRecordOp(this);
  }

  /** {@return an op that makes the rest of its stream's work wait for this event's last record} */
  @Override
  public DeviceOp<@Nullable Void> waitFor() {
    requireOpen();
    return new EventWaitOp(this);
  }

  /** {@return whether the work of the last record has completed (true if never recorded)} */
  @Override
  public boolean isDone() {
    lifetime.acquire(this);
    try {
      device.bind();
      return device.platform().driver().eventQuery(handle);
    } finally {
      lifetime.release();
    }
  }

  /** Blocks until the work of the last record has completed. */
  @Override
  public void synchronize() {
    lifetime.acquire(this);
    try {
      device.bind();
      device.platform().driver().eventSynchronize(handle);
    } finally {
      lifetime.release();
    }
  }

  /**
   * {@return the GPU time in milliseconds between the completion of {@code start} and of this
   * event}
   */
  @Override
  public float elapsedMillisSince(CudaEvent start) {
    CudaEventImpl begin = of(Objects.requireNonNull(start, "start"));
    if (begin.device != device) {
      throw new IllegalArgumentException(
          "cannot time "
              + this
              + " since "
              + start
              + (begin.device.platform() != device.platform()
                  ? ", which belongs to another platform"
                  : ", which belongs to device " + begin.device.ordinal())
              + ": both events of a timing must be of one device of one platform; record a start"
              + " event of "
              + device
              + " on a stream of that device");
    }
    lifetime.acquire(this);
    try {
      begin.lifetime.acquire(start);
      try {
        device.bind();
        return device.platform().driver().eventElapsedTime(begin.handle, handle);
      } finally {
        begin.lifetime.release();
      }
    } finally {
      lifetime.release();
    }
  }

  /** {@return the device this event belongs to} */
  @Override
  public DeviceImpl device() {
    return device;
  }

  /** Destroys the event once no execution uses it. Idempotent. */
  @Override
  public void close() {
    lifetime.closeOwner();
  }

  private void requireOpen() {
    if (lifetime.isClosed()) {
      throw new IllegalStateException(
          this + " is closed; build ops only on open events: create a new one with newEvent()");
    }
  }

  public RefCount lifetime() {
    return lifetime;
  }

  public CuEvent handle() {
    return handle;
  }

  /** {@return the implementation behind an event (the only one {@code CudaEvent} permits)} */
  public static CudaEventImpl of(CudaEvent event) {
    return (CudaEventImpl) event;
  }

  @Override
  public String toString() {
    return "CudaEvent[" + handle + " on device " + device.ordinal() + "]";
  }
}
