// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.DriverCall;
import cuda.graph.spi.StreamFlags;
import cuda.graph.testkit.CallLog;
import cuda.graph.testkit.LoggedCall;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CallLog}, the shared call log, over the simulator: every call, in the order made, with its
 * arguments, status and calling thread.
 */
@Timeout(30)
class CallLogTests {

  @AutoClose final SimFixture f = SimFixture.instrumented();

  private CallLog log() {
    return f.instruments().calls();
  }

  @Test
  void recordsCallsInOrderWithTheirStatus() {
    log().clear();
    f.driver.streamCreate(StreamFlags.NON_BLOCKING);
    assertStatus(1, () -> f.driver.memAlloc(0));
    f.driver.memAlloc(4096);
    List<LoggedCall> records = log().records();
    assertEquals(
        List.of(DriverCall.STREAM_CREATE, DriverCall.MEM_ALLOC, DriverCall.MEM_ALLOC),
        records.stream().map(LoggedCall::call).toList());
    assertEquals(List.of(0, 1, 0), records.stream().map(LoggedCall::status).toList());
  }

  @Test
  void recordsTheArgumentsForReading() {
    log().clear();
    f.driver.memAlloc(4096);
    assertTrue(log().records().get(0).arguments().contains("4096"), log().records().toString());
  }

  @Test
  void recordsTheCallingThreadsName() {
    log().clear();
    f.onNewThread("call-log-worker", () -> f.driver.memAlloc(256));
    assertTrue(
        log().records().stream()
            .anyMatch(
                r -> r.call() == DriverCall.MEM_ALLOC && r.thread().equals("call-log-worker")),
        log().records().toString());
  }

  @Test
  void countsCallsOfOneEntryPoint() {
    log().clear();
    f.driver.eventCreate(0);
    f.driver.eventCreate(0);
    f.driver.memAlloc(256);
    assertEquals(2, log().count(DriverCall.EVENT_CREATE));
    assertEquals(1, log().count(DriverCall.MEM_ALLOC));
    assertEquals(0, log().count(DriverCall.GRAPH_LAUNCH));
  }

  @Test
  void clearForgetsEveryRecord() {
    f.driver.memAlloc(256);
    log().clear();
    assertEquals(List.of(), log().records());
  }

  @Test
  void disabledLogRecordsNothingUntilEnabledAgain() {
    log().clear();
    log().setEnabled(false);
    f.driver.memAlloc(256);
    assertEquals(0, log().count(DriverCall.MEM_ALLOC));
    log().setEnabled(true);
    f.driver.memAlloc(256);
    assertEquals(1, log().count(DriverCall.MEM_ALLOC));
  }

  @Test
  void logKeepsTheMostRecentRecordsUpToItsCapacity() {
    log().clear();
    for (int i = 0; i < CallLog.CAPACITY + 10; i++) {
      f.driver.deviceGetCount();
    }
    f.driver.eventCreate(0);
    List<LoggedCall> records = log().records();
    assertEquals(CallLog.CAPACITY, records.size());
    assertEquals(DriverCall.EVENT_CREATE, records.get(records.size() - 1).call());
  }
}
