// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.kernels;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The kernels that set graph conditions on the device, for the control-flow contracts: PTX from
 * {@code src/main/cuda/conditional_kernels.cu} for a GPU, Java references for the simulator. Each
 * runs on one thread.
 *
 * <ul>
 *   <li>{@code countdown(int *counter, cudaGraphConditionalHandle c)}: {@code counter[0] -= 1},
 *       then sets {@code c} to whether {@code counter[0] > 0};
 *   <li>{@code choose(const int *value, cudaGraphConditionalHandle c)}: sets {@code c} to {@code
 *       value[0]}.
 * </ul>
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ConditionalKernels {

  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
  private static final LaunchConfig ONE_THREAD = LaunchConfig.covering(1, 1);

  /** The image: PTX for a GPU plus the Java references the simulator runs. */
  public static final KernelImage IMAGE =
      KernelImage.ptx(KitPtx.read("conditional_kernels.ptx"))
          .withReference("countdown", ConditionalKernels::countdownReference)
          .withReference("choose", ConditionalKernels::chooseReference);

  /** {@code countdown(int *counter, cudaGraphConditionalHandle condition)}. */
  public static final Kernel COUNTDOWN =
      IMAGE.kernel("countdown", KernelParam.pointer(ElementType.I32), KernelParam.CONDITION);

  /** {@code choose(const int *value, cudaGraphConditionalHandle condition)}. */
  public static final Kernel CHOOSE =
      IMAGE.kernel("choose", KernelParam.pointer(ElementType.I32), KernelParam.CONDITION);

  private ConditionalKernels() {}

  /**
   * {@return a node that decrements {@code counter[0]} and sets {@code condition} to whether it is
   * still positive}
   *
   * @param counter the steps left, in element 0
   * @param condition the condition of the loop the node runs in
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> countdown(
      DeviceBuffer<Integer> counter, GraphCondition condition) {
    return COUNTDOWN.launch(ONE_THREAD, counter, condition);
  }

  /**
   * {@return a node that sets {@code condition} to {@code value[0]}}
   *
   * @param value the condition's new value, in element 0
   * @param condition the condition to set
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> choose(
      DeviceBuffer<Integer> value, GraphCondition condition) {
    return CHOOSE.launch(ONE_THREAD, value, condition);
  }

  private static void countdownReference(KernelCall call) {
    MemorySegment counter = call.memory(0, Integer.BYTES);
    int left = counter.get(INT, 0) - 1;
    counter.set(INT, 0, left);
    call.setCondition(1, left > 0 ? 1 : 0);
  }

  private static void chooseReference(KernelCall call) {
    call.setCondition(1, call.memory(0, Integer.BYTES).get(INT, 0));
  }
}
