// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** A WHILE node: the device doubles a value until it reaches a limit, in one launch. */
public class DeviceLoop {

  static final Kernel DOUBLE_UNTIL =
      KernelImage.cudaSource(
              "double_until.cu",
              """
              // NVRTC compiles without cuda_runtime.h: declare what the kernel uses of it (the
              // driver resolves cudaGraphSetConditional when it loads the module).
              typedef unsigned long long cudaGraphConditionalHandle;
              extern "C" __device__ void cudaGraphSetConditional(
                  cudaGraphConditionalHandle handle, unsigned int value);

              // One thread: x[0] *= 2, turns[0] += 1, and go on while x[0] < limit.
              extern "C" __global__ void double_until(
                  float *x, int *turns, float limit, cudaGraphConditionalHandle more) {
                x[0] *= 2;
                turns[0] += 1;
                cudaGraphSetConditional(more, x[0] < limit);
              }
              """)
          .withReference("double_until", DeviceLoop::doubleUntilInJava)
          .kernel(
              "double_until",
              KernelParam.pointer(ElementType.F32),
              KernelParam.pointer(ElementType.I32),
              KernelParam.F32,
              KernelParam.CONDITION); // a GraphCondition argument

  public static void main(String[] args) {
    Device device = CudaPlatform.system().defaultDevice();
    try (Stream stream = device.newStream();
        DeviceBuffer<Float> x = DeviceBuffer.fromArray(new float[] {3f}).syncOn(stream);
        DeviceBuffer<Integer> turns = DeviceBuffer.fromArray(new int[] {0}).syncOn(stream)) {
      DOUBLE_UNTIL.load(device);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition more = scope.condition(1); // each launch starts with it at 1
                scope.whileLoop(
                    more,
                    body -> // the body is recorded once, through a scope of its own
                    body.record(DOUBLE_UNTIL.launch(LaunchConfig.of(1, 1), x, turns, 100f, more)));
              })) {
        graph.launch().syncOn(stream); // one host launch; the device decides how many turns
      }
      float[] value = x.toFloatArray().syncOn(stream);
      int[] taken = turns.toIntArray().syncOn(stream);
      // prints: x = [192.0] after 6 turns
      System.out.println("x = " + Arrays.toString(value) + " after " + taken[0] + " turns");
    }
  }

  /** The kernel in Java: setCondition(3, ...) sets the condition passed as argument 3. */
  static void doubleUntilInJava(KernelCall call) {
    MemorySegment x = call.memory(0, 4);
    MemorySegment turns = call.memory(1, 4);
    float doubled = 2 * x.get(ValueLayout.JAVA_FLOAT, 0);
    x.set(ValueLayout.JAVA_FLOAT, 0, doubled);
    turns.set(ValueLayout.JAVA_INT, 0, turns.get(ValueLayout.JAVA_INT, 0) + 1);
    call.setCondition(3, doubled < call.f32(2) ? 1 : 0);
  }
}
