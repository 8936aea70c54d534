// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example.saxpy;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;

/** y = a * x + y on the GPU (or the simulator), checked against the same loop in Java. */
public final class Saxpy {

  static final Kernel SAXPY =
      KernelImage.ptxResource(MethodHandles.lookup(), "saxpy.ptx") // next to this class
          .withReference("saxpy", Saxpy::saxpyInJava) // what the simulator runs
          .kernel(
              "saxpy",
              KernelParam.I32,
              KernelParam.F32,
              KernelParam.pointer(ElementType.F32),
              KernelParam.pointer(ElementType.F32));

  public static void main(String[] args) {
    int n = 1 << 20;
    float[] xs = new float[n];
    float[] ys = new float[n];
    for (int i = 0; i < n; i++) {
      xs[i] = i;
      ys[i] = 1;
    }
    CudaPlatform platform = CudaPlatform.system(); // the GPU if there is one, else the simulator
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> x = DeviceBuffer.fromArray(xs).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.fromArray(ys).syncOn(stream)) {
      float[] result =
          SAXPY
              .launch(LaunchConfig.covering(n, 256), n, 2f, x, y) // checked against the declaration
              .andThen(y.toFloatArray()) // same stream, so it sees the kernel's result
              .syncOn(stream); // runs, waits, returns
      System.out.println(
          "saxpy of "
              + n
              + " floats on "
              + platform.defaultDevice().name()
              + ": y[7] = "
              + result[7]);
    }
  }

  /** The kernel in Java: {@code y[i] = a * x[i] + y[i]} for {@code i < n}. */
  static void saxpyInJava(KernelCall call) {
    int n = call.i32(0);
    float a = call.f32(1);
    MemorySegment x = call.memory(2, 4L * n);
    MemorySegment y = call.memory(3, 4L * n);
    for (int i = 0; i < n; i++) {
      float xi = x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
      float yi = y.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
      y.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, a * xi + yi);
    }
  }
}
