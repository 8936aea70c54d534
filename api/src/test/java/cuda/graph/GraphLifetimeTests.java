// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.ref.Reference;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A captured graph, its exec and the buffers it holds go exactly when their last owner goes, and at
 * the latest when the platform closes: a launch that failed to execute gives its share back at
 * once, a failed exec destroy does not keep the graph alive, and a closed graph refuses updates.
 */
class GraphLifetimeTests {

  private static final int N = 8;
  private static final LaunchConfig CONFIG = LaunchConfig.of(1, N);

  private static CudaGraph<@Nullable Void> captureAddOne(
      Device device, Stream stream, DeviceBuffer<Integer> counter) {
    KernelFixtures.ADD_ONE.load(device);
    return CudaGraph.capture(stream, KernelFixtures.ADD_ONE.launch(CONFIG, N, counter));
  }

  @Test
  void aLaunchThatFailedToExecuteGivesItsShareOfTheGraphBackAtOnce() {
    InstrumentedDriver simulator =
        SimulatorPlatforms.instrumented(Simulator.builder().devices(2).build());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream first = platform.device(0).newStream();
        Stream second = platform.device(1).newStream();
        DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(first)) {
      CudaGraph<@Nullable Void> graph = captureAddOne(platform.device(0), first, counter);
      GraphLaunch launch = graph.launch();

      assertThrows(
          IllegalArgumentException.class,
          () -> launch.syncOn(second),
          "the graph lives on device 0, the stream on device 1");
      graph.close();

      HandleLedger ledger = simulator.ledger();
      assertEquals(
          0,
          ledger.live(HandleKind.GRAPH_EXEC),
          "the launch was used up by its failed execution: nothing waits for the collector");
      assertEquals(0, ledger.live(HandleKind.GRAPH));
      assertThrows(IllegalStateException.class, () -> launch.syncOn(first), "executes once");
      Reference.reachabilityFence(launch);
    }
  }

  @Test
  void closingThePlatformDestroysGraphsStillOwnedByAnOutstandingLaunchOrLeftOpen() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform platform = SimulatorPlatforms.over(simulator);
    Device device = platform.defaultDevice();
    Stream stream = device.newStream();
    DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    CudaGraph<@Nullable Void> closedGraph = captureAddOne(device, stream, counter);
    GraphLaunch outstanding = closedGraph.launch();
    closedGraph.close();
    CudaGraph<@Nullable Void> openGraph = captureAddOne(device, stream, counter);
    counter.close();
    stream.close();

    platform.close();

    assertEquals(
        Map.of(),
        simulator.ledger().liveCounts(),
        "no graph, exec or buffer outlives the platform: " + simulator.ledger().describeLive());
    Reference.reachabilityFence(outstanding);
    Reference.reachabilityFence(openGraph);
  }

  @Test
  void aFailedExecDestroyStillDestroysTheGraphFreesItsBuffersAndIsLogged() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
      CudaGraph<@Nullable Void> graph = captureAddOne(platform.defaultDevice(), stream, counter);
      graph.launch().syncOn(stream);
      counter.close();
      long loggedBefore = CudaPlatformImpl.of(platform).releases().failures();
      simulator.faults().failNth(DriverCall.GRAPH_EXEC_DESTROY, 1, CuResult.INVALID_VALUE);

      graph.close();

      HandleLedger ledger = simulator.ledger();
      assertEquals(
          0, ledger.live(HandleKind.GRAPH), "the graph goes though its exec's destroy failed");
      assertEquals(
          0, ledger.live(HandleKind.DEVICE_MEMORY), "the buffer the graph held is freed with it");
      assertEquals(1, ledger.live(HandleKind.GRAPH_EXEC), "a failed release is not retried");
      assertEquals(
          loggedBefore + 1,
          CudaPlatformImpl.of(platform).releases().failures(),
          "the failure is logged, as every failed release is");
      assertEquals(
          1,
          simulator.calls().count(DriverCall.GRAPH_EXEC_DESTROY),
          "tried once, at the close, and never again");
    }
  }

  @Test
  void updatingAClosedGraphIsRefusedWithAClearMessage() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      CudaGraph<@Nullable Void> graph = captureAddOne(platform.defaultDevice(), stream, counter);
      graph.close();

      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> graph.update(counter.fill(5)));

      assertTrue(e.getMessage().contains("is closed"), e.getMessage());
      assertTrue(e.getMessage().contains("update"), e.getMessage());
      assertArrayEquals(
          new int[N], counter.toIntArray().syncOn(stream), "the refused update enqueued nothing");
    }
  }
}
