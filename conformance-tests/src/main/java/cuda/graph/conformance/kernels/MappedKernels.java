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
import java.lang.invoke.VarHandle;
import java.time.Duration;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The kernel of the mapped-host-memory contract: PTX from {@code src/main/cuda/mapped_kernels.cu}
 * (for {@code compute_90}) for a GPU, with a Java reference for the simulator that follows the same
 * protocol with Java's fences and atomics.
 *
 * <p>{@code publish_each(int n, int *values, int *control, long long timeout_ns)}, on one thread:
 * for each {@code i < n} it stores {@code values[i] = }{@link #published published(i)}, fences
 * ({@code __threadfence_system()}), stores the count {@code control[0] = i + 1}, then waits until
 * the host has stored at least {@code i + 1} in {@code control[1]}; if the host does not within the
 * timeout it stores 1 in {@code control[2]} and returns. So the launch cannot complete before the
 * host has acknowledged every value: each value the host reads, it reads while the kernel runs.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class MappedKernels {

  /** {@code control[0]}: how many values the kernel has published. */
  public static final int PUBLISHED = 0;

  /** {@code control[1]}: how many values the host has acknowledged. */
  public static final int ACKNOWLEDGED = 1;

  /** {@code control[2]}: 1 once the kernel gave up waiting for the host. */
  public static final int TIMED_OUT = 2;

  /** The elements of the control buffer {@link #publishEach} takes. */
  public static final int CONTROL_LENGTH = 4;

  private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

  /** The image: PTX for a GPU plus the Java reference the simulator runs. */
  public static final KernelImage IMAGE =
      KernelImage.ptx(KitPtx.read("mapped_kernels.ptx"))
          .withReference("publish_each", MappedKernels::publishEachReference);

  /** {@code publish_each(int n, int *values, int *control, long long timeout_ns)}. */
  public static final Kernel PUBLISH_EACH =
      IMAGE.kernel(
          "publish_each",
          KernelParam.I32,
          KernelParam.pointer(ElementType.I32),
          KernelParam.pointer(ElementType.I32),
          KernelParam.I64);

  private MappedKernels() {}

  /**
   * Loads the image on {@code device}, before a capture needs it.
   *
   * @param device the device to load it on
   */
  public static void load(Device device) {
    PUBLISH_EACH.load(device);
  }

  /**
   * {@return the value {@code publish_each} stores in slot {@code i}}
   *
   * @param i the slot
   */
  public static int published(int i) {
    return 1000 + 7 * i;
  }

  /**
   * {@return a one-thread launch of {@code publish_each} over {@code values}}
   *
   * @param values the slots, one per value to publish; mapped host memory for the host to read
   *     while the kernel runs
   * @param control at least {@link #CONTROL_LENGTH} elements, zero when the launch starts: the
   *     count published, the count acknowledged, the timeout flag
   * @param timeout how long the kernel waits for each acknowledgement before it gives up
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> publishEach(
      DeviceBuffer<Integer> values, DeviceBuffer<Integer> control, Duration timeout) {
    return PUBLISH_EACH.launch(
        LaunchConfig.of(1, 1), (int) values.length(), values, control, timeout.toNanos());
  }

  /** The reference: Java's full fence for {@code __threadfence_system()}, and release stores. */
  private static void publishEachReference(KernelCall call) {
    int n = call.i32(0);
    MemorySegment values = call.memory(1, (long) Integer.BYTES * n);
    MemorySegment control = call.memory(2, (long) Integer.BYTES * 3);
    long deadline = System.nanoTime() + call.i64(3);
    for (int i = 0; i < n; i++) {
      values.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, published(i));
      VarHandle.fullFence();
      INT.setRelease(control, (long) Integer.BYTES * PUBLISHED, i + 1);
      while ((int) INT.getAcquire(control, (long) Integer.BYTES * ACKNOWLEDGED) < i + 1) {
        if (System.nanoTime() > deadline) {
          INT.setRelease(control, (long) Integer.BYTES * TIMED_OUT, 1);
          return;
        }
        Thread.onSpinWait();
      }
    }
  }
}
