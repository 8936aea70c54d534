// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.kernels;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The kernels of the programmatic-dependent-launch contracts: PTX from {@code
 * src/main/cuda/programmatic_kernels.cu} (compute capability 9.0) for a GPU, Java references for
 * the simulator. Each runs on one thread and adds one to {@code counter[0]}.
 *
 * <ul>
 *   <li>{@code inc_after_wait}: synchronizes with the kernel before it, increments, triggers;
 *   <li>{@code inc_trigger_first}: triggers, synchronizes, increments;
 *   <li>{@code inc_reading_too_early}: triggers, reads the counter, synchronizes, writes the value
 *       read plus one: the misuse, which can lose the increment of the kernel before it.
 * </ul>
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ProgrammaticKernels {

  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

  /** One thread, as a programmatic dependent launch. */
  public static final LaunchConfig ONE_THREAD_PROGRAMMATIC =
      LaunchConfig.of(1, 1).withProgrammaticDependentLaunch();

  /** The image: PTX for a GPU plus the Java references the simulator runs. */
  public static final KernelImage IMAGE =
      KernelImage.ptx(KitPtx.read("programmatic_kernels.ptx"))
          .withReference("inc_after_wait", ProgrammaticKernels::afterWait)
          .withReference("inc_trigger_first", ProgrammaticKernels::triggerFirst)
          .withReference("inc_reading_too_early", ProgrammaticKernels::readingTooEarly);

  /** {@code inc_after_wait(int *counter)}. */
  public static final Kernel INC_AFTER_WAIT =
      IMAGE.kernel("inc_after_wait", KernelParam.pointer(ElementType.I32));

  /** {@code inc_trigger_first(int *counter)}. */
  public static final Kernel INC_TRIGGER_FIRST =
      IMAGE.kernel("inc_trigger_first", KernelParam.pointer(ElementType.I32));

  /** {@code inc_reading_too_early(int *counter)}. */
  public static final Kernel INC_READING_TOO_EARLY =
      IMAGE.kernel("inc_reading_too_early", KernelParam.pointer(ElementType.I32));

  private ProgrammaticKernels() {}

  /**
   * Loads the image's kernels on {@code device}, before a capture needs them.
   *
   * @param device the device to load them on
   */
  public static void load(Device device) {
    for (Kernel k : List.of(INC_AFTER_WAIT, INC_TRIGGER_FIRST, INC_READING_TOO_EARLY)) {
      k.load(device);
    }
  }

  /**
   * {@return a chain of {@code n} launches of {@code kernel} on {@code counter}}: the first a plain
   * launch, every later one a programmatic dependent launch on the one before
   *
   * @param kernel one of this class's kernels
   * @param counter the counter, in element 0
   * @param n the number of launches, at least 1
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> chain(
      Kernel kernel, DeviceBuffer<Integer> counter, int n) {
    GraphNode<@Nullable Void> chain = kernel.launch(LaunchConfig.of(1, 1), counter);
    for (int i = 1; i < n; i++) {
      chain = chain.andThen(kernel.launch(ONE_THREAD_PROGRAMMATIC, counter));
    }
    return chain;
  }

  private static MemorySegment counter(KernelCall call) {
    return call.memory(0, Integer.BYTES);
  }

  private static void afterWait(KernelCall call) {
    call.gridDependencySynchronize();
    MemorySegment c = counter(call);
    c.set(INT, 0, c.get(INT, 0) + 1);
    call.triggerDependentLaunch();
  }

  private static void triggerFirst(KernelCall call) {
    call.triggerDependentLaunch();
    call.gridDependencySynchronize();
    MemorySegment c = counter(call);
    c.set(INT, 0, c.get(INT, 0) + 1);
  }

  private static void readingTooEarly(KernelCall call) {
    call.triggerDependentLaunch();
    MemorySegment c = counter(call);
    int seen = c.get(INT, 0);
    call.gridDependencySynchronize();
    c.set(INT, 0, seen + 1);
  }
}
