// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.NodeKind;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ProgrammaticKernels;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.Collections;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Programmatic dependent launch ({@code LaunchConfig.withProgrammaticDependentLaunch()}): chains of
 * kernels that synchronize with the kernel before them before touching its results compute what the
 * same chain computes without it, on a stream and replayed from a graph, whichever of the two calls
 * a kernel makes first.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ProgrammaticLaunchContract extends ConformanceContract {

  /** The chain's length: long enough that early starts overlap many times. */
  int N = 64;

  /** Programmatic dependent launch and the kernels' PTX need compute capability 9.0. */
  private static void requireHopper(Stream stream) {
    int major = stream.device().attribute(cuda.graph.Device.Attribute.COMPUTE_CAPABILITY_MAJOR);
    org.junit.jupiter.api.Assumptions.assumeTrue(
        major >= 9,
        "programmatic dependent launch needs compute capability 9.0; this device has " + major);
  }

  /** On a stream, every increment of a programmatic chain lands, in both kernel styles. */
  @Test
  default void aProgrammaticChainOnAStreamCountsEveryIncrement() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      requireHopper(stream);
      ProgrammaticKernels.load(stream.device());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      s.driver().calls().clear();
      ProgrammaticKernels.chain(ProgrammaticKernels.INC_AFTER_WAIT, counter, N).syncOn(stream);
      ProgrammaticKernels.chain(ProgrammaticKernels.INC_TRIGGER_FIRST, counter, N).syncOn(stream);
      assertArrayEquals(new int[] {2 * N}, counter.toIntArray().syncOn(stream));
      assertEquals(
          2 * (N - 1),
          s.driver().calls().count(DriverCall.LAUNCH_KERNEL_EX),
          "every launch after the first of a chain is programmatic");
    }
  }

  /** Captured, a programmatic chain is a chain of kernel nodes that replays every increment. */
  @Test
  default void aCapturedProgrammaticChainReplaysEveryIncrement() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      requireHopper(stream);
      ProgrammaticKernels.load(stream.device());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      for (Kernel kernel :
          List.of(ProgrammaticKernels.INC_AFTER_WAIT, ProgrammaticKernels.INC_TRIGGER_FIRST)) {
        counter.fill(0).syncOn(stream);
        try (CudaGraph<@Nullable Void> graph =
            CudaGraph.capture(stream, ProgrammaticKernels.chain(kernel, counter, N))) {
          assertEquals(Collections.nCopies(N, NodeKind.KERNEL), graph.nodeKinds());
          for (int replay = 0; replay < 3; replay++) {
            graph.launch().syncOn(stream);
          }
        }
        assertArrayEquals(new int[] {3 * N}, counter.toIntArray().syncOn(stream), kernel.name());
      }
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
    }
  }
}
