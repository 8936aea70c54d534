package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import cuda.graph.simulator.Simulator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class SaxpyExampleTests {

  static final KernelImage SAXPY_IMAGE =
      KernelImage.ptxResource(SaxpyExampleTests.class, "saxpy.ptx")
          .withReference("saxpy", call -> {
            int n = call.i32(0);
            float a = call.f32(1);
            MemorySegment x = call.memory(2, 4L * n);
            MemorySegment y = call.memory(3, 4L * n);
            for (int i = 0; i < n; i++) {
              y.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i,
                  a * x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i) + y.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i));
            }
          });

  static final Kernel SAXPY = SAXPY_IMAGE.kernel(
      "saxpy", KernelParam.I32, KernelParam.F32, KernelParam.pointer(ElementType.F32), KernelParam.pointer(ElementType.F32));

  @Test
  void saxpyRunsEndToEndAndMatchesItsJavaReference() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
        Stream stream = platform.defaultDevice().newStream()) {
      int n = 1000;
      float[] x = new float[n];
      float[] y = new float[n];
      for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = 1;
      }
      float[] result =
          DeviceOp.zip(DeviceBuffer.fromArray(x), DeviceBuffer.fromArray(y), (dx, dy) -> new DeviceBuffer[] {dx, dy})
              .then(b -> {
                @SuppressWarnings("unchecked") DeviceBuffer<Float> dx = b[0];
                @SuppressWarnings("unchecked") DeviceBuffer<Float> dy = b[1];
                return SAXPY.launch(LaunchConfig.covering(n, 256), n, 2f, dx, dy).andThen(dy.toFloatArray());
              })
              .syncOn(stream);
      float[] expected = y.clone();
      SAXPY.runReference(LaunchConfig.covering(n, 256), n, 2f, x, expected);
      assertArrayEquals(expected, result);
    }
  }
}
