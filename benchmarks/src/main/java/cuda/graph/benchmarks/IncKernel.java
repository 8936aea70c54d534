// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The anchors' kernel: {@code inc(int *counter)} adds 1; with a Java reference for the simulator.
 */
public final class IncKernel {

  public static final Kernel INC =
      KernelImage.ptxResource(IncKernel.class, "inc.ptx")
          .withReference(
              "inc",
              call -> {
                MemorySegment counter = call.memory(0, 4);
                counter.set(
                    ValueLayout.JAVA_INT_UNALIGNED,
                    0,
                    counter.get(ValueLayout.JAVA_INT_UNALIGNED, 0) + 1);
              })
          .kernel("inc", KernelParam.pointer(ElementType.I32));

  private IncKernel() {}
}
