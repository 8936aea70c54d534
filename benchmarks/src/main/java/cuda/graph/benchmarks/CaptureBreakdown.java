// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.spi.CudaDriverProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/**
 * Where the time of the launch path's small operations goes (issue 15), with the library and the
 * plain driver calls in one process: every operation of {@code LaunchOverhead}'s missed rows (a
 * capture + instantiate + upload of 1 and of 10 kernels, a one-kernel graph replay and an eager
 * launch, each with its synchronize) runs both through the library and as the C++ anchors' call
 * sequence made straight on the provider's driver ({@link DirectChain}), alternating in blocks so
 * both see the same machine. A {@link TimelineDriver} notes every driver call; {@link Breakdown}
 * reports, as medians over the repetitions, each call's time and each gap between calls. The gaps
 * of the direct sequence are the measuring's own cost (two clock reads per call); what the
 * library's gaps add to them is the library's. Both sides are also timed with the clock read only
 * around the whole operation, the way {@code LaunchOverhead} and the anchors time it.
 *
 * <p>Run on the GPU host: {@code .gpu/java cuda.graph.benchmarks.CaptureBreakdown [reps]} (the
 * provider is the one {@code -Dcuda.graph.provider} names, {@code cuda} by default).
 */
public final class CaptureBreakdown {

  /** One timed repetition; returns what to close once the clock has stopped, or null. */
  @FunctionalInterface
  private interface Rep {
    @Nullable AutoCloseable run();
  }

  private final TimelineDriver driver;
  private final Stream stream;
  private final DeviceBuffer<Integer> counter;
  private long expected;

  private CaptureBreakdown(TimelineDriver driver, Stream stream, DeviceBuffer<Integer> counter) {
    this.driver = driver;
    this.stream = stream;
    this.counter = counter;
  }

  public static void main(String[] args) throws Exception {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 400;
    String id = System.getProperty("cuda.graph.provider", "cuda");
    CudaDriverProvider provider =
        ServiceLoader.load(CudaDriverProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.id().equals(id))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no provider " + id));
    TimelineDriver driver = new TimelineDriver(provider.open());
    try (CudaPlatform platform = CudaPlatform.forDriver(driver, id)) {
      Device device = platform.defaultDevice();
      System.out.printf(
          Locale.ROOT,
          "# launch-path breakdown, %s on %s, java %s %s; clock source %s; one System.nanoTime"
              + " %.0f ns; %s threads in this process%n",
          id,
          device.name(),
          System.getProperty("java.version"),
          java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments(),
          clockSource(),
          nanoTimeCost(),
          threadCount());
      try (Stream stream = device.newStream();
          DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
          DirectChain direct = new DirectChain(driver, device.ordinal())) {
        IncKernel.INC.load(device);
        new CaptureBreakdown(driver, stream, counter).run(direct, reps);
      }
    }
  }

  private void run(DirectChain direct, int reps) {
    CudaGraph<@Nullable Void> oneKernel = CudaGraph.capture(stream, chain(1));
    DirectChain.Captured directOneKernel = direct.capture(1);
    // Replays and launches first, captures after: graphs replay slower once others were
    // instantiated and destroyed in the process (docs/PERFORMANCE.md, Method: replays before
    // captures).
    compare(
        "graph launch + sync, 1 kernel",
        20 * reps,
        20 * reps,
        () -> {
          oneKernel.launch().syncOn(stream);
          expected++;
          return null;
        },
        () -> {
          directOneKernel.replay();
          return null;
        });
    compare(
        "eager launch + sync, 1 kernel",
        20 * reps,
        20 * reps,
        () -> {
          chain(1).syncOn(stream);
          expected++;
          return null;
        },
        () -> {
          direct.eager(1);
          return null;
        });
    compare(
        "eager launch + sync, 100 kernels",
        reps,
        reps,
        () -> {
          chain(100).syncOn(stream);
          expected += 100;
          return null;
        },
        () -> {
          direct.eager(100);
          return null;
        });
    oneKernel.close();
    directOneKernel.close();
    for (int n : new int[] {1, 10}) {
      compare(
          "capture + instantiate + upload + sync, " + n + " kernel(s)",
          LaunchOverhead.warmCaptures(n),
          reps,
          () -> CudaGraph.capture(stream, chain(n)),
          () -> direct.capture(n));
    }
    int ours = counter.toIntArray().syncOn(stream)[0];
    int theirs = direct.counter();
    boolean ok = ours == expected && theirs == direct.launched();
    System.out.printf(
        Locale.ROOT,
        "counters %d and %d, expected %d and %d: %s%n",
        ours,
        theirs,
        expected,
        direct.launched(),
        ok ? "OK" : "MISMATCH");
    if (!ok) {
      throw new IllegalStateException("the kernels did not all run");
    }
  }

  /**
   * Runs both sides {@code warm} times untimed (the JIT compiles the library's path), then {@code
   * reps} repetitions each with every call timed and {@code reps} with the whole timed only, all
   * four alternating in blocks of a tenth, and prints the four breakdowns and the ratios of
   * medians.
   */
  private void compare(String what, int warm, int reps, Rep library, Rep direct) {
    driver.untimed.clear();
    for (int i = 0; i < warm; i++) {
      closeQuietly(library.run());
      closeQuietly(direct.run());
    }
    Breakdown ours = new Breakdown(what + ", cuda-graph");
    Breakdown theirs = new Breakdown(what + ", direct driver calls");
    Breakdown oursWhole = new Breakdown(what + ", cuda-graph, clock around the whole only");
    Breakdown theirsWhole = new Breakdown(what + ", direct, clock around the whole only");
    int block = Math.max(1, reps / 10);
    for (int done = 0; done < reps; done += block) {
      timed(ours, library, block, true);
      timed(theirs, direct, block, true);
      timed(oursWhole, library, block, false);
      timed(theirsWhole, direct, block, false);
    }
    System.out.print(ours.report());
    System.out.print(theirs.report());
    System.out.print(oursWhole.report());
    System.out.print(theirsWhole.report());
    System.out.printf(
        Locale.ROOT,
        "  => %s: cuda-graph / direct = %.3f (medians, every call timed), %.3f (whole only);"
            + " direct, whole only: %.2f us%n%n",
        what,
        (double) ours.medianTotal() / theirs.medianTotal(),
        (double) oursWhole.medianTotal() / theirsWhole.medianTotal(),
        theirsWhole.medianTotal() / 1e3);
    if (!driver.untimed.isEmpty()) {
      System.out.println("  untimed driver calls: " + driver.untimed);
    }
  }

  private void timed(Breakdown into, Rep rep, int times, boolean everyCall) {
    for (int i = 0; i < times; i++) {
      driver.clear();
      driver.recording = everyCall;
      long t0 = System.nanoTime();
      AutoCloseable left = rep.run();
      long t1 = System.nanoTime();
      driver.recording = false;
      into.add(driver, t0, t1);
      closeQuietly(left);
    }
  }

  private static void closeQuietly(@Nullable AutoCloseable closeable) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing a benchmark's graph failed", e);
      }
    }
  }

  private GraphNode<@Nullable Void> chain(int n) {
    List<GraphNode<?>> launches = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      launches.add(IncKernel.INC.launch(LaunchConfig.of(1, 1), counter));
    }
    return GraphNode.sequence(launches);
  }

  private static String clockSource() {
    Path p = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    try {
      return Files.readString(p).strip();
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** {@return how many threads the process has (the JVM's own included), or "?" off Linux} */
  private static String threadCount() {
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      return Long.toString(tasks.count());
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  /** The median cost of one clock read, over many back-to-back pairs. */
  private static double nanoTimeCost() {
    long[] d = new long[20_001];
    for (int i = 0; i < d.length; i++) {
      long a = System.nanoTime();
      long b = System.nanoTime();
      d[i] = b - a;
    }
    java.util.Arrays.sort(d);
    return d[d.length / 2];
  }
}
