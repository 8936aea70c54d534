// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A stream that captures is the capture's alone: other threads' work waits for the capture to end.
 * The capturing thread itself never waits for its own capture: what it does to the stream inside
 * the capture is reported by the driver, as it was before the stream had a gate.
 */
class CapturingStreamGateTests extends InstrumentedPlatformFixture {

  @Test
  void synchronizingTheCapturingStreamInsideItsOwnCaptureFailsInsteadOfWaitingForItself() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () ->
            assertThrows(
                CudaDriverError.class, () -> CudaGraph.scope(stream, sc -> stream.synchronize())));
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () ->
            assertThrows(
                CudaDriverError.class, () -> CudaGraph.scope(stream, sc -> stream.isIdle())));
    // The stream left capture mode and takes work again.
    DeviceBuffer<Integer> x = DeviceBuffer.fromArray(new int[] {1, 2}).syncOn(stream);
    try (CudaGraph<?> graph = CudaGraph.scope(stream, sc -> sc.record(x.fill(5)))) {
      graph.launch().syncOn(stream);
    }
    assertArrayEquals(new int[] {5, 5}, x.toIntArray().syncOn(stream));
    x.close();
  }
}
