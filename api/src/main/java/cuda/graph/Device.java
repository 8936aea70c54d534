package cuda.graph;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.StreamFlags;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One GPU of a {@link CudaPlatform}: its identity and limits, and the factory of its streams,
 * events and pinned host buffers.
 *
 * <p>A device's primary context is retained the first time the device is used and released when
 * its platform closes; the library makes it current on every thread before that thread issues
 * work for the device. Instances are created by the platform, one per ordinal, and are safe to use
 * from any thread.
 */
public final class Device {

  private final CudaPlatform platform;
  private final int ordinal;
  private final int cuDevice;
  private final String name;
  private final ComputeCapability computeCapability;
  private final long totalMemory;
  private volatile @Nullable CuContext context;
  private volatile @Nullable CuStream releaseStream;
  private final StagingPool staging;

  Device(CudaPlatform platform, int ordinal) {
    this.platform = platform;
    this.ordinal = ordinal;
    TranslatingDriver driver = platform.driver();
    this.cuDevice = driver.deviceGet(ordinal);
    this.name = driver.deviceGetName(cuDevice);
    this.computeCapability =
        new ComputeCapability(
            driver.deviceGetAttribute(DeviceAttribute.COMPUTE_CAPABILITY_MAJOR, cuDevice),
            driver.deviceGetAttribute(DeviceAttribute.COMPUTE_CAPABILITY_MINOR, cuDevice));
    this.totalMemory = driver.deviceTotalMem(cuDevice);
    this.staging = new StagingPool(this);
  }

  /** {@return the platform this device belongs to} */
  public CudaPlatform platform() {
    return platform;
  }

  /** {@return the device's ordinal, from 0} */
  public int ordinal() {
    return ordinal;
  }

  /** {@return the device's name, e.g. {@code NVIDIA H200}} */
  public String name() {
    return name;
  }

  /** {@return the device's compute capability} */
  public ComputeCapability computeCapability() {
    return computeCapability;
  }

  /** {@return the device's memory size in bytes} */
  public long totalMemory() {
    return totalMemory;
  }

  /** {@return the device memory not yet allocated, in bytes (a snapshot)} */
  public long freeMemory() {
    bind();
    return platform.driver().memGetInfo().freeBytes();
  }

  /** {@return a driver attribute of the device ({@code CUdevice_attribute} value)} */
  public int attribute(int cudaDeviceAttribute) {
    return platform.driver().deviceGetAttribute(cudaDeviceAttribute, cuDevice);
  }

  /**
   * Creates a stream on this device. Streams are non-blocking (independent of the legacy default
   * stream), which is what graph capture requires; close them when done.
   */
  public Stream newStream() {
    bind();
    return new Stream(this, platform.driver().streamCreate(StreamFlags.NON_BLOCKING));
  }

  /** Creates an event on this device; close it when done. */
  public CudaEvent newEvent() {
    bind();
    return new CudaEvent(this, platform.driver().eventCreate(0));
  }

  /**
   * Allocates {@code length} elements of page-locked host memory, which asynchronous copies and
   * graph memcpy nodes can read and write while the host goes on. Close it when done: its memory
   * is freed once no queued copy uses it.
   */
  public <T> HostBuffer<T> allocateHost(ElementType<T> type, long length) {
    Objects.requireNonNull(type, "type");
    if (length <= 0) {
      throw new IllegalArgumentException("a host buffer holds at least one element, got length " + length);
    }
    bind();
    return new HostBuffer<>(this, type, length, platform.driver().memAllocHost(Math.multiplyExact(length, type.byteSize())));
  }

  /** Makes this device's primary context current on the calling thread, retaining it on first use. */
  void bind() {
    platform.binding().bind(context());
  }

  CuContext context() {
    CuContext c = context;
    if (c == null) {
      synchronized (this) {
        c = context;
        if (c == null) {
          if (platform.isClosed()) {
            // Retaining now would bring back a context nothing releases any more.
            throw new IllegalStateException(platform + " is closed; use its devices, streams and buffers only before closing it");
          }
          c = platform.driver().devicePrimaryCtxRetain(cuDevice);
          context = c;
        }
      }
    }
    return c;
  }

  /** The stream on which memory whose last use has completed is freed; never captured. */
  CuStream releaseStream() {
    CuStream s = releaseStream;
    if (s == null) {
      synchronized (this) {
        s = releaseStream;
        if (s == null) {
          bind();
          s = platform.driver().streamCreate(StreamFlags.NON_BLOCKING);
          releaseStream = s;
        }
      }
    }
    return s;
  }

  StagingPool staging() {
    return staging;
  }

  int cuDevice() {
    return cuDevice;
  }

  /** Releases what the device holds: staging memory, the release stream and the context. */
  void close() {
    CuContext c = context;
    if (c == null) {
      return;
    }
    bind();
    staging.close();
    CuStream s = releaseStream;
    if (s != null) {
      try {
        platform.driver().streamSynchronize(s);
      } catch (CudaDriverError e) {
        // A sticky error: the device runs nothing more, and releasing the context below still works.
      }
      platform.driver().streamDestroy(s);
      releaseStream = null;
    }
    platform.binding().forget();
    platform.driver().ctxSetCurrent(null);
    platform.driver().devicePrimaryCtxRelease(cuDevice);
    context = null;
  }

  @Override
  public String toString() {
    return "Device[" + ordinal + ": " + name + ", sm " + computeCapability + "]";
  }
}
