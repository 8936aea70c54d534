// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * Where a graph's replay spends its time, from its kernels' own timestamps: what kernels built with
 * the header {@link #cudaHeader()} (compiled with {@code -DKERNEL_TRACE}) record, each block's
 * start, the return of its dependency wait and its end on the GPU's global timer. Unlike CUDA
 * events between nodes, the records see kernels overlap as programmatic dependent launches make
 * them.
 *
 * <p>Per launch, in the order the launches started, against the launch before it: the
 * <em>handoff</em> is the time from the end of everything before to this launch's first block
 * passing its wait (a launch, a node that is not a traced kernel, the wait itself), the
 * <em>work</em> from then to this launch's last block ending; together they tile the replay from
 * the first block's start to the last block's end. <em>Early</em> is how long before everything
 * before had ended this launch's median block had started (the overlap a programmatic launch buys).
 *
 * <p>Immutable and thread-safe once read.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public final class KernelTimeline {

  /** Words before the records: the records appended, then the capacity in records. */
  public static final int HEADER_WORDS = 2;

  /** Words a record ({@code KERNEL_TRACE_WORDS} of the header). */
  public static final int RECORD_WORDS = 6;

  /**
   * One block's record.
   *
   * @param index the block's linear index in its grid
   * @param sm the SM it ran on
   * @param startNs when its first thread started
   * @param waitedNs when that thread's dependency wait returned; 0 where it did not wait
   * @param endNs when that thread left
   * @since 0.2.0
   */
  public record Block(long index, int sm, long startNs, long waitedNs, long endNs) {}

  /**
   * One launch's blocks.
   *
   * @param grid the launch's grid id ({@code %gridid})
   * @param kernel the kernel's number ({@code KERNEL_TRACE_SCOPE}'s argument)
   * @param blocks its blocks' records, at least one
   * @since 0.2.0
   */
  public record Launch(long grid, int kernel, List<Block> blocks) {

    /** Copies the blocks; refuses an empty launch. */
    public Launch {
      blocks = List.copyOf(blocks);
      if (blocks.isEmpty()) {
        throw new IllegalArgumentException("KernelTimeline.Launch: a launch has blocks");
      }
    }

    /** {@return the first block's start} */
    public long startNs() {
      return blocks.stream().mapToLong(Block::startNs).min().orElseThrow();
    }

    /** {@return the first return of a dependency wait, or {@link #startNs} where none waited} */
    public long releaseNs() {
      return blocks.stream().mapToLong(Block::waitedNs).filter(w -> w != 0).min().orElse(startNs());
    }

    /** {@return the last block's end} */
    public long endNs() {
      return blocks.stream().mapToLong(Block::endNs).max().orElseThrow();
    }

    /** {@return the median block's start} */
    long medianStartNs() {
      long[] starts = blocks.stream().mapToLong(Block::startNs).sorted().toArray();
      return starts[starts.length / 2];
    }
  }

  /**
   * One launch against everything before it (see the class comment).
   *
   * @param launch the launch
   * @param handoffNs from the end of everything before to this launch's release
   * @param workNs from then to the end of this launch (0 where it ended inside an earlier one)
   * @param earlyNs how long before everything before had ended its median block started
   * @since 0.2.0
   */
  public record Step(Launch launch, long handoffNs, long workNs, long earlyNs) {}

  private final List<Launch> launches;
  private final List<Step> steps;

  private KernelTimeline(List<Launch> launches) {
    this.launches = List.copyOf(launches);
    List<Step> s = new ArrayList<>();
    long before = launches.isEmpty() ? 0 : launches.getFirst().startNs();
    for (Launch l : launches) {
      long release = l.releaseNs(), end = l.endNs();
      long from = Math.max(release, before);
      s.add(
          new Step(
              l,
              Math.max(0, release - before),
              Math.max(0, end - from),
              before - l.medianStartNs()));
      before = Math.max(before, end);
    }
    this.steps = List.copyOf(s);
  }

  /**
   * {@return the buffer's length in words for {@code capacity} records}
   *
   * @param capacity the records the buffer keeps, at least 1
   * @throws IllegalArgumentException for a capacity below 1
   */
  public static long words(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "KernelTimeline.words: capacity " + capacity + " records; give at least 1");
    }
    return HEADER_WORDS + (long) capacity * RECORD_WORDS;
  }

  /**
   * Reads a trace buffer: {@code [0]} the records appended, {@code [1]} the capacity, then the
   * records. No records (the kernels were built without tracing) read as an empty timeline.
   *
   * @param words the buffer as the device left it
   * @return its launches, ordered by their first block's start (ties by grid id)
   * @throws IllegalArgumentException where records were dropped (more appended than the capacity:
   *     give a larger buffer) or the buffer is shorter than its capacity says
   */
  public static KernelTimeline read(long[] words) {
    Objects.requireNonNull(words, "words");
    if (words.length < HEADER_WORDS) {
      throw new IllegalArgumentException(
          "KernelTimeline.read: "
              + words.length
              + " words; a buffer has at least the 2 of its header");
    }
    long count = words[0], capacity = words[1];
    if (capacity < 0 || HEADER_WORDS + capacity * RECORD_WORDS > words.length) {
      throw new IllegalArgumentException(
          "KernelTimeline.read: a capacity of "
              + capacity
              + " records needs "
              + (HEADER_WORDS + capacity * RECORD_WORDS)
              + " words, the buffer has "
              + words.length);
    }
    if (count > capacity) {
      throw new IllegalArgumentException(
          "KernelTimeline.read: "
              + count
              + " records appended, "
              + capacity
              + " kept; give a buffer of at least "
              + count
              + " records");
    }
    Map<Long, List<Block>> byGrid = new LinkedHashMap<>();
    Map<Long, Integer> kernels = new LinkedHashMap<>();
    for (int r = 0; r < count; r++) {
      int at = HEADER_WORDS + r * RECORD_WORDS;
      long grid = words[at];
      int kernel = (int) (words[at + 1] >>> 32);
      Integer seen = kernels.putIfAbsent(grid, kernel);
      if (seen != null && seen != kernel) {
        throw new IllegalArgumentException(
            "KernelTimeline.read: launch "
                + grid
                + " has blocks of kernels "
                + seen
                + " and "
                + kernel
                + "; the records are not a trace's");
      }
      byGrid
          .computeIfAbsent(grid, g -> new ArrayList<>())
          .add(
              new Block(
                  words[at + 5], (int) words[at + 1], words[at + 2], words[at + 3], words[at + 4]));
    }
    List<Launch> launches = new ArrayList<>();
    byGrid.forEach((grid, blocks) -> launches.add(new Launch(grid, kernels.get(grid), blocks)));
    launches.sort(Comparator.comparingLong(Launch::startNs).thenComparingLong(Launch::grid));
    return new KernelTimeline(launches);
  }

  /** {@return the launches, ordered by their first block's start} */
  public List<Launch> launches() {
    return launches;
  }

  /** {@return each launch against everything before it, in the same order} */
  public List<Step> steps() {
    return steps;
  }

  /** {@return from the first block's start to the last block's end; 0 without launches} */
  public long spanNs() {
    return steps.stream().mapToLong(s -> s.handoffNs() + s.workNs()).sum();
  }

  /**
   * The medians over replays of the same graph, a line a launch then a line a kernel: the launch's
   * number, its kernel's name, its blocks, its handoff, work and early in microseconds; then each
   * kernel's launches and the medians of their handoffs' and works' sums a replay; then the span.
   *
   * @param replays timelines of the same launches in the same order, at least one
   * @param names a kernel's name by its number
   * @return the table, lines ending in a line feed
   * @throws IllegalArgumentException where the replays' launches differ in number or kernels
   */
  public static String table(List<KernelTimeline> replays, IntFunction<String> names) {
    if (replays.isEmpty()) {
      throw new IllegalArgumentException("KernelTimeline.table: no replay");
    }
    KernelTimeline first = replays.getFirst();
    int n = first.launches.size();
    for (KernelTimeline t : replays) {
      if (t.launches.size() != n) {
        throw new IllegalArgumentException(
            "KernelTimeline.table: replays of "
                + n
                + " and "
                + t.launches.size()
                + " launches; the replays are not of one graph");
      }
      for (int i = 0; i < n; i++) {
        if (t.launches.get(i).kernel() != first.launches.get(i).kernel()) {
          throw new IllegalArgumentException(
              "KernelTimeline.table: launch "
                  + i
                  + " runs kernel "
                  + first.launches.get(i).kernel()
                  + " in one replay, "
                  + t.launches.get(i).kernel()
                  + " in another");
        }
      }
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%4s %-34s %7s %11s %9s %9s%n",
            "#",
            "kernel",
            "blocks",
            "handoff us",
            "work us",
            "early us"));
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, long[][]> sums = new LinkedHashMap<>(); // [handoffs, works][replay]
    for (int i = 0; i < n; i++) {
      int launch = i;
      String name = names.apply(first.launches.get(i).kernel());
      out.append(
          String.format(
              Locale.ROOT,
              "%4d %-34s %7d %11.2f %9.2f %9.2f%n",
              i,
              name,
              first.launches.get(i).blocks().size(),
              median(replays, t -> t.steps.get(launch).handoffNs()),
              median(replays, t -> t.steps.get(launch).workNs()),
              median(replays, t -> t.steps.get(launch).earlyNs())));
      counts.merge(name, 1, Integer::sum);
      long[][] sum = sums.computeIfAbsent(name, k -> new long[2][replays.size()]);
      for (int r = 0; r < replays.size(); r++) {
        Step s = replays.get(r).steps.get(i);
        sum[0][r] += s.handoffNs();
        sum[1][r] += s.workNs();
      }
    }
    out.append(
        String.format(
            Locale.ROOT, "%-39s %8s %11s %9s%n", "kernel", "launches", "handoff us", "work us"));
    sums.forEach(
        (name, sum) ->
            out.append(
                String.format(
                    Locale.ROOT,
                    "%-39s %8d %11.2f %9.2f%n",
                    name,
                    counts.get(name),
                    median(sum[0]),
                    median(sum[1]))));
    out.append(
        String.format(
            Locale.ROOT,
            "span us, median of %d replays: %.2f (handoffs %.2f, work %.2f)%n",
            replays.size(),
            median(replays, KernelTimeline::spanNs),
            median(replays, t -> t.steps.stream().mapToLong(Step::handoffNs).sum()),
            median(replays, t -> t.steps.stream().mapToLong(Step::workNs).sum())));
    return out.toString();
  }

  /** {@return the median of a figure over the replays, in microseconds} */
  private static double median(
      List<KernelTimeline> replays, java.util.function.ToLongFunction<KernelTimeline> figure) {
    return median(replays.stream().mapToLong(figure).toArray());
  }

  private static double median(long[] ns) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2] / 1e3;
  }

  /**
   * {@return the CUDA header that records the timeline: include it, open {@code
   * KERNEL_TRACE_SCOPE(number)} first in each kernel, call {@code KERNEL_TRACE_WAITED()} after its
   * dependency wait, compile with {@code -DKERNEL_TRACE}, and launch {@code trace_to(buffer, 1)}
   * before a replay and {@code trace_to(buffer, 0)} after it}
   */
  public static String cudaHeader() {
    try (InputStream in = KernelTimeline.class.getResourceAsStream("kernel_trace.cuh")) {
      if (in == null) {
        throw new IllegalStateException(
            "KernelTimeline.cudaHeader: kernel_trace.cuh is not in the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("KernelTimeline.cudaHeader: reading kernel_trace.cuh", e);
    }
  }
}
