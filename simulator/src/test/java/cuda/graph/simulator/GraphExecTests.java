// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.GraphInstantiateFlags;
import cuda.graph.spi.GraphNodeType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Spec §4.1–§4.3 and §4.7: building, instantiating, launching and printing graphs. */
@Timeout(20)
class GraphExecTests {

  @AutoClose final SimFixture f = SimFixture.start();

  private CuGraph storeGraph(long p, int value) {
    return f.capture(() -> f.store(f.stream, p, value));
  }

  @Test
  void graphCreateWithNonZeroFlagsReturnsInvalidValue() {
    assertStatus(1, () -> f.driver.graphCreate(1));
  }

  @Test
  void emptyGraphHasNoNodesAndInstantiatesAndLaunches() {
    CuGraph g = f.driver.graphCreate(0);
    assertEquals(List.of(), f.driver.graphGetNodes(g));
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    assertDoesNotThrow(() -> f.driver.graphLaunch(exec, f.stream));
    f.driver.streamSynchronize(f.stream);
  }

  @ParameterizedTest(name = "flags {0}")
  @ValueSource(
      longs = {
        0,
        GraphInstantiateFlags.AUTO_FREE_ON_LAUNCH,
        GraphInstantiateFlags.DEVICE_LAUNCH,
        GraphInstantiateFlags.USE_NODE_PRIORITY
      })
  void instantiateAcceptsFlags0_1_4_8(long flags) {
    CuGraph g = storeGraph(f.allocInt(), 1);
    assertDoesNotThrow(() -> f.driver.graphInstantiate(g, flags));
  }

  @ParameterizedTest(name = "flags {0}")
  @ValueSource(
      longs = {
        GraphInstantiateFlags.UPLOAD,
        GraphInstantiateFlags.AUTO_FREE_ON_LAUNCH | GraphInstantiateFlags.DEVICE_LAUNCH,
        0x100
      })
  void instantiateRejectsUploadAutoFreeWithDeviceLaunchAndUnknownBits(long flags) {
    CuGraph g = storeGraph(f.allocInt(), 1);
    assertStatus(1, () -> f.driver.graphInstantiate(g, flags));
  }

  @Test
  void oneGraphCanHaveManyExecs() {
    long p = f.allocInt();
    CuGraph g = f.capture(() -> f.inc(f.stream, p));
    CuGraphExec a = f.driver.graphInstantiate(g, 0);
    CuGraphExec b = f.driver.graphInstantiate(g, 0);
    assertNotEquals(a, b);
    f.driver.graphLaunch(a, f.stream);
    f.driver.graphLaunch(b, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(2, f.readInt(p));
  }

  @Test
  void execSurvivesDestroyOfItsSourceGraph() {
    long p = f.allocInt();
    CuGraph g = storeGraph(p, 42);
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphDestroy(g);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(42, f.readInt(p));
  }

  @Test
  void execReplaysItsWorkOnEveryLaunch() {
    long p = f.allocInt();
    CuGraphExec exec = f.driver.graphInstantiate(f.capture(() -> f.inc(f.stream, p)), 0);
    for (int i = 0; i < 3; i++) {
      f.driver.graphLaunch(exec, f.stream);
    }
    f.driver.streamSynchronize(f.stream);
    assertEquals(3, f.readInt(p));
  }

  @Test
  void execLaunchesIntoTheNullStreamAnyStreamAndItsCaptureStream() {
    long p = f.allocInt();
    CuGraphExec exec = f.driver.graphInstantiate(f.capture(() -> f.inc(f.stream, p)), 0);
    CuStream other = f.newStream();
    f.driver.graphLaunch(exec, CuStream.NULL);
    f.driver.streamSynchronize(CuStream.NULL);
    f.driver.graphLaunch(exec, other);
    f.driver.streamSynchronize(other);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(3, f.readInt(p));
  }

  @Test
  void graphUploadSucceedsAndTheExecLaunchesAfterwards() {
    long p = f.allocInt();
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(p, 3), 0);
    assertDoesNotThrow(() -> f.driver.graphUpload(exec, f.stream));
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(3, f.readInt(p));
  }

  /** A graph of one host node that counts invocations and blocks until {@code gate} opens. */
  private CuGraph blockingHostGraph(
      CountDownLatch gate, AtomicInteger started, AtomicInteger running, AtomicInteger maxRunning) {
    return f.capture(
        () ->
            f.driver.launchHostFunc(
                f.stream,
                () -> {
                  started.incrementAndGet();
                  maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                  SimFixture.await(gate);
                  running.decrementAndGet();
                }));
  }

  @Test
  void launchesOfOneExecSerializeAcrossTwoStreams() {
    CountDownLatch gate = f.gate();
    AtomicInteger started = new AtomicInteger();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    CuGraphExec exec =
        f.driver.graphInstantiate(blockingHostGraph(gate, started, running, maxRunning), 0);
    CuStream a = f.stream;
    CuStream b = f.newStream();
    f.driver.graphLaunch(exec, a);
    f.driver.graphLaunch(exec, b);
    SimFixture.waitUntil("the first launch started", () -> started.get() >= 1);
    SimFixture.pause(30);
    assertEquals(1, started.get(), "the second launch waits for the first");
    gate.countDown();
    f.driver.streamSynchronize(a);
    f.driver.streamSynchronize(b);
    assertEquals(2, started.get());
    assertEquals(1, maxRunning.get());
  }

  @Test
  void twoExecsOfOneGraphRunConcurrentlyOnTwoStreams() {
    CountDownLatch gate = f.gate();
    AtomicInteger started = new AtomicInteger();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    CuGraph g = blockingHostGraph(gate, started, running, maxRunning);
    CuGraphExec first = f.driver.graphInstantiate(g, 0);
    CuGraphExec second = f.driver.graphInstantiate(g, 0);
    CuStream b = f.newStream();
    f.driver.graphLaunch(first, f.stream);
    f.driver.graphLaunch(second, b);
    SimFixture.waitUntil("both launches started", () -> started.get() == 2);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    f.driver.streamSynchronize(b);
    assertEquals(2, maxRunning.get());
  }

  @Test
  void destroyOfAnInFlightExecReturnsAtOnceAndTheLaunchCompletes() {
    long p = f.allocInt();
    CountDownLatch gate = f.gate();
    CuGraph g =
        f.capture(
            () -> {
              f.block(f.stream, gate);
              f.store(f.stream, p, 17);
            });
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.graphExecDestroy(exec);
    assertEquals(1, gate.getCount(), "graphExecDestroy did not wait for the launch");
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertEquals(17, f.readInt(p));
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphLaunch(exec, f.stream));
  }

  @Test
  void graphLaunchIntoACapturingStreamReturns900AndInvalidates() {
    long p = f.allocInt();
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(p, 1), 0);
    CuStream capturing = f.newStream();
    f.driver.streamBeginCapture(capturing, CaptureMode.RELAXED);
    assertStatus(900, () -> f.driver.graphLaunch(exec, capturing));
    assertEquals(CaptureStatus.INVALIDATED, f.status(capturing));
    assertStatus(901, () -> f.driver.streamEndCapture(capturing));
  }

  @Test
  void graphNodesAreListedInCreationOrder() {
    long p = f.allocZeroed(256);
    long q = f.allocZeroed(256);
    var host = f.driver.memAllocHost(16);
    CuGraph g =
        f.capture(
            () -> {
              f.driver.memsetD8Async(p, (byte) 0, 16, f.stream);
              f.inc(f.stream, p);
              f.driver.memcpyDtoDAsync(q, p, 16, f.stream);
              f.driver.memcpyDtoHAsync(host, q, 16, f.stream);
            });
    assertEquals(
        List.of(
            GraphNodeType.MEMSET, GraphNodeType.KERNEL, GraphNodeType.MEMCPY, GraphNodeType.MEMCPY),
        f.nodeTypes(g));
  }

  @Test
  void debugDotPrintWritesAGraphvizFile(@TempDir Path dir) throws IOException {
    long p = f.allocInt();
    CuGraph g =
        f.capture(
            () -> {
              f.inc(f.stream, p);
              f.inc(f.stream, p);
            });
    Path file = dir.resolve("graph.dot");
    f.driver.graphDebugDotPrint(g, file, 0);
    assertTrue(Files.exists(file));
    String dot = Files.readString(file);
    assertTrue(dot.contains("digraph"), dot);
    assertTrue(dot.contains("->"), "two chained nodes give an edge: " + dot);
  }

  @Test
  void debugDotPrintToAnUnwritablePathReturns304(@TempDir Path dir) {
    CuGraph g = f.driver.graphCreate(0);
    Path file = dir.resolve("no/such/directory/graph.dot");
    assertStatus(304, () -> f.driver.graphDebugDotPrint(g, file, 0));
  }
}
