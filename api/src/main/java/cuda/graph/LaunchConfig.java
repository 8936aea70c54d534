// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How a kernel launch is shaped: grid (in blocks), block (in threads) and dynamic shared memory.
 * The shape is checked against the limits of the device the launch runs on ({@link
 * Device.Attribute#MAX_THREADS_PER_BLOCK}, the per-dimension block and grid limits, {@link
 * Device.Attribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}) before any driver call: when the launch is
 * built, against the device of its buffer arguments, and when it executes. A block's shared memory
 * is the kernel's static shared memory (its {@code __shared__} variables, as the driver reports
 * them) plus the dynamic amount asked for here: where the two together pass {@link
 * Device.Attribute#MAX_SHARED_MEMORY_PER_BLOCK} (48 KiB) the library opts the kernel in before its
 * first such launch on a device ({@code CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}), and a
 * launch whose two amounts pass {@link Device.Attribute#MAX_SHARED_MEMORY_PER_BLOCK_OPTIN} is
 * refused before the driver sees it (when it executes, if the static amount was not read on the
 * device when the launch was built).
 *
 * <p><b>Programmatic dependent launch</b> ({@link #withProgrammaticDependentLaunch()}, compute
 * capability 9.0): the kernel may begin before the kernel before it on the stream has finished,
 * once every block of that kernel has called {@code cudaTriggerProgrammaticLaunchCompletion} (or
 * exited), so its launch latency and prologue overlap that kernel's tail. It must call {@code
 * cudaGridDependencySynchronize} before it reads anything the kernel before it writes (in a Java
 * reference: {@link KernelCall#gridDependencySynchronize}). Captured, the dependency becomes a
 * programmatic edge of the graph. Kernels that use neither call get nothing from it; a kernel that
 * reads before synchronizing races, and the simulator makes that race lose (inside graphs it starts
 * such a kernel at the earlier kernel's trigger and holds it at its synchronize).
 *
 * <p>For example, the usual shapes: a thread per item, a two-dimensional grid, dynamic shared
 * memory, and the device's limit to check a block against:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=launch-config}
 *
 * @param grid the grid shape, in blocks
 * @param block the block shape, in threads
 * @param sharedMemoryBytes dynamic shared memory per block, in bytes
 * @param programmaticDependentLaunch whether the launch may begin before the kernel before it has
 *     finished (see above)
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public record LaunchConfig(
    Dim3 grid, Dim3 block, int sharedMemoryBytes, boolean programmaticDependentLaunch) {

  /**
   * A launch that starts after the work before it on its stream, as every launch does unless
   * programmatic dependent launch is asked for.
   *
   * @param grid the grid shape, in blocks
   * @param block the block shape, in threads
   * @param sharedMemoryBytes dynamic shared memory per block, in bytes
   * @throws IllegalArgumentException if {@code sharedMemoryBytes} is negative
   */
  public LaunchConfig(Dim3 grid, Dim3 block, int sharedMemoryBytes) {
    this(grid, block, sharedMemoryBytes, false);
  }

  /**
   * {@return this shape as a programmatic dependent launch}: the kernel may start while the kernel
   * before it on the stream finishes, and must call {@code cudaGridDependencySynchronize} before it
   * reads that kernel's results; its other settings are kept
   */
  public LaunchConfig withProgrammaticDependentLaunch() {
    return new LaunchConfig(grid, block, sharedMemoryBytes, true);
  }

  /**
   * Checks the configuration.
   *
   * @throws IllegalArgumentException if {@code sharedMemoryBytes} is negative
   */
  public LaunchConfig {
    Objects.requireNonNull(grid, "grid");
    Objects.requireNonNull(block, "block");
    if (sharedMemoryBytes < 0) {
      throw new IllegalArgumentException(
          "shared memory must not be negative, got " + sharedMemoryBytes);
    }
  }

  /**
   * {@return a one-dimensional launch: {@code gridX} blocks of {@code blockX} threads}
   *
   * @param gridX the number of blocks, at least 1
   * @param blockX the number of threads per block, at least 1
   */
  public static LaunchConfig of(int gridX, int blockX) {
    return new LaunchConfig(Dim3.of(gridX), Dim3.of(blockX), 0);
  }

  /**
   * {@return a launch with the given shapes and no dynamic shared memory}
   *
   * @param grid the grid shape, in blocks
   * @param block the block shape, in threads
   */
  public static LaunchConfig of(Dim3 grid, Dim3 block) {
    return new LaunchConfig(grid, block, 0);
  }

  /**
   * {@return a one-dimensional launch with enough blocks of {@code blockX} threads to cover {@code
   * n} items}
   *
   * @param n the number of items, one per thread, at least 1
   * @param blockX the number of threads per block, at least 1
   * @throws IllegalArgumentException if {@code n} or {@code blockX} is below 1, or the grid would
   *     need more than {@link Integer#MAX_VALUE} blocks
   */
  public static LaunchConfig covering(long n, int blockX) {
    if (n < 1 || blockX < 1) {
      throw new IllegalArgumentException(
          "covering needs n >= 1 and blockX >= 1, got n=" + n + ", blockX=" + blockX);
    }
    long blocks = (n - 1) / blockX + 1; // n + blockX - 1 would overflow for n near Long.MAX_VALUE
    if (blocks > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          n
              + " items need "
              + blocks
              + " blocks of "
              + blockX
              + " threads, more than the "
              + Integer.MAX_VALUE
              + " blocks a grid holds in x; use bigger blocks, or let each thread handle several"
              + " items");
    }
    return of((int) blocks, blockX);
  }

  /**
   * {@return this launch with {@code bytes} of dynamic shared memory}, its other settings (the
   * shapes, a programmatic dependent launch) kept
   *
   * @param bytes dynamic shared memory per block, in bytes, not negative
   */
  public LaunchConfig withSharedMemory(int bytes) {
    return new LaunchConfig(grid, block, bytes, programmaticDependentLaunch);
  }
}
