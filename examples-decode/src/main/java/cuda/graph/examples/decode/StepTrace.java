// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where one step of the graph of programmatic launches spends its time, from the kernels' own
 * timestamps ({@code Decode --trace DIR}): with the PTX built with tracing ({@code regenerate.sh
 * --trace}), every block of every kernel records when it started, when its dependency wait returned
 * and when it ended, on the GPU's global timer. Unlike CUDA events between kernels, this sees the
 * kernels overlap as they do in the fast mode. Per launch: the <em>handoff</em> is the time from
 * the last block of the launch before ending to the first block of this one passing its wait; the
 * <em>work</em> from then to this launch's last block ending; together they tile the step.
 */
final class StepTrace {

  /** Words a record (decode_kernels.cu's TRACE_WORDS) and the buffer's header. */
  private static final int WORDS = 6, HEADER = 2;

  /** Block records of one launch. */
  record Launch(long grid, int kernel, List<long[]> blocks) {
    long firstStart() {
      return blocks.stream().mapToLong(b -> b[0]).min().orElseThrow();
    }

    long firstRelease() {
      return blocks.stream().mapToLong(b -> b[1]).min().orElseThrow();
    }

    long lastEnd() {
      return blocks.stream().mapToLong(b -> b[2]).max().orElseThrow();
    }
  }

  private StepTrace() {}

  /**
   * Traces the step at position {@code pos + 1} (after {@code pos} steps of the device loop and one
   * untraced replay of the graph), writes every block's record to {@code dir/trace-MODEL.csv} and
   * the per-kernel table to {@code out}. {@return false where nothing was recorded}
   */
  static boolean run(DecodeEngine engine, int pos, Path dir, PrintStream out) throws IOException {
    Stream stream = engine.stream;
    if (stream.device().platform().providerId().equals("simulator")) {
      out.println(
          "  trace: not on the simulator (its kernels are Java references, without the GPU's"
              + " timestamps)");
      return true;
    }
    int capacity = engine.config.kernelsPerToken() * 1024;
    long[] words;
    try (CudaGraph<@Nullable Void> loop = engine.captureLoop();
        CudaGraph<@Nullable Void> step = engine.captureProgrammaticStep();
        DeviceBuffer<Long> buffer =
            DeviceBuffer.zeros(ElementType.I64, HEADER + (long) capacity * WORDS).syncOn(stream)) {
      buffer.slice(1, 1).write(new long[] {capacity}).syncOn(stream);
      engine.reset(pos);
      loop.launch()
          .andThen(step.launch())
          .andThen(DecodeKernels.TRACE_TO.launch(LaunchConfig.of(1, 1), buffer, 1))
          .andThen(step.launch())
          .andThen(DecodeKernels.TRACE_TO.launch(LaunchConfig.of(1, 1), buffer, 0))
          .syncOn(stream);
      words = buffer.toLongArray().syncOn(stream);
    }
    long count = Math.min(words[0], capacity);
    if (count == 0) {
      out.println(
          "  trace: no records; the PTX was built without tracing (regenerate.sh --trace DIR, then"
              + " DIR first on the class path)");
      return false;
    }
    Map<Long, Launch> byGrid = new LinkedHashMap<>();
    for (int r = 0; r < count; r++) {
      int at = HEADER + r * WORDS;
      long grid = words[at];
      int kernel = (int) (words[at + 1] >>> 32);
      byGrid
          .computeIfAbsent(grid, g -> new Launch(g, kernel, new ArrayList<>()))
          .blocks()
          .add(
              new long[] {
                words[at + 2],
                words[at + 3],
                words[at + 4],
                words[at + 1] & 0xffffffffL,
                words[at + 5]
              });
    }
    List<Launch> launches = new ArrayList<>(byGrid.values());
    launches.sort(Comparator.comparingLong(Launch::firstStart));
    List<String> names = engine.kernelNames();
    if (launches.size() != names.size()) {
      out.printf(
          "  trace: %d launches recorded, the step has %d; records dropped past %d?%n",
          launches.size(), names.size(), capacity);
      return false;
    }
    long t0 = launches.getFirst().firstStart();
    Files.createDirectories(dir);
    StringBuilder csv = new StringBuilder("launch,kernel,block,sm,start_ns,waited_ns,end_ns\n");
    Map<String, double[]> sums = new LinkedHashMap<>();
    Map<String, List<Double>> early = new LinkedHashMap<>();
    long previousEnd = t0;
    for (int l = 0; l < launches.size(); l++) {
      Launch launch = launches.get(l);
      for (long[] b : launch.blocks()) {
        csv.append(l)
            .append(',')
            .append(names.get(l))
            .append(',')
            .append(b[4])
            .append(',')
            .append(b[3])
            .append(',')
            .append(b[0] - t0)
            .append(',')
            .append(b[1] - t0)
            .append(',')
            .append(b[2] - t0)
            .append('\n');
      }
      long release = launch.firstRelease(), end = launch.lastEnd();
      double[] s = sums.computeIfAbsent(names.get(l), n -> new double[3]);
      s[0]++;
      s[1] += Math.max(0, release - previousEnd) / 1e3;
      s[2] += (end - Math.max(release, previousEnd)) / 1e3;
      // How long before the kernel before it ended this launch's median block had started.
      List<Long> starts = launch.blocks().stream().map(b -> b[0]).sorted().toList();
      early
          .computeIfAbsent(names.get(l), n -> new ArrayList<>())
          .add((previousEnd - starts.get(starts.size() / 2)) / 1e3);
      previousEnd = end;
    }
    Path file = dir.resolve("trace-" + engine.config.name() + ".csv");
    Files.writeString(file, csv);
    double total = (previousEnd - t0) / 1e3;
    out.printf(
        "  trace of one step at position %d, graph+pdl (%.1f us from the first block's start to"
            + " the last block's end; every block's record in %s):%n",
        pos + 1, total, file);
    out.printf(
        "    %-28s %8s %10s %10s %8s %16s%n",
        "kernel", "launches", "handoff us", "work us", "share", "started early us");
    for (Map.Entry<String, double[]> e : sums.entrySet()) {
      double[] s = e.getValue();
      List<Double> lead = new ArrayList<>(early.get(e.getKey()));
      lead.sort(null);
      out.printf(
          "    %-28s %8d %10.1f %10.1f %7.1f%% %16.1f%n",
          e.getKey(),
          (int) s[0],
          s[1],
          s[2],
          100 * (s[1] + s[2]) / total,
          lead.get(lead.size() / 2));
    }
    return true;
  }
}
