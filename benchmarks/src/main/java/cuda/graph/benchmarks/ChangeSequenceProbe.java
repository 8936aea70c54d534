// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.RecordedNode;
import cuda.graph.ScopeBody;
import cuda.graph.Stream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Replays a sequence of changes of one graph (in-place recaptures, a node replaced, switched off
 * and on) and prints, after each, which buffer the recorded node increments when the graph is
 * launched: how the provider's exec keeps a node's parameters through these changes.
 */
public final class ChangeSequenceProbe {

  private static final cuda.graph.LaunchConfig ONE = cuda.graph.LaunchConfig.of(1, 1);

  private ChangeSequenceProbe() {}

  public static void main(String[] args) {
    List<String> options = List.of(args);
    boolean observeEachStep = !options.contains("last");
    boolean early = options.contains("early");
    CudaPlatform platform = CudaPlatform.system();
    Device device = platform.defaultDevice();
    IncKernel.INC.load(device);
    try (Stream stream = device.newStream()) {
      List<DeviceBuffer<Integer>> buffers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        buffers.add(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      }
      DeviceBuffer<Integer> flag = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
      AtomicReference<RecordedNode> node = new AtomicReference<>();
      java.util.function.IntFunction<ScopeBody> shape =
          target ->
              sc -> {
                node.set(sc.recordNode(IncKernel.INC.launch(ONE, buffers.get(target))));
                sc.record(IncKernel.INC.launch(ONE, buffers.get(3)));
                GraphCondition c = sc.condition(0);
                sc.ifThen(c, then -> then.record(IncKernel.INC.launch(ONE, flag)));
              };
      try (CudaGraph<Void> graph = CudaGraph.scope(stream, shape.apply(2))) {
        String[] names = {
          "captured (2)",
          "recaptured in place (2)",
          "replaced (1)",
          "recaptured in place (0)",
          "switched off",
          "recaptured in place (0), node switched off before"
        };
        Runnable[] steps = {
          () -> {},
          () -> graph.recapture(shape.apply(2)),
          () -> graph.replaceNode(node.get(), IncKernel.INC.launch(ONE, buffers.get(1))),
          () -> graph.recapture(shape.apply(0)),
          () -> graph.setEnabled(node.get(), false),
          () -> graph.recapture(shape.apply(0))
        };
        for (int i = 0; i < steps.length; i++) {
          boolean observe = observeEachStep || i == steps.length - 1;
          int[] before = firsts(buffers, stream);
          // With "early", the observing launch is made before the step and executed after it.
          var launch = early && observe ? graph.launch() : null;
          steps[i].run();
          if (observe) {
            (launch != null ? launch : graph.launch()).syncOn(stream);
            int[] after = firsts(buffers, stream);
            int hit = -1;
            for (int b = 0; b < 3; b++) {
              if (after[b] != before[b]) {
                hit = b;
              }
            }
            System.out.println(
                options
                    + " step "
                    + i
                    + " "
                    + names[i]
                    + ": the node incremented buffer "
                    + (hit < 0 ? "none" : hit)
                    + " enabled="
                    + graph.isEnabled(node.get())
                    + " kinds="
                    + graph.nodeKinds()
                    + " "
                    + Arrays.toString(after));
          }
        }
      }
    }
  }

  private static int[] firsts(List<DeviceBuffer<Integer>> buffers, Stream stream) {
    int[] firsts = new int[buffers.size()];
    for (int i = 0; i < firsts.length; i++) {
      firsts[i] = buffers.get(i).toIntArray().syncOn(stream)[0];
    }
    return firsts;
  }
}
