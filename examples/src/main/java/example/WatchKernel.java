// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.KernelCall;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.MappedHostBuffer;
import cuda.graph.Stream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/** Java reads what a kernel publishes into mapped host memory while the kernel runs. */
public class WatchKernel {

  static final Kernel SQUARES =
      KernelImage.cudaSource(
              "squares.cu",
              """
              // One thread: values[i] = i * i, each published by the count control[0].
              extern "C" __global__ void squares(int n, int *values, int *control) {
                for (int i = 0; i < n; i++) {
                  values[i] = i * i;                      // the data
                  __threadfence_system();                 // before the counter, for the host
                  *(volatile int *)&control[0] = i + 1;   // publishes value i
                }
              }
              """)
          .withReference("squares", WatchKernel::squaresInJava)
          .kernel(
              "squares",
              KernelParam.I32,
              KernelParam.pointer(ElementType.I32),
              KernelParam.pointer(ElementType.I32));

  public static void main(String[] args) {
    int n = 8;
    Device device = CudaPlatform.system().defaultDevice();
    try (Stream stream = device.newStream();
        MappedHostBuffer<Integer> values = device.allocateMapped(ElementType.I32, n);
        MappedHostBuffer<Integer> control = device.allocateMapped(ElementType.I32, 1)) {
      control.write(new int[1]); // nothing published yet
      CompletableFuture<?> run =
          SQUARES
              .launch(LaunchConfig.of(1, 1), n, values.deviceView(), control.deviceView())
              .asyncOn(stream); // returns at once; the kernel runs
      int[] received = new int[n];
      for (int seen = 0; seen < n; ) {
        int published = control.getIntAcquire(0); // acquire: the data before it is visible
        for (; seen < published; seen++) {
          received[seen] = values.getIntAcquire(seen); // while the kernel may still run
        }
        Thread.onSpinWait();
      }
      run.join();
      // prints: received [0, 1, 4, 9, 16, 25, 36, 49]
      System.out.println("received " + Arrays.toString(received));
    }
  }

  private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

  /** The kernel in Java: a full fence for __threadfence_system(), a release store to publish. */
  static void squaresInJava(KernelCall call) {
    int n = call.i32(0);
    MemorySegment values = call.memory(1, 4L * n);
    MemorySegment control = call.memory(2, 4);
    for (int i = 0; i < n; i++) {
      values.setAtIndex(ValueLayout.JAVA_INT, i, i * i);
      VarHandle.fullFence();
      INT.setRelease(control, 0L, i + 1);
    }
  }
}
