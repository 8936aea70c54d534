package cuda.graph;

import cuda.graph.internal.RefCount;
import cuda.graph.spi.CuStream;

/**
 * A CUDA stream: work executed on it runs in submission order, asynchronously to the host.
 *
 * <p>A stream belongs to one {@link Device}. It is safe to use from several threads (their work
 * interleaves in submission order). {@link #close()} is idempotent; the stream's handle is
 * destroyed once no execution is using it, and work already queued still completes. Using a closed
 * stream fails with {@link IllegalStateException}.
 */
public final class Stream implements AutoCloseable {

  private final Device device;
  private final CuStream handle;
  private final RefCount lifetime;

  Stream(Device device, CuStream handle) {
    this.device = device;
    this.handle = handle;
    CudaPlatform platform = device.platform();
    this.lifetime = new RefCount(() -> platform.releases().release(() -> {
      device.bind();
      platform.driver().streamDestroy(handle);
    }));
  }

  /** {@return the device this stream belongs to} */
  public Device device() {
    return device;
  }

  /**
   * Blocks until all work submitted to this stream so far has completed.
   *
   * @throws CudaDriverError if that work failed
   */
  public void synchronize() {
    acquire();
    try {
      device.bind();
      device.platform().driver().streamSynchronize(handle);
    } finally {
      lifetime.release();
    }
  }

  /** {@return whether all work submitted so far has completed (never blocks)} */
  public boolean isIdle() {
    acquire();
    try {
      device.bind();
      return device.platform().driver().streamQuery(handle);
    } finally {
      lifetime.release();
    }
  }

  /** {@return whether {@link #close()} was called} */
  public boolean isClosed() {
    return lifetime.isClosed();
  }

  /** Closes the stream; queued work still completes. Idempotent. */
  @Override
  public void close() {
    lifetime.closeOwner();
  }

  void acquire() {
    lifetime.acquire(this);
  }

  void release() {
    lifetime.release();
  }

  CuStream handle() {
    return handle;
  }

  @Override
  public String toString() {
    return "Stream[" + handle + " on device " + device.ordinal() + (isClosed() ? ", closed" : "") + "]";
  }
}
