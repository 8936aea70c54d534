// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuEvent;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Asynchronous scheduling (the default) with {@code executionDelay}. */
@Timeout(20)
class AsyncSchedulingTests {

  @AutoClose
  final SimFixture f = SimFixture.start(Simulator.builder().executionDelay(Duration.ofMillis(20)));

  @Test
  void settingsReportAsynchronousSchedulingAndTheDelay() {
    assertFalse(f.simulator.settings().deterministic());
    assertEquals(Duration.ofMillis(20), f.simulator.settings().executionDelay());
  }

  @Test
  void executionDelayMakesAMissingSynchronizeVisible() {
    long p = f.allocInt();
    MemorySegment host = f.driver.memAllocHost(4);
    host.set(INT, 0, -1);
    f.store(f.stream, p, 7);
    f.driver.memcpyDtoHAsync(host, p, 4, f.stream);
    assertEquals(-1, host.get(INT, 0), "read without synchronizing: stale");
    f.driver.streamSynchronize(f.stream);
    assertEquals(7, host.get(INT, 0));
  }

  @Test
  void streamAndEventQueriesAreNotReadyWhileDelayedWorkIsQueued() {
    CuEvent e = f.driver.eventCreate(0);
    f.probe(f.stream);
    f.driver.eventRecord(e, f.stream);
    assertFalse(f.driver.streamQuery(f.stream));
    assertFalse(f.driver.eventQuery(e));
    f.driver.eventSynchronize(e);
    assertTrue(f.driver.eventQuery(e));
    assertTrue(f.driver.streamQuery(f.stream));
  }

  @Test
  void perStreamOrderHoldsUnderDelay() {
    long p = f.allocInt();
    for (int digit = 1; digit <= 4; digit++) {
      f.appendDigit(f.stream, p, digit);
    }
    f.driver.streamSynchronize(f.stream);
    assertEquals(1234, f.readInt(p));
  }

  @Test
  void kernelsRunOnSimulatorThreads() {
    f.probe(f.stream);
    f.driver.streamSynchronize(f.stream);
    assertNotEquals(Thread.currentThread().getName(), f.lastProbe.get().thread());
  }
}
