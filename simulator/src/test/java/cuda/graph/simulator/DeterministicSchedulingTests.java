// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Simulator.Builder.deterministic(seed)}: no simulator threads; queued work runs on the
 * calling thread, a seeded random amount at each driver call and fully when the caller waits.
 */
@Timeout(30)
class DeterministicSchedulingTests {

  /**
   * Issues host functions to two streams, marking in the same list where the caller was after each
   * driver call, and returns the observed interleaving.
   */
  private static List<String> interleaving(long seed) {
    try (SimFixture f = SimFixture.start(Simulator.builder().deterministic(seed))) {
      List<String> log = new ArrayList<>();
      CuStream a = f.stream;
      CuStream b = f.newStream();
      for (int i = 0; i < 12; i++) {
        String n = Integer.toString(i);
        f.driver.launchHostFunc(a, () -> log.add("a" + n));
        log.add("call");
        f.driver.launchHostFunc(b, () -> log.add("b" + n));
        log.add("call");
      }
      f.driver.streamSynchronize(a);
      f.driver.streamSynchronize(b);
      return List.copyOf(log);
    }
  }

  @Test
  void sameSeedAndSameCallsGiveTheSameInterleaving() {
    for (long seed : new long[] {0, 1, 42, 123456789}) {
      assertEquals(interleaving(seed), interleaving(seed), "seed " + seed);
    }
  }

  @Test
  void differentSeedsGiveDifferentInterleavings() {
    Set<List<String>> seen = new HashSet<>();
    for (long seed = 0; seed < 20; seed++) {
      seen.add(interleaving(seed));
    }
    assertTrue(seen.size() > 1, "20 seeds all produced the same interleaving");
  }

  @Test
  void everyInterleavingKeepsEachStreamInIssueOrderAndRunsEverything() {
    for (long seed = 0; seed < 10; seed++) {
      List<String> log = interleaving(seed);
      List<String> a = log.stream().filter(s -> s.startsWith("a")).toList();
      List<String> b = log.stream().filter(s -> s.startsWith("b")).toList();
      List<String> expectedA = new ArrayList<>();
      List<String> expectedB = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        expectedA.add("a" + i);
        expectedB.add("b" + i);
      }
      assertEquals(expectedA, a, "seed " + seed);
      assertEquals(expectedB, b, "seed " + seed);
    }
  }

  @Test
  void hostFunctionsRunOnTheCallingThread() {
    try (SimFixture f = SimFixture.start(Simulator.builder().deterministic(3))) {
      AtomicReference<Thread> ranOn = new AtomicReference<>();
      f.driver.launchHostFunc(f.stream, () -> ranOn.set(Thread.currentThread()));
      f.driver.streamSynchronize(f.stream);
      assertSame(Thread.currentThread(), ranOn.get());
    }
  }

  @Test
  void kernelsRunOnTheCallingThread() {
    try (SimFixture f = SimFixture.start(Simulator.builder().deterministic(3))) {
      f.probe(f.stream);
      f.driver.streamSynchronize(f.stream);
      assertEquals(Thread.currentThread().getName(), f.lastProbe.get().thread());
    }
  }

  @Test
  void aMissingSynchronizeIsVisibleForSomeSeedAndSynchronizeAlwaysFixesIt() {
    int stale = 0;
    for (long seed = 0; seed < 40; seed++) {
      try (SimFixture f = SimFixture.start(Simulator.builder().deterministic(seed))) {
        long p = f.allocInt();
        MemorySegment host = f.driver.memAllocHost(4);
        host.set(INT, 0, -1);
        for (int i = 0; i < 10; i++) {
          f.inc(f.stream, p);
        }
        f.driver.memcpyDtoHAsync(host, p, 4, f.stream);
        if (host.get(INT, 0) != 10) {
          stale++;
        }
        f.driver.streamSynchronize(f.stream);
        assertEquals(10, host.get(INT, 0), "seed " + seed);
      }
    }
    assertTrue(stale > 0, "reading without synchronizing never showed stale data in 40 seeds");
  }
}
