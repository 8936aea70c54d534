// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.Stream;
import cuda.graph.spi.CuStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link Stream}: the handle, its shared ownership, and the gate that keeps
 * other threads' work off the stream while it captures.
 *
 * <p>CUDA records into a graph whatever any thread enqueues on a capturing stream, and a
 * synchronize or query of a capturing stream invalidates the capture. So every execution on the
 * stream passes the gate ({@link #enterWork()}), a capture makes it exclusive ({@link
 * #beginCapture()}) once the executions already inside have left, and executions that arrive
 * meanwhile wait until the capture ended. Entering costs one atomic increment when no capture runs.
 */
public final class StreamImpl implements Stream {

  /** The gate's bit that says a capture holds the stream; the bits below count executions. */
  private static final int CAPTURING = 1 << 30;

  private final DeviceImpl device;
  private final CuStream handle;
  private final RefCount lifetime;
  private final AtomicInteger gate = new AtomicInteger();

  /** Held to wait for a capture's end and to announce it. */
  private final Object captureEnded = new Object();

  /** The thread whose capture holds the stream, or null: it never waits for itself. */
  private volatile @Nullable Thread capturer;

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
    enterWork();
    try {
      device.bind();
      device.platform().driver().streamSynchronize(handle);
    } finally {
      exitWork();
      lifetime.release();
    }
  }

  @Override
  public boolean isIdle() {
    acquire();
    enterWork();
    try {
      device.bind();
      return device.platform().driver().streamQuery(handle);
    } finally {
      exitWork();
      lifetime.release();
    }
  }

  /**
   * Enters the gate for work on the stream, waiting while another thread's capture holds it. Pair
   * with {@link #exitWork()}.
   */
  public void enterWork() {
    while ((gate.getAndIncrement() & CAPTURING) != 0) {
      if (capturer == Thread.currentThread()) {
        // The capturing thread itself (a synchronize inside the capture's body): the driver
        // reports what that does to the capture, as it always did; waiting would never end.
        return;
      }
      exitWork();
      awaitCaptureEnd();
    }
  }

  /** Leaves the gate entered by {@link #enterWork()}. */
  public void exitWork() {
    gate.getAndDecrement();
  }

  /**
   * Turns this thread's work on the stream (it entered the gate) into the capture that holds the
   * stream alone: waits for a capture of another thread to end, then for the other executions
   * inside to leave. Pair with {@link #endCapture()}.
   */
  public void beginCapture() {
    while (true) {
      int v = gate.get();
      if ((v & CAPTURING) != 0) {
        // Another thread captures: step out of its way until it ends, then enter again.
        exitWork();
        awaitCaptureEnd();
        enterWork();
      } else if (gate.compareAndSet(v, v | CAPTURING)) {
        capturer = Thread.currentThread();
        break;
      }
    }
    // New work now waits; the work already inside enqueues its last calls and leaves.
    while ((gate.get() & ~CAPTURING) != 1) {
      LockSupport.parkNanos(10_000);
    }
  }

  /** Ends the exclusive hold of {@link #beginCapture()}; waiting work goes on. */
  public void endCapture() {
    capturer = null;
    gate.getAndAdd(-CAPTURING);
    synchronized (captureEnded) {
      captureEnded.notifyAll();
    }
  }

  private void awaitCaptureEnd() {
    synchronized (captureEnded) {
      boolean interrupted = false;
      while ((gate.get() & CAPTURING) != 0) {
        try {
          captureEnded.wait();
        } catch (InterruptedException e) {
          interrupted = true; // the work must still run once the capture ends; keep the flag
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
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
