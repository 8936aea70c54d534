package cuda.graph.spi;

/** {@code CUdevice_attribute} values for {@link CudaDriver#deviceGetAttribute}. */
public final class DeviceAttribute {
  public static final int MAX_THREADS_PER_BLOCK = 1;
  public static final int MAX_BLOCK_DIM_X = 2;
  public static final int MAX_BLOCK_DIM_Y = 3;
  public static final int MAX_BLOCK_DIM_Z = 4;
  public static final int MAX_GRID_DIM_X = 5;
  public static final int MAX_GRID_DIM_Y = 6;
  public static final int MAX_GRID_DIM_Z = 7;
  public static final int MAX_SHARED_MEMORY_PER_BLOCK = 8;
  public static final int TOTAL_CONSTANT_MEMORY = 9;
  public static final int WARP_SIZE = 10;
  public static final int MAX_REGISTERS_PER_BLOCK = 12;
  public static final int CLOCK_RATE = 13;
  public static final int MULTIPROCESSOR_COUNT = 16;
  public static final int COMPUTE_MODE = 20;
  public static final int CONCURRENT_KERNELS = 31;
  public static final int PCI_BUS_ID = 33;
  public static final int L2_CACHE_SIZE = 38;
  public static final int MAX_THREADS_PER_MULTIPROCESSOR = 39;
  public static final int ASYNC_ENGINE_COUNT = 40;
  public static final int UNIFIED_ADDRESSING = 41;
  public static final int COMPUTE_CAPABILITY_MAJOR = 75;
  public static final int COMPUTE_CAPABILITY_MINOR = 76;
  public static final int MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81;
  public static final int MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
  public static final int MAX_BLOCKS_PER_MULTIPROCESSOR = 106;
  public static final int MEMORY_POOLS_SUPPORTED = 115;

  private DeviceAttribute() {}
}
