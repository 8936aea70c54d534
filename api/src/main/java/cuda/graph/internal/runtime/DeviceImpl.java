// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.ComputeCapability;
import cuda.graph.CudaDriverError;
import cuda.graph.Device;
import cuda.graph.Dim3;
import cuda.graph.ElementType;
import cuda.graph.GraphMemory;
import cuda.graph.HostBuffer;
import cuda.graph.LaunchConfig;
import cuda.graph.MappedHostBuffer;
import cuda.graph.internal.ops.AllocateOp;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.GraphMemAttribute;
import cuda.graph.spi.HostAllocFlags;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.MemorySegment;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link Device}: the device's primary context (retained on first use,
 * released when the platform closes), its release stream, its staging pool, and the one way the
 * library releases a native object of the device ({@link #lifetime}).
 */
public final class DeviceImpl implements Device {

  private static final System.Logger LOG = System.getLogger("cuda.graph");

  /** Destroys one native object of a device, with the device's context current. */
  @FunctionalInterface
  public interface NativeRelease {
    void release(TranslatingDriver driver);
  }

  private final CudaPlatformImpl platform;
  private final int ordinal;
  private final int cuDevice;
  private final String name;
  private final ComputeCapability computeCapability;
  private final long totalMemory;
  private volatile @Nullable CuContext context;
  private volatile @Nullable CuStream releaseStream;
  private volatile @Nullable LaunchLimits launchLimits;
  private final StagingPool staging;
  private final AuxLanes auxLanes = new AuxLanes(this);

  /** The order of the uses of this device's exclusive buffers. */
  private final ExclusiveUse.Order exclusiveOrder = new ExclusiveUse.Order();

  DeviceImpl(CudaPlatformImpl platform, int ordinal) {
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

  /** {@return the implementation behind a device (the only one {@code Device} permits)} */
  public static DeviceImpl of(Device device) {
    return (DeviceImpl) device;
  }

  @Override
  public CudaPlatformImpl platform() {
    return platform;
  }

  @Override
  public int ordinal() {
    return ordinal;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ComputeCapability computeCapability() {
    return computeCapability;
  }

  @Override
  public long totalMemory() {
    return totalMemory;
  }

  @Override
  public long freeMemory() {
    bind();
    return platform.driver().memGetInfo().freeBytes();
  }

  @Override
  public GraphMemory graphMemory() {
    // Bound first, as every device call of the library is: on a closed platform that refuses, and
    // no call reaches the closed driver.
    bind();
    TranslatingDriver driver = platform.driver();
    return new GraphMemory(
        driver.deviceGetGraphMemAttribute(cuDevice, GraphMemAttribute.USED_MEM_CURRENT),
        driver.deviceGetGraphMemAttribute(cuDevice, GraphMemAttribute.USED_MEM_HIGH),
        driver.deviceGetGraphMemAttribute(cuDevice, GraphMemAttribute.RESERVED_MEM_CURRENT),
        driver.deviceGetGraphMemAttribute(cuDevice, GraphMemAttribute.RESERVED_MEM_HIGH));
  }

  @Override
  public void trimGraphMemory() {
    bind();
    platform.driver().deviceGraphMemTrim(cuDevice);
  }

  @Override
  public void resetGraphMemoryHighWater() {
    bind();
    TranslatingDriver driver = platform.driver();
    // 0 is the only value the driver accepts: it resets the mark to the current amount.
    driver.deviceSetGraphMemAttribute(cuDevice, GraphMemAttribute.USED_MEM_HIGH, 0);
    driver.deviceSetGraphMemAttribute(cuDevice, GraphMemAttribute.RESERVED_MEM_HIGH, 0);
  }

  @Override
  public int attribute(int cudaDeviceAttribute) {
    try {
      return platform.driver().deviceGetAttribute(cudaDeviceAttribute, cuDevice);
    } catch (CudaDriverError e) {
      // The real driver says only "invalid argument": name the number it refused.
      throw new CudaDriverError(
          e.code(),
          e.errorName(),
          e.call(),
          "CUdevice_attribute "
              + cudaDeviceAttribute
              + " of device "
              + ordinal
              + (e.detail() == null ? "" : ": " + e.detail()),
          e);
    }
  }

  @Override
  public StreamImpl newStream() {
    bind();
    return new StreamImpl(this, platform.driver().streamCreate(StreamFlags.NON_BLOCKING));
  }

  @Override
  public CudaEventImpl newEvent() {
    bind();
    return new CudaEventImpl(this, platform.driver().eventCreate(0));
  }

  @Override
  public <T> HostBuffer<T> allocateHost(ElementType<T> type, long length) {
    AllocateOp.requireLength(type, length, "a host buffer");
    bind();
    return new HostBufferImpl<>(
        this, type, length, platform.driver().memAllocHost(length * type.byteSize()));
  }

  /**
   * {@code CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP}: what every mapped buffer asks.
   */
  private static final int MAPPED_FLAGS = HostAllocFlags.PORTABLE | HostAllocFlags.DEVICEMAP;

  /**
   * Allocates mapped host memory and asks for its device pointer. Portable, as every host buffer
   * is: its copies may run on any device's stream of the platform (the view itself is used on this
   * device). Memory whose device pointer cannot be had is freed again through the release queue.
   */
  @Override
  public <T> MappedHostBuffer<T> allocateMapped(ElementType<T> type, long length) {
    AllocateOp.requireLength(type, length, "a mapped host buffer");
    long bytes = length * type.byteSize();
    bind();
    TranslatingDriver driver = platform.driver();
    MemorySegment memory;
    try {
      memory = driver.memHostAlloc(bytes, MAPPED_FLAGS);
    } catch (CudaDriverError e) {
      throw new CudaDriverError(
          e.code(),
          e.errorName(),
          e.call(),
          bytes
              + " bytes of page-locked host memory for a MappedHostBuffer<"
              + type
              + ">["
              + length
              + "] on "
              + this
              + (e.detail() == null ? "" : ": " + e.detail())
              + "; it is host memory the driver pins, so close the host buffers you no longer"
              + " need or map a smaller one",
          e);
    }
    long devicePointer;
    try {
      devicePointer = driver.memHostGetDevicePointer(memory, 0);
    } catch (CudaDriverError e) {
      release(d -> d.memFreeHost(memory));
      throw new CudaDriverError(
          e.code(),
          e.errorName(),
          e.call(),
          "no device pointer for "
              + bytes
              + " bytes of mapped host memory on "
              + this
              + " (a device that cannot map host memory answers so)"
              + (e.detail() == null ? "" : ": " + e.detail())
              + "; the memory was freed again: use allocateHost and copies on this device instead",
          e);
    }
    MappedHostBufferImpl<T> buffer =
        new MappedHostBufferImpl<>(this, type, length, memory, devicePointer);
    platform.ownHostMemory(this, memory, buffer.lifetime());
    return buffer;
  }

  /**
   * The launch shape limits of a device, as its attributes give them.
   *
   * @param maxThreadsPerBlock {@link Attribute#MAX_THREADS_PER_BLOCK}
   * @param maxBlock {@link Attribute#MAX_BLOCK_DIM_X}, {@code _Y} and {@code _Z}
   * @param maxGrid {@link Attribute#MAX_GRID_DIM_X}, {@code _Y} and {@code _Z}
   * @param maxSharedMemoryPerBlock {@link Attribute#MAX_SHARED_MEMORY_PER_BLOCK}: the shared memory
   *     a block has without opting in per function, static and dynamic together
   * @param maxSharedMemoryPerBlockOptin {@link Attribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}: what a
   *     block has once its function has opted in, which the library does before the first launch
   *     whose dynamic and static shared memory together are more than {@code
   *     maxSharedMemoryPerBlock} ({@code KernelImpl.function(DeviceImpl, int)})
   */
  public record LaunchLimits(
      int maxThreadsPerBlock,
      Dim3 maxBlock,
      Dim3 maxGrid,
      int maxSharedMemoryPerBlock,
      int maxSharedMemoryPerBlockOptin) {}

  /** {@return this device's launch shape limits, read from the driver on first use} */
  public LaunchLimits launchLimits() {
    LaunchLimits limits = launchLimits;
    if (limits == null) {
      synchronized (this) {
        limits = launchLimits;
        if (limits == null) {
          limits =
              new LaunchLimits(
                  attribute(Attribute.MAX_THREADS_PER_BLOCK),
                  new Dim3(
                      attribute(Attribute.MAX_BLOCK_DIM_X),
                      attribute(Attribute.MAX_BLOCK_DIM_Y),
                      attribute(Attribute.MAX_BLOCK_DIM_Z)),
                  new Dim3(
                      attribute(Attribute.MAX_GRID_DIM_X),
                      attribute(Attribute.MAX_GRID_DIM_Y),
                      attribute(Attribute.MAX_GRID_DIM_Z)),
                  attribute(Attribute.MAX_SHARED_MEMORY_PER_BLOCK),
                  Math.max(
                      attribute(Attribute.MAX_SHARED_MEMORY_PER_BLOCK),
                      attribute(Attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)));
          launchLimits = limits;
        }
      }
    }
    return limits;
  }

  /**
   * Fails unless this device can run a launch shaped by {@code config}, before the driver sees it
   * (the real driver answers a bad shape with a bare {@code CUDA_ERROR_INVALID_VALUE}). Allocates
   * nothing unless it fails.
   *
   * @param what the kernel launched, for the message
   * @param staticSharedBytes the kernel's static shared memory, which a block has beside the
   *     launch's dynamic amount; 0 where it is not known yet
   * @throws IllegalArgumentException naming the limit, its value and the shape's
   */
  public void checkLaunch(LaunchConfig config, Object what, int staticSharedBytes) {
    LaunchLimits limits = launchLimits();
    Dim3 block = config.block();
    Dim3 grid = config.grid();
    Dim3 maxBlock = limits.maxBlock();
    Dim3 maxGrid = limits.maxGrid();
    String problem = null;
    if (block.x() > maxBlock.x()) {
      problem = blockDimension(block, "x", block.x(), maxBlock.x(), Attribute.MAX_BLOCK_DIM_X);
    } else if (block.y() > maxBlock.y()) {
      problem = blockDimension(block, "y", block.y(), maxBlock.y(), Attribute.MAX_BLOCK_DIM_Y);
    } else if (block.z() > maxBlock.z()) {
      problem = blockDimension(block, "z", block.z(), maxBlock.z(), Attribute.MAX_BLOCK_DIM_Z);
    } else if (block.volume() > limits.maxThreadsPerBlock()) {
      problem =
          "block "
              + block
              + " has "
              + block.volume()
              + " threads, over the "
              + limits.maxThreadsPerBlock()
              + " threads per block the device runs ("
              + Attribute.MAX_THREADS_PER_BLOCK
              + "); use smaller blocks and more of them";
    } else if (grid.x() > maxGrid.x()) {
      problem =
          gridDimension(grid, "x", grid.x(), maxGrid.x(), Attribute.MAX_GRID_DIM_X)
              + "; use bigger blocks, or let each thread handle several items";
    } else if (grid.y() > maxGrid.y()) {
      problem =
          gridDimension(grid, "y", grid.y(), maxGrid.y(), Attribute.MAX_GRID_DIM_Y)
              + "; lay the grid out in x (up to "
              + maxGrid.x()
              + " blocks) instead";
    } else if (grid.z() > maxGrid.z()) {
      problem =
          gridDimension(grid, "z", grid.z(), maxGrid.z(), Attribute.MAX_GRID_DIM_Z)
              + "; lay the grid out in x (up to "
              + maxGrid.x()
              + " blocks) instead";
    } else if (config.sharedMemoryBytes()
        > limits.maxSharedMemoryPerBlockOptin() - staticSharedBytes) {
      problem = sharedMemory(config.sharedMemoryBytes(), staticSharedBytes, limits);
    }
    if (problem != null) {
      throw new IllegalArgumentException(what + " cannot launch on " + this + ": " + problem);
    }
  }

  /**
   * Fails unless a block of a kernel with {@code staticBytes} of static shared memory can have
   * {@code dynamicBytes} of dynamic shared memory on this device once the kernel opts in: the two
   * together at most {@link Attribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}, as the driver counts
   * them. Allocates nothing unless it fails.
   *
   * @param what the kernel launched, for the message
   * @throws IllegalArgumentException naming both amounts and the limit
   */
  public void checkSharedMemory(int dynamicBytes, int staticBytes, Object what) {
    LaunchLimits limits = launchLimits();
    if (dynamicBytes > limits.maxSharedMemoryPerBlockOptin() - staticBytes) {
      throw new IllegalArgumentException(
          what
              + " cannot launch on "
              + this
              + ": "
              + sharedMemory(dynamicBytes, staticBytes, limits));
    }
  }

  private static String sharedMemory(int dynamicBytes, int staticBytes, LaunchLimits limits) {
    int optin = limits.maxSharedMemoryPerBlockOptin();
    String limit =
        " bytes the device gives a block that opts in ("
            + Attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
            + "; "
            + limits.maxSharedMemoryPerBlock()
            + " without, "
            + Attribute.MAX_SHARED_MEMORY_PER_BLOCK
            + ")";
    if (staticBytes <= 0) {
      return dynamicBytes
          + " bytes of dynamic shared memory per block, over the "
          + optin
          + limit
          + "; use less shared memory per block";
    }
    return dynamicBytes
        + " bytes of dynamic shared memory per block beside the kernel's "
        + staticBytes
        + " bytes of static shared memory (its __shared__ variables) is "
        + ((long) dynamicBytes + staticBytes)
        + " bytes, over the "
        + optin
        + limit
        + "; ask for at most "
        + Math.max(0, optin - staticBytes)
        + " bytes of dynamic shared memory for this kernel, or give it less static shared memory";
  }

  private static String blockDimension(
      Dim3 block, String axis, int value, int limit, Attribute attribute) {
    return "block "
        + block
        + " is "
        + value
        + " threads in "
        + axis
        + ", over the device's limit of "
        + limit
        + " ("
        + attribute
        + "); use at most "
        + limit
        + " threads in "
        + axis
        + " and more blocks";
  }

  private static String gridDimension(
      Dim3 grid, String axis, int value, int limit, Attribute attribute) {
    return "grid "
        + grid
        + " is "
        + value
        + " blocks in "
        + axis
        + ", over the device's limit of "
        + limit
        + " ("
        + attribute
        + ")";
  }

  /**
   * {@return the shared ownership of a native object of this device}: once its last reference is
   * released, {@code release} runs through the platform's release queue with this device's context
   * current
   */
  public RefCount lifetime(NativeRelease release) {
    return new RefCount(() -> release(release));
  }

  /**
   * {@return the shared ownership of an exclusive buffer's memory}, as {@link #lifetime} but with
   * an order of its uses, whose event {@code release} destroys before it frees the memory
   */
  RefCount exclusiveLifetime(NativeRelease release) {
    ExclusiveUse order = new ExclusiveUse(exclusiveOrder);
    return new RefCount(
        () ->
            release(
                driver -> {
                  order.destroy(driver);
                  release.release(driver);
                }),
        order);
  }

  /**
   * Runs {@code release} through the platform's release queue (now, or once the captures in
   * progress have ended), with this device's context current.
   */
  public void release(NativeRelease release) {
    platform
        .releases()
        .release(
            () -> {
              bind();
              release.release(platform.driver());
            });
  }

  /**
   * Makes this device's primary context current on the calling thread, retaining it on first use.
   */
  public void bind() {
    platform.binding().bind(context());
  }

  public CuContext context() {
    CuContext c = context;
    if (c == null) {
      synchronized (this) {
        c = context;
        if (c == null) {
          if (platform.isClosed()) {
            // Retaining now would bring back a context nothing releases any more.
            throw new IllegalStateException(
                platform
                    + " is closed; use its devices, streams and buffers only before closing it");
          }
          c = platform.driver().devicePrimaryCtxRetain(cuDevice);
          context = c;
        }
      }
    }
    return c;
  }

  /** The stream on which memory whose last use has completed is freed; never captured. */
  public CuStream releaseStream() {
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

  /** {@return the device's auxiliary streams, for parallel branches and conditional bodies} */
  public AuxLanes auxLanes() {
    return auxLanes;
  }

  public StagingPool staging() {
    return staging;
  }

  public int cuDevice() {
    return cuDevice;
  }

  /** Where fill nodes switched off write instead: 16 bytes of device memory, or 0 until needed. */
  private long fillScratch;

  /**
   * {@return 16 bytes of this device's memory that fill nodes switched off write one element into}
   * (allocated on first use, freed when the device closes): a memset node switched off with {@code
   * cuGraphNodeSetEnabled} stops ordering the nodes around it on the real driver, so the library
   * switches a fill off by pointing it here instead, which keeps its edges
   */
  public synchronized long fillScratch() {
    if (fillScratch == 0) {
      bind();
      TranslatingDriver driver = platform.driver();
      long address = driver.memAllocAsync(16, releaseStream());
      driver.streamSynchronize(releaseStream());
      fillScratch = address;
    }
    return fillScratch;
  }

  /** Releases what the device holds: staging memory, the release stream and the context. */
  void close() {
    CuContext c = context;
    if (c == null) {
      return;
    }
    bind();
    staging.close();
    exclusiveOrder.close(platform.driver());
    synchronized (this) {
      if (fillScratch != 0) {
        platform.driver().memFreeAsync(fillScratch, releaseStream());
        fillScratch = 0;
      }
    }
    RuntimeException laneFailure = auxLanes.close(platform.driver());
    CuStream s = releaseStream;
    if (s != null) {
      try {
        platform.driver().streamSynchronize(s);
      } catch (CudaDriverError e) {
        // A sticky error: the device runs nothing more, and releasing the context below still
        // works.
      }
      platform.driver().streamDestroy(s);
      releaseStream = null;
    }
    platform.binding().forget();
    platform.driver().ctxSetCurrent(null);
    platform.driver().devicePrimaryCtxRelease(cuDevice);
    context = null;
    if (laneFailure != null) {
      // As for every release: logged, never retried, and the rest of the close still happens.
      LOG.log(
          System.Logger.Level.WARNING,
          "cuda.graph: destroying auxiliary streams of " + this + " failed",
          laneFailure);
    }
  }

  @Override
  public String toString() {
    return "Device[" + ordinal + ": " + name + ", sm " + computeCapability + "]";
  }
}
