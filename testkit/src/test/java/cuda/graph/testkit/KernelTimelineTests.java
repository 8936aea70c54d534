// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelTimeline} on buffers written here as kernel_trace.cuh writes them on a GPU (the
 * simulator's kernels are Java references and record nothing).
 */
class KernelTimelineTests {

  /** A record: grid, kernel, sm, block, start, waited, end. */
  private record R(long grid, int kernel, int sm, long block, long start, long waited, long end) {}

  private static long[] buffer(int capacity, long appended, R... records) {
    long[] words = new long[(int) KernelTimeline.words(capacity)];
    words[0] = appended;
    words[1] = capacity;
    for (int i = 0; i < records.length; i++) {
      R r = records[i];
      int at = KernelTimeline.HEADER_WORDS + i * KernelTimeline.RECORD_WORDS;
      words[at] = r.grid();
      words[at + 1] = ((long) r.kernel() << 32) | r.sm();
      words[at + 2] = r.start();
      words[at + 3] = r.waited();
      words[at + 4] = r.end();
      words[at + 5] = r.block();
    }
    return words;
  }

  private static long[] buffer(R... records) {
    return buffer(records.length + 2, records.length, records);
  }

  /**
   * A replay of three launches, recorded out of order: kernel 4 (grid 9) starts at 1,000 and ends
   * at 3,000; kernel 7 (grid 3) starts two blocks early, at 1,500 and 2,500, passes its wait at
   * 3,400 and ends at 6,000; kernel 2 (grid 5) never waits, starts at 6,500 and ends at 7,000.
   */
  private static long[] threeLaunches() {
    return buffer(
        new R(3, 7, 1, 1, 2_500, 3_600, 5_000),
        new R(9, 4, 0, 0, 1_000, 1_200, 3_000),
        new R(5, 2, 3, 0, 6_500, 0, 7_000),
        new R(3, 7, 2, 0, 1_500, 3_400, 6_000),
        new R(9, 4, 5, 1, 1_100, 1_300, 2_800));
  }

  @Test
  void launchesAreOrderedByTheirFirstStartWithTheirOwnBlocks() {
    KernelTimeline t = KernelTimeline.read(threeLaunches());

    assertEquals(
        List.of(4, 7, 2), t.launches().stream().map(KernelTimeline.Launch::kernel).toList());
    assertEquals(
        List.of(9L, 3L, 5L), t.launches().stream().map(KernelTimeline.Launch::grid).toList());
    KernelTimeline.Launch second = t.launches().get(1);
    assertEquals(1_500, second.startNs());
    assertEquals(3_400, second.releaseNs());
    assertEquals(6_000, second.endNs());
    assertEquals(new KernelTimeline.Block(1, 1, 2_500, 3_600, 5_000), second.blocks().getFirst());
  }

  @Test
  void handoffsAndWorkTileTheReplayAndEarlyIsTheMedianBlocksLead() {
    KernelTimeline t = KernelTimeline.read(threeLaunches());
    List<KernelTimeline.Step> s = t.steps();

    // The first launch: released at its wait, 200 after its start.
    assertEquals(200, s.get(0).handoffNs());
    assertEquals(1_800, s.get(0).workNs());
    // The second: from the first's end (3,000) to its wait's return (3,400), then to 6,000; its
    // median block (the later of two) started 500 before the first ended.
    assertEquals(400, s.get(1).handoffNs());
    assertEquals(2_600, s.get(1).workNs());
    assertEquals(500, s.get(1).earlyNs());
    // The third never waited: released at its start.
    assertEquals(500, s.get(2).handoffNs());
    assertEquals(500, s.get(2).workNs());
    assertEquals(-500, s.get(2).earlyNs());
    assertEquals(7_000 - 1_000, t.spanNs());
  }

  @Test
  void aLaunchEndingInsideAnEarlierOneAddsNoWorkAndTheNextIsMeasuredFromTheLaterEnd() {
    KernelTimeline t =
        KernelTimeline.read(
            buffer(
                new R(1, 0, 0, 0, 0, 100, 5_000),
                new R(2, 1, 0, 0, 1_000, 0, 2_000),
                new R(3, 2, 0, 0, 4_000, 5_600, 6_000)));

    assertEquals(0, t.steps().get(1).handoffNs());
    assertEquals(0, t.steps().get(1).workNs());
    assertEquals(
        600, t.steps().get(2).handoffNs(), "from the first launch's end, not the second's");
    assertEquals(400, t.steps().get(2).workNs());
    assertEquals(1_000, t.steps().get(2).earlyNs());
    assertEquals(6_000, t.spanNs());
  }

  @Test
  void noRecordsReadAsAnEmptyTimeline() {
    KernelTimeline t = KernelTimeline.read(new long[(int) KernelTimeline.words(4)]);

    assertTrue(t.launches().isEmpty());
    assertEquals(0, t.spanNs());
  }

  @Test
  void droppedRecordsAreRefusedWithTheCapacityToGive() {
    long[] words = buffer(2, 5, new R(1, 0, 0, 0, 0, 0, 1), new R(1, 0, 0, 1, 0, 0, 1));

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KernelTimeline.read(words));
    assertTrue(e.getMessage().contains("5 records appended, 2 kept"), e.getMessage());
  }

  @Test
  void aBufferShorterThanItsCapacityOrALaunchOfTwoKernelsIsRefused() {
    long[] words = buffer(new R(1, 0, 0, 0, 0, 0, 1));
    words[1] = 100;
    assertThrows(IllegalArgumentException.class, () -> KernelTimeline.read(words));
    assertThrows(IllegalArgumentException.class, () -> KernelTimeline.read(new long[1]));
    assertThrows(
        IllegalArgumentException.class,
        () -> KernelTimeline.read(buffer(new R(1, 0, 0, 0, 0, 0, 1), new R(1, 3, 0, 1, 0, 0, 1))));
  }

  @Test
  void theTableGivesEachLaunchsMediansAndEachKernelsSums() {
    List<KernelTimeline> replays = new ArrayList<>();
    for (int lag : new int[] {100, 300, 200}) { // medians: 200 of handoff
      replays.add(
          KernelTimeline.read(
              buffer(
                  new R(1, 0, 0, 0, 0, 0, 1_000),
                  new R(2, 1, 0, 0, 900, 1_000 + lag, 3_000),
                  new R(3, 0, 0, 0, 2_900, 3_000 + lag, 4_000))));
    }

    String table = KernelTimeline.table(replays, k -> k == 0 ? "norm" : "product");

    assertTrue(table.contains("   1 product"), table);
    assertTrue(
        table.matches("(?s).*\\n   1 product\\s+1\\s+0\\.20\\s+1\\.80\\s+0\\.10\\n.*"), table);
    // norm: two launches a replay, handoffs 0 + 200 and work 1,000 + 800 at the median.
    assertTrue(table.matches("(?s).*\\nnorm\\s+2\\s+0\\.20\\s+1\\.80\\n.*"), table);
    assertTrue(
        table.contains("span us, median of 3 replays: 4.00 (handoffs 0.40, work 3.60)"), table);
  }

  @Test
  void theTableRefusesReplaysOfDifferentGraphs() {
    KernelTimeline one = KernelTimeline.read(buffer(new R(1, 0, 0, 0, 0, 0, 1)));
    KernelTimeline other = KernelTimeline.read(buffer(new R(1, 1, 0, 0, 0, 0, 1)));
    KernelTimeline two =
        KernelTimeline.read(buffer(new R(1, 0, 0, 0, 0, 0, 1), new R(2, 0, 0, 0, 2, 0, 3)));

    assertThrows(IllegalArgumentException.class, () -> KernelTimeline.table(List.of(), k -> ""));
    assertThrows(
        IllegalArgumentException.class, () -> KernelTimeline.table(List.of(one, other), k -> ""));
    assertThrows(
        IllegalArgumentException.class, () -> KernelTimeline.table(List.of(one, two), k -> ""));
  }

  @Test
  void theCudaHeaderWritesRecordsOfTheWordsThisClassReads() {
    String header = KernelTimeline.cudaHeader();

    Matcher words = Pattern.compile("#define KERNEL_TRACE_WORDS (\\d+)").matcher(header);
    assertTrue(words.find(), "KERNEL_TRACE_WORDS");
    assertEquals(KernelTimeline.RECORD_WORDS, Integer.parseInt(words.group(1)));
    assertTrue(
        header.contains("out + " + KernelTimeline.HEADER_WORDS + " + i * KERNEL_TRACE_WORDS"));
    for (String s : List.of("KERNEL_TRACE_SCOPE", "KERNEL_TRACE_WAITED", "void trace_to(")) {
      assertTrue(header.contains(s), s);
    }
  }
}
