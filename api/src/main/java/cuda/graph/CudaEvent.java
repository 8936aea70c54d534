package cuda.graph;

import cuda.graph.internal.RefCount;
import cuda.graph.spi.CuEvent;
import org.jspecify.annotations.Nullable;

/**
 * A CUDA event: a marker recorded into a stream's work, for ordering work across streams and for
 * timing. {@link #record()} and {@link #waitFor()} are ops; {@link #isDone()}, {@link
 * #synchronize()} and {@link #elapsedMillisSince} observe it from the host.
 *
 * <p>An event belongs to one device. {@link #close()} is idempotent; the handle is destroyed once
 * no execution uses it. Thread-safe.
 */
public final class CudaEvent implements AutoCloseable {

  private final Device device;
  private final CuEvent handle;
  private final RefCount lifetime;

  CudaEvent(Device device, CuEvent handle) {
    this.device = device;
    this.handle = handle;
    CudaPlatform platform = device.platform();
    this.lifetime = new RefCount(() -> platform.releases().release(() -> {
      device.bind();
      platform.driver().eventDestroy(handle);
    }));
  }

  /** {@return an op that records this event after the work before it on its stream} */
  public DeviceOp<@Nullable Void> record() {
    return new EventRecordOp(this);
  }

  /** {@return an op that makes the rest of its stream's work wait for this event's last record} */
  public DeviceOp<@Nullable Void> waitFor() {
    return new EventWaitOp(this);
  }

  /** {@return whether the work of the last record has completed (true if never recorded)} */
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
  public void synchronize() {
    lifetime.acquire(this);
    try {
      device.bind();
      device.platform().driver().eventSynchronize(handle);
    } finally {
      lifetime.release();
    }
  }

  /** {@return the GPU time in milliseconds between the completion of {@code start} and of this event} */
  public float elapsedMillisSince(CudaEvent start) {
    lifetime.acquire(this);
    try {
      start.lifetime.acquire(start);
      try {
        device.bind();
        return device.platform().driver().eventElapsedTime(start.handle, handle);
      } finally {
        start.lifetime.release();
      }
    } finally {
      lifetime.release();
    }
  }

  /** {@return the device this event belongs to} */
  public Device device() {
    return device;
  }

  /** Destroys the event once no execution uses it. Idempotent. */
  @Override
  public void close() {
    lifetime.closeOwner();
  }

  RefCount lifetime() {
    return lifetime;
  }

  CuEvent handle() {
    return handle;
  }

  @Override
  public String toString() {
    return "CudaEvent[" + handle + " on device " + device.ordinal() + "]";
  }
}
