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
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The kernels the contracts launch, the same on every provider: PTX generated from {@code
 * src/main/cuda/conformance_kernels.cu} (for {@code compute_90}) for a GPU, with Java references
 * that compute bit for bit what the PTX computes, for the simulator and as the tests' CPU model.
 *
 * <ul>
 *   <li>{@code inc(int n, int *counter)}: {@code counter[i] += 1} for {@code i < n};
 *   <li>{@code saxpy(int n, float a, const float *x, float *y)}: {@code y[i] = fma(a, x[i], y[i])};
 *   <li>{@code dense(int in, int out, const float *w, const float *b, const float *x, float *y, int
 *       relu)}: {@code y[j] = b[j] + sum_k w[j * in + k] * x[k]} (fused multiply-adds in order of
 *       {@code k}), clamped at 0 when {@code relu != 0};
 *   <li>{@code inc_staged(int n, int *counter)}: what {@code inc} does, through {@value
 *       #INC_STAGED_STATIC_SHARED_BYTES} bytes of static shared memory ({@code __shared__ int
 *       staged[1024]}, passed between the threads of a block); one-dimensional blocks.
 * </ul>
 *
 * <p>Every launch helper covers its elements with blocks of {@value #BLOCK} threads.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ConformanceKernels {

  /** Threads per block of every launch made by this class. */
  public static final int BLOCK = 32;

  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

  /** The image: PTX for a GPU plus the Java references the simulator runs. */
  public static final KernelImage IMAGE =
      KernelImage.ptx(KitPtx.read("conformance_kernels.ptx"))
          .withReference("inc", ConformanceKernels::incReference)
          .withReference("saxpy", ConformanceKernels::saxpyReference)
          .withReference("dense", ConformanceKernels::denseReference)
          .withReference("inc_staged", ConformanceKernels::incReference);

  /** {@code inc(int n, int *counter)}. */
  public static final Kernel INC =
      IMAGE.kernel("inc", KernelParam.I32, KernelParam.pointer(ElementType.I32));

  /** {@code saxpy(int n, float a, const float *x, float *y)}. */
  public static final Kernel SAXPY =
      IMAGE.kernel(
          "saxpy",
          KernelParam.I32,
          KernelParam.F32,
          KernelParam.pointer(ElementType.F32),
          KernelParam.pointer(ElementType.F32));

  /**
   * {@code dense(int in, int out, const float *w, const float *b, const float *x, float *y, int
   * relu)}.
   */
  public static final Kernel DENSE =
      IMAGE.kernel(
          "dense",
          KernelParam.I32,
          KernelParam.I32,
          KernelParam.pointer(ElementType.F32),
          KernelParam.pointer(ElementType.F32),
          KernelParam.pointer(ElementType.F32),
          KernelParam.pointer(ElementType.F32),
          KernelParam.I32);

  /**
   * The static shared memory {@link #INC_STAGED} declares: a block of it has this much beside the
   * dynamic shared memory of its launch (the driver may report more, never less).
   *
   * @since 0.2.0
   */
  public static final int INC_STAGED_STATIC_SHARED_BYTES = 4096;

  /**
   * {@code inc_staged(int n, int *counter)}: {@link #INC} through {@value
   * #INC_STAGED_STATIC_SHARED_BYTES} bytes of static shared memory.
   *
   * @since 0.2.0
   */
  public static final Kernel INC_STAGED =
      IMAGE.kernel("inc_staged", KernelParam.I32, KernelParam.pointer(ElementType.I32));

  private ConformanceKernels() {}

  /**
   * Loads the image on {@code device} now, so that no capture has to load a module.
   *
   * @param device the device whose context loads {@link #IMAGE}
   */
  public static void load(Device device) {
    INC.load(device);
  }

  /**
   * {@return a graph node that adds 1 to every element of {@code counter}}
   *
   * @param counter the buffer incremented in place; at most {@link Integer#MAX_VALUE} elements
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> inc(DeviceBuffer<Integer> counter) {
    int n = Math.toIntExact(counter.length());
    return INC.launch(LaunchConfig.covering(n, BLOCK), n, counter);
  }

  /**
   * {@return a graph node that sets {@code y = a * x + y} elementwise; x and y have one length}
   *
   * @param a the scale of {@code x}
   * @param x the buffer read
   * @param y the buffer read and overwritten with the result
   * @throws IllegalArgumentException if {@code x} and {@code y} differ in length
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> saxpy(
      float a, DeviceBuffer<Float> x, DeviceBuffer<Float> y) {
    if (x.length() != y.length()) {
      throw new IllegalArgumentException(
          "saxpy needs x and y of one length, got " + x + " and " + y);
    }
    int n = Math.toIntExact(y.length());
    return SAXPY.launch(LaunchConfig.covering(n, BLOCK), n, a, x, y);
  }

  /**
   * {@return a graph node that computes one dense layer {@code y = w x + b}, then ReLU if asked}:
   * {@code w} is row-major, {@code y.length()} rows of {@code x.length()} columns
   *
   * @param w the weights, {@code y.length() * x.length()} elements
   * @param b the biases, {@code y.length()} elements
   * @param x the layer's input
   * @param y the layer's output, overwritten
   * @param relu whether negative outputs are clamped to 0
   * @throws IllegalArgumentException if {@code w} or {@code b} does not fit {@code x} and {@code y}
   */
  @CheckReturnValue
  public static GraphNode<@Nullable Void> dense(
      DeviceBuffer<Float> w,
      DeviceBuffer<Float> b,
      DeviceBuffer<Float> x,
      DeviceBuffer<Float> y,
      boolean relu) {
    int in = Math.toIntExact(x.length());
    int out = Math.toIntExact(y.length());
    if (w.length() != (long) in * out || b.length() != out) {
      throw new IllegalArgumentException(
          "dense "
              + in
              + " -> "
              + out
              + " needs "
              + (long) in * out
              + " weights and "
              + out
              + " biases, got "
              + w
              + " and "
              + b);
    }
    return DENSE.launch(LaunchConfig.covering(out, BLOCK), in, out, w, b, x, y, relu ? 1 : 0);
  }

  // ---- the Java models, on arrays

  /**
   * Adds 1 to every element of {@code counter}, as {@link #inc} does on the device.
   *
   * @param counter the array incremented in place
   */
  public static void inc(int[] counter) {
    for (int i = 0; i < counter.length; i++) {
      counter[i] += 1;
    }
  }

  /**
   * Computes {@code y = a * x + y} in place, as {@link #saxpy} does on the device.
   *
   * @param a the scale of {@code x}
   * @param x the array read; at least {@code y.length} elements
   * @param y the array read and overwritten with the result
   */
  public static void saxpy(float a, float[] x, float[] y) {
    for (int i = 0; i < y.length; i++) {
      y[i] = Math.fma(a, x[i], y[i]);
    }
  }

  /**
   * {@return one dense layer of {@code x}, as {@link #dense} computes it on the device}: a new
   * array of {@code b.length} elements
   *
   * @param w the weights, row-major: {@code b.length} rows of {@code x.length} columns
   * @param b the biases, one per output
   * @param x the layer's input
   * @param relu whether negative outputs are clamped to 0
   */
  public static float[] dense(float[] w, float[] b, float[] x, boolean relu) {
    float[] y = new float[b.length];
    for (int j = 0; j < y.length; j++) {
      float s = b[j];
      for (int k = 0; k < x.length; k++) {
        s = Math.fma(w[j * x.length + k], x[k], s);
      }
      y[j] = relu && s < 0f ? 0f : s;
    }
    return y;
  }

  // ---- the references the simulator runs: one call per launch, over the threads it has

  private static int threads(KernelCall call, int n) {
    return (int) Math.min(n, call.threadCount());
  }

  private static void incReference(KernelCall call) {
    int n = call.i32(0);
    MemorySegment counter = call.memory(1, 4L * n);
    for (int i = 0, end = threads(call, n); i < end; i++) {
      counter.setAtIndex(INT, i, counter.getAtIndex(INT, i) + 1);
    }
  }

  private static void saxpyReference(KernelCall call) {
    int n = call.i32(0);
    float a = call.f32(1);
    MemorySegment x = call.memory(2, 4L * n);
    MemorySegment y = call.memory(3, 4L * n);
    for (int i = 0, end = threads(call, n); i < end; i++) {
      y.setAtIndex(FLOAT, i, Math.fma(a, x.getAtIndex(FLOAT, i), y.getAtIndex(FLOAT, i)));
    }
  }

  private static void denseReference(KernelCall call) {
    int in = call.i32(0);
    int out = call.i32(1);
    MemorySegment w = call.memory(2, 4L * in * out);
    MemorySegment b = call.memory(3, 4L * out);
    MemorySegment x = call.memory(4, 4L * in);
    MemorySegment y = call.memory(5, 4L * out);
    boolean relu = call.i32(6) != 0;
    for (int j = 0, end = threads(call, out); j < end; j++) {
      float s = b.getAtIndex(FLOAT, j);
      for (int k = 0; k < in; k++) {
        s = Math.fma(w.getAtIndex(FLOAT, (long) j * in + k), x.getAtIndex(FLOAT, k), s);
      }
      y.setAtIndex(FLOAT, j, relu && s < 0f ? 0f : s);
    }
  }
}
