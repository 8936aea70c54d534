package cuda.graph.internal.runtime;

import cuda.graph.Stream;
import cuda.graph.spi.CuStream;

/** The implementation of {@link Stream}: the handle and its shared ownership. */
public final class StreamImpl implements Stream {

  private final DeviceImpl device;
  private final CuStream handle;
  private final RefCount lifetime;

  StreamImpl(DeviceImpl device, CuStream handle) {
    this.device = device;
    this.handle = handle;
    this.lifetime = device.lifetime(driver -> driver.streamDestroy(handle));
    // Dropped without close(): the cleaner closes it (the action refers to the count, not to this).
    CudaPlatformImpl.CLEANER.register(this, lifetime::closeOwner);
  }

  /**
   * A stream the library itself owns (an auxiliary lane): never closed through this object, its
   * handle is destroyed by its owner when the device closes.
   */
  StreamImpl(DeviceImpl device, CuStream handle, AuxLanes owner) {
    this.device = device;
    this.handle = handle;
    this.lifetime = new RefCount(() -> {});
  }

  /** {@return the implementation behind a stream (the only one {@code Stream} permits)} */
  public static StreamImpl of(Stream stream) {
    return (StreamImpl) stream;
  }

  @Override
  public DeviceImpl device() {
    return device;
  }

  @Override
  public void synchronize() {
    acquire();
    try {
      device.bind();
      device.platform().driver().streamSynchronize(handle);
    } finally {
      lifetime.release();
    }
  }

  @Override
  public boolean isIdle() {
    acquire();
    try {
      device.bind();
      return device.platform().driver().streamQuery(handle);
    } finally {
      lifetime.release();
    }
  }

  @Override
  public boolean isClosed() {
    return lifetime.isClosed();
  }

  @Override
  public void close() {
    lifetime.closeOwner();
  }

  /** Takes a reference for an execution; fails if the stream is closed. */
  public void acquire() {
    lifetime.acquire(this);
  }

  public void release() {
    lifetime.release();
  }

  public CuStream handle() {
    return handle;
  }

  @Override
  public String toString() {
    return "Stream["
        + handle
        + " on device "
        + device.ordinal()
        + (isClosed() ? ", closed" : "")
        + "]";
  }
}
