// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.nccl.CapturedStep;
import cuda.graph.nccl.Communicators;
import cuda.graph.nccl.Nccl;
import cuda.graph.nccl.ReduceOp;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** One step of every GPU's work and an all-reduce, captured once per GPU and replayed together. */
public class AllReduce {

  public static void main(String[] args) {
    CudaPlatform platform = CudaPlatform.system();
    int n = 1024;
    try (Communicators world = Nccl.open(platform.devices())) { // ncclCommInitAll: rank i, GPU i
      List<DeviceBuffer<Float>> grads = world.run(c -> DeviceBuffer.zeros(ElementType.F32, n));
      world.run(c -> c.allReduce(grads.get(c.rank()), ReduceOp.SUM)); // eager, once: NCCL connects
      try (CapturedStep<@Nullable Void> step =
          world.capture(
              c ->
                  grads
                      .get(c.rank())
                      .fill(c.rank() + 1f) // the rank's kernels go here
                      .andThen(c.allReduce(grads.get(c.rank()), ReduceOp.AVERAGE)))) {
        step.replay(100); // every rank's graph, together
      }
      List<float[]> results = world.run(c -> grads.get(c.rank()).toFloatArray());
      // Two GPUs (or -Dcuda.graph.simulator.devices=2); one prints "ranks: 1, ... average 1.0".
      // prints: ranks: 2, each holds the average 1.5
      System.out.println(
          "ranks: " + world.size() + ", each holds the average " + results.getLast()[n - 1]);
      grads.forEach(DeviceBuffer::close);
    }
  }
}
