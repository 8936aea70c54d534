// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class SaxpyExampleTests {

  /** {@code saxpy(int n, float a, float *x, float *y)}'s Java reference: {@code y = a * x + y}. */
  static final JavaKernel SAXPY_REFERENCE =
      call -> {
        int n = call.i32(0);
        float a = call.f32(1);
        MemorySegment x = call.memory(2, 4L * n);
        MemorySegment y = call.memory(3, 4L * n);
        for (int i = 0; i < n; i++) {
          y.setAtIndex(
              ValueLayout.JAVA_FLOAT_UNALIGNED,
              i,
              a * x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                  + y.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i));
        }
      };

  static final KernelImage SAXPY_IMAGE =
      KernelImage.ptxResource(SaxpyExampleTests.class, "saxpy.ptx")
          .withReference("saxpy", SAXPY_REFERENCE);

  static final Kernel SAXPY =
      SAXPY_IMAGE.kernel(
          "saxpy",
          KernelParam.I32,
          KernelParam.F32,
          KernelParam.pointer(ElementType.F32),
          KernelParam.pointer(ElementType.F32));

  /** The first program's saxpy, run on a simulator platform. */
  @Test
  void saxpyRunsEndToEndAndMatchesItsJavaReference() {
    int n = 1000;
    float[] xs = new float[n];
    float[] ys = new float[n];
    for (int i = 0; i < n; i++) {
      xs[i] = i;
      ys[i] = 1;
    }
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> x = DeviceBuffer.fromArray(xs).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.fromArray(ys).syncOn(stream)) {
      float[] result =
          SAXPY
              .launch(LaunchConfig.covering(n, 256), n, 2f, x, y)
              .andThen(y.toFloatArray())
              .syncOn(stream);
      float[] expected = ys.clone();
      SAXPY.runReference(LaunchConfig.covering(n, 256), n, 2f, xs, expected);
      assertArrayEquals(expected, result);
      assertEquals(1 + 2f * 999, result[999]);
    }
  }
}
