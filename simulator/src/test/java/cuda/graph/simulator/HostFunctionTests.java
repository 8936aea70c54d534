// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.HandleKind;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code cuLaunchHostFunc}: spec §5 last bullet and the {@link cuda.graph.spi.HostFunction}
 * contract.
 */
@Timeout(20)
class HostFunctionTests {

  @Test
  void hostFunctionRunsAfterPrecedingWorkInItsStream() {
    try (SimFixture f =
        SimFixture.start(Simulator.builder().executionDelay(Duration.ofMillis(5)))) {
      long p = f.allocInt();
      MemorySegment pinned = f.driver.memAllocHost(4);
      pinned.set(SimFixture.INT, 0, -1);
      AtomicInteger seen = new AtomicInteger(Integer.MIN_VALUE);
      f.store(f.stream, p, 21);
      f.driver.memcpyDtoHAsync(pinned, p, 4, f.stream);
      f.driver.launchHostFunc(f.stream, () -> seen.set(pinned.get(SimFixture.INT, 0)));
      f.driver.streamSynchronize(f.stream);
      assertEquals(21, seen.get(), "the host function saw the copy that preceded it");
    }
  }

  @Test
  void hostFunctionBlocksLaterWorkInItsStreamUntilItReturns() {
    try (SimFixture f = SimFixture.start()) {
      long p = f.allocInt();
      CountDownLatch gate = f.gate();
      f.block(f.stream, gate);
      f.store(f.stream, p, 6);
      SimFixture.pause(20);
      assertFalse(f.driver.streamQuery(f.stream));
      assertEquals(0, f.readInt(p), "the kernel behind the host function has not run");
      gate.countDown();
      f.driver.streamSynchronize(f.stream);
      assertEquals(6, f.readInt(p));
    }
  }

  @Test
  void hostFunctionsAndKernelsRunInIssueOrder() {
    try (SimFixture f = SimFixture.start()) {
      List<Integer> order = Collections.synchronizedList(new ArrayList<>());
      long p = f.allocInt();
      MemorySegment pinned = f.driver.memAllocHost(4);
      for (int i = 1; i <= 4; i++) {
        f.appendDigit(f.stream, p, i);
        f.driver.memcpyDtoHAsync(pinned, p, 4, f.stream);
        f.driver.launchHostFunc(f.stream, () -> order.add(pinned.get(SimFixture.INT, 0)));
      }
      f.driver.streamSynchronize(f.stream);
      assertEquals(List.of(1, 12, 123, 1234), order);
    }
  }

  @Test
  void hostFunctionRunsOnASimulatorThreadInAsynchronousMode() {
    try (SimFixture f = SimFixture.start()) {
      AtomicReference<Thread> ranOn = new AtomicReference<>();
      f.driver.launchHostFunc(f.stream, () -> ranOn.set(Thread.currentThread()));
      f.driver.streamSynchronize(f.stream);
      assertNotEquals(Thread.currentThread(), ranOn.get());
    }
  }

  @Test
  void driverCallFromAHostFunctionFailsWithNotPermitted() {
    try (SimFixture f = SimFixture.start()) {
      AtomicInteger status = new AtomicInteger(0);
      f.driver.launchHostFunc(
          f.stream,
          () -> {
            try {
              f.driver.deviceGetCount();
            } catch (CudaDriverException e) {
              status.set(e.status());
            }
          });
      f.driver.streamSynchronize(f.stream);
      assertEquals(800, status.get());
    }
  }

  @Test
  void driverCallFromAHostFunctionFailsWithNotPermittedInDeterministicModeAndHasNoEffect() {
    try (SimFixture f = SimFixture.instrumented(Simulator.builder().deterministic(7))) {
      long allocationsBefore = f.instruments().ledger().created(HandleKind.DEVICE_MEMORY);
      AtomicInteger status = new AtomicInteger(0);
      f.driver.launchHostFunc(
          f.stream,
          () -> {
            try {
              f.driver.memAlloc(256);
            } catch (CudaDriverException e) {
              status.set(e.status());
            }
          });
      f.driver.streamSynchronize(f.stream);
      assertEquals(800, status.get());
      assertEquals(allocationsBefore, f.instruments().ledger().created(HandleKind.DEVICE_MEMORY));
    }
  }

  @Test
  void aHostFunctionThatThrowsDoesNotStopTheStream() {
    // The simulator logs the dropped exception; keep it from the console, and check it was logged.
    Logger log = Logger.getLogger("cuda.graph.simulator");
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    boolean parentHandlers = log.getUseParentHandlers();
    log.setUseParentHandlers(false);
    log.addHandler(capture);
    try (SimFixture f = SimFixture.start()) {
      long p = f.allocInt();
      f.driver.launchHostFunc(
          f.stream,
          () -> {
            throw new IllegalStateException("thrown by a test host function");
          });
      f.store(f.stream, p, 3);
      f.driver.streamSynchronize(f.stream);
      assertEquals(3, f.readInt(p));
      assertTrue(
          logged.stream().anyMatch(r -> r.getThrown() instanceof IllegalStateException),
          "the dropped exception is logged");
    } finally {
      log.removeHandler(capture);
      log.setUseParentHandlers(parentHandlers);
    }
  }
}
