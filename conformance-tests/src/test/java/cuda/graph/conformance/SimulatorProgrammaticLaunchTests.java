// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ProgrammaticKernels;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link ProgrammaticLaunchContract} against the simulator, and shows what its model of
 * programmatic launch is for: a kernel that reads the results of the kernel before it before
 * synchronizing loses that kernel's increment in a graph, as it can on a GPU, instead of passing by
 * luck.
 */
class SimulatorProgrammaticLaunchTests implements ProgrammaticLaunchContract, SimulatorUnderTest {

  @Test
  void aKernelReadingBeforeItSynchronizesLosesThePreviousKernelsWriteInAGraph() {
    // The second kernel read 0 while the first, held at its trigger, had not yet written 1.
    assertArrayEquals(new int[] {1}, replayPairOnce(ProgrammaticKernels.INC_READING_TOO_EARLY));
  }

  @Test
  void theSameChainCountsBothIncrementsWhenItsKernelsSynchronizeFirst() {
    assertArrayEquals(new int[] {2}, replayPairOnce(ProgrammaticKernels.INC_TRIGGER_FIRST));
  }

  @Test
  void aKernelReadingEarlyAtTheThirdLinkOfAChainIsCaughtToo() {
    // Each kernel of the chain is the primary of the next: the third starts at the second's
    // trigger, which comes before the first has written, and reads 0 (the two increments before it
    // are lost), rather than running after the second as a pair's leftover would.
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      ProgrammaticKernels.load(stream.device());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream,
              ProgrammaticKernels.INC_TRIGGER_FIRST
                  .launch(cuda.graph.LaunchConfig.of(1, 1), counter)
                  .andThen(
                      ProgrammaticKernels.INC_TRIGGER_FIRST.launch(
                          ProgrammaticKernels.ONE_THREAD_PROGRAMMATIC, counter))
                  .andThen(
                      ProgrammaticKernels.INC_READING_TOO_EARLY.launch(
                          ProgrammaticKernels.ONE_THREAD_PROGRAMMATIC, counter)))) {
        graph.launch().syncOn(stream);
      }
      assertArrayEquals(new int[] {1}, counter.toIntArray().syncOn(stream));
    }
  }

  /** {@return the counter after one replay of a captured programmatic chain of two launches} */
  private int[] replayPairOnce(Kernel kernel) {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      ProgrammaticKernels.load(stream.device());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, ProgrammaticKernels.chain(kernel, counter, 2))) {
        graph.launch().syncOn(stream);
      }
      return counter.toIntArray().syncOn(stream);
    }
  }
}
