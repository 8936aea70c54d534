// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.ModuleImage;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.LifetimeViolation;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HandleLedger}, the shared live-handle ledger, over the simulator: creation and destruction
 * counts. The simulator's own reaction to a reused handle is in {@link HandleTableTests}.
 */
@Timeout(20)
class HandleLedgerTests {

  @AutoClose final SimFixture f = SimFixture.instrumented();

  private HandleLedger ledger() {
    return f.instruments().ledger();
  }

  @Test
  void streamsAreCountedWhenCreatedAndDestroyed() {
    long created = ledger().created(HandleKind.STREAM);
    long live = ledger().live(HandleKind.STREAM);
    CuStream s = f.newStream();
    assertEquals(created + 1, ledger().created(HandleKind.STREAM));
    assertEquals(live + 1, ledger().live(HandleKind.STREAM));
    assertTrue(ledger().liveHandles(HandleKind.STREAM).contains(s));
    f.driver.streamDestroy(s);
    assertEquals(live, ledger().live(HandleKind.STREAM));
    assertFalse(ledger().liveHandles(HandleKind.STREAM).contains(s));
  }

  @Test
  void eventsAreCounted() {
    long live = ledger().live(HandleKind.EVENT);
    CuEvent e = f.driver.eventCreate(0);
    assertEquals(live + 1, ledger().live(HandleKind.EVENT));
    f.driver.eventDestroy(e);
    assertEquals(live, ledger().live(HandleKind.EVENT));
  }

  @Test
  void contextsCountRetains() {
    int device = f.driver.deviceGet(0);
    long created = ledger().created(HandleKind.CONTEXT);
    long live = ledger().live(HandleKind.CONTEXT);
    f.driver.devicePrimaryCtxRetain(device);
    assertEquals(created + 1, ledger().created(HandleKind.CONTEXT));
    assertEquals(live + 1, ledger().live(HandleKind.CONTEXT));
    f.driver.devicePrimaryCtxRelease(device);
    assertEquals(live, ledger().live(HandleKind.CONTEXT));
  }

  @Test
  void modulesAndTheirFunctionsAreCountedUntilUnload() {
    long modules = ledger().live(HandleKind.MODULE);
    long functions = ledger().live(HandleKind.FUNCTION);
    CuModule m = f.driver.moduleLoadData(ModuleImage.ptx(SimFixture.ptx("x", "y")));
    f.driver.moduleGetFunction(m, "x");
    f.driver.moduleGetFunction(m, "y");
    assertEquals(modules + 1, ledger().live(HandleKind.MODULE));
    assertTrue(ledger().live(HandleKind.FUNCTION) > functions);
    f.driver.moduleUnload(m);
    assertEquals(modules, ledger().live(HandleKind.MODULE));
    assertEquals(functions, ledger().live(HandleKind.FUNCTION));
  }

  @Test
  void graphsAndExecsAreCounted() {
    long graphs = ledger().live(HandleKind.GRAPH);
    long execs = ledger().live(HandleKind.GRAPH_EXEC);
    long p = f.allocInt();
    CuGraph captured = f.capture(() -> f.inc(f.stream, p));
    CuGraph created = f.driver.graphCreate(0);
    CuGraphExec exec = f.driver.graphInstantiate(captured, 0);
    assertEquals(graphs + 2, ledger().live(HandleKind.GRAPH));
    assertEquals(execs + 1, ledger().live(HandleKind.GRAPH_EXEC));
    f.driver.graphDestroy(captured);
    f.driver.graphDestroy(created);
    f.driver.graphExecDestroy(exec);
    assertEquals(graphs, ledger().live(HandleKind.GRAPH));
    assertEquals(execs, ledger().live(HandleKind.GRAPH_EXEC));
  }

  @Test
  void deviceMemoryCountsMemAllocAndMemAllocAsync() {
    long live = ledger().live(HandleKind.DEVICE_MEMORY);
    long a = f.driver.memAlloc(256);
    long b = f.driver.memAllocAsync(256, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(live + 2, ledger().live(HandleKind.DEVICE_MEMORY));
    f.driver.memFree(a);
    f.driver.memFreeAsync(b, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(live, ledger().live(HandleKind.DEVICE_MEMORY));
  }

  @Test
  void pinnedHostMemoryIsCounted() {
    long live = ledger().live(HandleKind.HOST_MEMORY);
    MemorySegment pinned = f.driver.memAllocHost(64);
    assertEquals(live + 1, ledger().live(HandleKind.HOST_MEMORY));
    f.driver.memFreeHost(pinned);
    assertEquals(live, ledger().live(HandleKind.HOST_MEMORY));
  }

  @Test
  void liveCountsListKindsWithLiveHandles() {
    assertEquals(1L, ledger().liveCounts().get(HandleKind.STREAM), "the fixture's stream");
    assertEquals(1L, ledger().liveCounts().get(HandleKind.MODULE), "the fixture's module");
    assertFalse(ledger().liveCounts().containsKey(HandleKind.GRAPH_EXEC));
  }

  @Test
  void destroyingAStreamTwiceIsRefusedAndNotCounted() {
    CuStream s = f.newStream();
    f.driver.streamDestroy(s);
    long destroyed = ledger().destroyed(HandleKind.STREAM);
    assertThrows(LifetimeViolation.class, () -> f.driver.streamDestroy(s));
    assertEquals(destroyed, ledger().destroyed(HandleKind.STREAM));
  }
}
