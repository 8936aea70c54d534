// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.HostBuffer;
import cuda.graph.InputBinding;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.Module;
import cuda.graph.Stream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** Captures a kernel launch once and replays it on new input, by hand and as a Module. */
public class CaptureReplay {

  /** x[i] = a * x[i], compiled at run time by NVRTC on a GPU; the simulator runs scaleInJava. */
  static final Kernel SCALE =
      KernelImage.cudaSource(
              "scale.cu",
              """
              extern "C" __global__ void scale(int n, float a, float *x) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                  x[i] = a * x[i];
                }
              }
              """)
          .withReference("scale", CaptureReplay::scaleInJava)
          .kernel("scale", KernelParam.I32, KernelParam.F32, KernelParam.pointer(ElementType.F32));

  public static void main(String[] args) {
    int n = 1024;
    Device device = CudaPlatform.system().defaultDevice();
    try (Stream stream = device.newStream();
        // Allocate everything first: a capture refuses to allocate, and replays reuse addresses.
        DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, n).syncOn(stream);
        // Page-locked host memory: a copy from it is a graph node, so update() accepts it.
        HostBuffer<Float> pinnedInput = device.allocateHost(ElementType.F32, n);
        HostBuffer<Float> pinnedOutput = device.allocateHost(ElementType.F32, n)) {
      SCALE.load(device); // keep module loading out of the capture
      LaunchConfig cfg = LaunchConfig.covering(n, 256);

      // By hand: capture the launch once; per step, copy new input in, then replay.
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, SCALE.launch(cfg, n, 2f, x))) {
        float[] seen = new float[3];
        for (int step = 1; step <= 3; step++) {
          pinnedInput.set(7, (float) step); // x[7] = step, the rest 0
          graph.update(x.copyFrom(pinnedInput)); // enqueued on graph.stream(), before the launch
          graph.launch().syncOn(graph.stream()); // one cuGraphLaunch, then wait
          seen[step - 1] = x.toFloatArray().syncOn(stream)[7];
        }
        // prints: x[7] after each replay: [2.0, 4.0, 6.0]
        System.out.println("x[7] after each replay: " + Arrays.toString(seen));
        // prints: what was captured: [KERNEL]
        System.out.println("what was captured: " + graph.nodeKinds());
      }

      // The same protocol, packaged: Module.forward(input) copies the input in through the
      // binding, replays, waits, and gives the captured op's output (here pinnedOutput, a handle
      // whose data each replay recomputes) to the output function, which reads it.
      DeviceOp<HostBuffer<Float>> forward =
          SCALE.launch(cfg, n, 3f, x).andThen(x.copyTo(pinnedOutput)).map(ignored -> pinnedOutput);
      try (Module<float[], float[]> triple =
          Module.capture(
              stream,
              InputBinding.floats(pinnedInput, x), // float[n] -> pinnedInput -> x
              forward, // captured once
              HostBuffer::toFloatArray)) { // after each replay: pinnedOutput -> float[]
        float[] input = new float[n];
        Arrays.fill(input, 1.5f);
        // prints: forward(1.5, ...) = 4.5, ...
        System.out.println("forward(1.5, ...) = " + triple.forward(input)[0] + ", ...");
      }
    }
  }

  /** The kernel in Java, for the simulator: argument 0 is n, 1 is a, 2 is x. */
  static void scaleInJava(KernelCall call) {
    int n = call.i32(0);
    float a = call.f32(1);
    MemorySegment x = call.memory(2, 4L * n);
    for (int i = 0; i < n; i++) {
      x.setAtIndex(ValueLayout.JAVA_FLOAT, i, a * x.getAtIndex(ValueLayout.JAVA_FLOAT, i));
    }
  }
}
