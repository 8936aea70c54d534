// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Simulator.Builder#reuseHandleValues}: a destroyed object's handle value is handed out
 * again for the next object of its kind, as the real driver does, so a stale handle can name a new
 * object.
 */
@Timeout(20)
class HandleValueReuseTests {

  @AutoClose final SimFixture f = SimFixture.start(Simulator.builder().reuseHandleValues(true));

  @Test
  void theSettingsSayWhetherValuesAreReused() {
    assertTrue(f.simulator.settings().reusesHandleValues());
    assertFalse(Simulator.create().settings().reusesHandleValues());
  }

  @Test
  void aDestroyedGraphsValueGoesToTheNextGraph() {
    CuGraph first = f.driver.graphCreate(0);
    f.driver.graphDestroy(first);

    assertEquals(first, f.driver.graphCreate(0));
  }

  @Test
  void theGraphACaptureRecordsIntoTakesTheValueOfAGraphDestroyedBefore() {
    CuGraph destroyed = f.driver.graphCreate(0);
    f.driver.graphDestroy(destroyed);

    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertEquals(destroyed, f.driver.streamGetCaptureInfo(f.stream).graph());
    f.driver.graphDestroy(f.driver.streamEndCapture(f.stream));
  }

  @Test
  void theValueFreedLastIsHandedOutFirstAndOnlyToItsOwnKind() {
    CuGraph a = f.driver.graphCreate(0);
    CuGraph b = f.driver.graphCreate(0);
    f.driver.graphDestroy(a);
    f.driver.graphDestroy(b);

    CuEvent event = f.driver.eventCreate(0);
    assertNotEquals(a.address(), event.address(), "an event never takes a graph's value");
    assertNotEquals(b.address(), event.address(), "an event never takes a graph's value");
    assertEquals(b, f.driver.graphCreate(0));
    assertEquals(a, f.driver.graphCreate(0));
    f.driver.eventDestroy(event);
  }

  @Test
  void aStaleHandleWhoseValueWasHandedOutAgainNamesTheNewObject() {
    long p = f.allocInt();
    CuStream stale = f.newStream();
    f.driver.streamDestroy(stale);
    CuStream fresh = f.newStream();
    assertEquals(stale, fresh);

    f.inc(stale, p); // the hazard: on the real driver this runs on the new stream too
    f.driver.streamSynchronize(fresh);
    assertEquals(1, f.readInt(p));
  }

  @Test
  void aDestroyedValueNotHandedOutAgainIsStillUndefinedBehaviour() {
    CuStream s = f.newStream();
    f.driver.streamDestroy(s);

    UndefinedBehaviorException e =
        assertThrows(UndefinedBehaviorException.class, () -> f.driver.streamSynchronize(s));
    assertTrue(e.getMessage().contains("was destroyed by cuStreamDestroy"), e.getMessage());
  }

  @Test
  void theNodesOfADestroyedGraphGiveTheirValuesToLaterNodes() {
    long p = f.allocInt();
    CuGraph old = f.capture(() -> f.inc(f.stream, p));
    List<CuGraphNode> oldNodes = f.driver.graphGetNodes(old);
    f.driver.graphDestroy(old);

    CuGraph next = f.capture(() -> f.inc(f.stream, p));
    assertEquals(old, next);
    assertEquals(oldNodes, f.driver.graphGetNodes(next));
    f.driver.graphDestroy(next);
  }

  @Test
  void withoutTheModeNoValueIsHandedOutTwice() {
    try (SimFixture plain = SimFixture.start()) {
      CudaDriver driver = plain.driver;
      CuGraph first = driver.graphCreate(0);
      driver.graphDestroy(first);
      CuGraph second = driver.graphCreate(0);
      assertNotEquals(first, second);
      assertThrows(UndefinedBehaviorException.class, () -> driver.graphDestroy(first));
      driver.graphDestroy(second);
    }
  }
}
