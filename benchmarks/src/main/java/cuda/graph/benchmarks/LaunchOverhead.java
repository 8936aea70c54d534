// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The launch-overhead benchmark through the public API, with the anchors' protocol: a chain of n
 * tiny dependent kernels (one thread adds 1 to one int), n = 1, 10, 100, 1000, run eagerly with
 * {@code syncOn} and as a captured graph replayed with {@code graph.launch().syncOn(stream)},
 * synchronizing after every rep, after an unprinted warm-up pass of the same work (the JIT's; three
 * rounds of it for the eager rows). Prints the anchors' CSV ({@code
 * impl,n,mode,us_per_kernel_submit, us_per_kernel_wall,reps}), plus capture time and
 * async-completion rows, and checks the counter. With {@code -Dbench.capture=false} it leaves the
 * captures out; with {@code -Dbench.only=capture} it times only them, in a process that made what
 * the C++ capture anchor makes before its captures (two replayed chains).
 *
 * <p>"wall" is the time of {@code syncOn} of the op as a user writes it, building included, as the
 * C++ anchor times its launches and synchronize. "submit", from separate repetitions after the
 * timed ones, is the host time from building the op to the moment its last launch was enqueued,
 * marked by a raw-stream op at the end of the chain (an op the wall repetitions do not have).
 *
 * <p>Run it with the provider to measure: {@code -Dcuda.graph.provider=cuda} on the GPU host.
 */
public final class LaunchOverhead {

  private static final LaunchConfig ONE_THREAD = LaunchConfig.of(1, 1);

  private final Stream stream;
  private final DeviceBuffer<Integer> counter;
  private long expected;
  private long marked;
  private boolean print;

  private LaunchOverhead(Stream stream, DeviceBuffer<Integer> counter) {
    this.stream = stream;
    this.counter = counter;
  }

  public static void main(String[] args) {
    CudaPlatform platform = CudaPlatform.system();
    Device device = platform.defaultDevice();
    System.out.println(
        "# cuda-graph "
            + platform.providerId()
            + " on "
            + device.name()
            + ", java "
            + System.getProperty("java.version"));
    SimulatorTimes.note(platform);
    try (Stream stream = device.newStream();
        DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream)) {
      IncKernel.INC.load(device);
      new LaunchOverhead(stream, counter).run(args.length > 0 ? Integer.parseInt(args[0]) : 20000);
    }
  }

  private GraphNode<Void> chain(int n) {
    List<GraphNode<?>> launches = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      launches.add(IncKernel.INC.launch(ONE_THREAD, counter));
    }
    return GraphNode.sequence(launches);
  }

  /** An op that notes when the host reached it: after everything before it was enqueued. */
  private DeviceOp<Void> mark() {
    return DeviceOp.withRawStream(
        (raw, device) -> {
          marked = System.nanoTime();
          return null;
        });
  }

  private void run(int budget) {
    // A JVM compiles hot code after a few thousand calls: one unprinted pass first, so the printed
    // one measures compiled code, as the C++ anchor does from its first rep.
    boolean printing = false;
    boolean warmup = !"false".equals(System.getProperty("bench.warmup"));
    boolean captures = !"false".equals(System.getProperty("bench.capture"));
    boolean capturesOnly = "capture".equals(System.getProperty("bench.only"));
    if (capturesOnly) {
      // The process of the C++ capture anchor (capture_bench.cu): two replayed chains, then the
      // captures, so that both sides meet the driver having made the same graphs before.
      graph(100, 200);
      graph(1000, 200);
      System.out.println("impl,n,mode,us_per_kernel_submit,us_per_kernel_wall,reps");
      this.print = true;
    }
    for (int pass = warmup ? 0 : 1; pass < 2 && !capturesOnly; pass++) {
      if (pass == 1) {
        System.out.println("impl,n,mode,us_per_kernel_submit,us_per_kernel_wall,reps");
        printing = true;
      }
      this.print = printing;
      for (int n : new int[] {1, 10, 100, 1000}) {
        int reps = Math.max(20, budget / n);
        // The eager path gets three warm-up rounds, not one: with one, the printed rounds of the
        // same process spread from 0.88x to 1.35x of C++ at n = 1000 on the H200 (2026-12-03),
        // where the library's own share is 4% (CaptureBreakdown). Graphs get one, since every
        // capture before the printed replays slows them (see the note on captures below).
        for (int w = printing ? 1 : 3; w > 0; w--) {
          eager(n, reps);
        }
        graph(n, reps);
      }
      async(Math.max(200, budget));
    }
    // Capture timings come last, after both passes: on the H200 driver, graphs replay slower per
    // kernel once other graphs were instantiated and destroyed in the process, in C++ too (see
    // docs/PERFORMANCE.md, Method: replays before captures), so replays are measured before any
    // such churn.
    if (captures) {
      for (int n : new int[] {1, 10, 100, 1000}) {
        capture(n);
      }
    }
    int value = counter.toIntArray().syncOn(stream)[0];
    System.out.println(
        "counter "
            + value
            + " expected "
            + expected
            + (value == (int) expected ? " OK" : " MISMATCH"));
    if (value != (int) expected) {
      throw new IllegalStateException(
          "the kernels did not all run: counter " + value + ", expected " + expected);
    }
  }

  /**
   * Collects garbage before a timed loop, so that a collection caused by earlier work (building
   * thousands of ops) does not pause inside a loop of a few milliseconds.
   */
  private static void settle() {
    System.gc();
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void eager(int n, int reps) {
    for (int w = 0; w < 3; w++) {
      chain(n).syncOn(stream);
      expected += n;
    }
    settle();
    long t0 = System.nanoTime();
    for (int r = 0; r < reps; r++) {
      chain(n).syncOn(stream);
    }
    long wall = System.nanoTime() - t0;
    long submit = 0;
    for (int r = 0; r < reps; r++) {
      long a0 = System.nanoTime();
      chain(n).andThen(mark()).syncOn(stream);
      submit += marked - a0;
    }
    expected += 2L * reps * n;
    row(n, "eager", submit, wall, reps, "");
  }

  /**
   * Capture, instantiate, upload and synchronize, as CudaGraph.capture does them: untimed captures
   * first until the capture path is compiled (the replay passes never run it, and seven cold
   * captures measured the interpreter), then the median of the timed ones with their min and max.
   */
  private void capture(int n) {
    int warm = warmCaptures(n);
    // Collected before the untimed captures, not between them and the timed ones: the timed
    // captures follow the untimed ones at once, as in the C++ anchor (capture_bench.cu), rather
    // than after a pause that leaves the caches and the clock to cool.
    settle();
    for (int i = 0; i < warm; i++) {
      CudaGraph.capture(stream, chain(n)).close();
    }
    long[] times = new long[TIMED_CAPTURES];
    for (int rep = 0; rep < times.length; rep++) {
      long c0 = System.nanoTime();
      try (CudaGraph<Void> _ = CudaGraph.capture(stream, chain(n))) {
        times[rep] = System.nanoTime() - c0;
      }
    }
    java.util.Arrays.sort(times);
    if (print) {
      System.out.printf(
          Locale.ROOT,
          "cuda-graph,%d,capture,nan,nan,%d  (capture+instantiate+upload %.1f us) min %.1f max"
              + " %.1f%n",
          n,
          times.length,
          times[times.length / 2] / 1e3,
          times[0] / 1e3,
          times[times.length - 1] / 1e3);
    }
  }

  /** Timed captures per n, here and in capture_bench.cu. */
  private static final int TIMED_CAPTURES = 31;

  /**
   * Untimed captures before the timed ones, here and in capture_bench.cu: enough for the JIT to
   * have compiled the whole capture path with C2, which takes tens of thousands of captures (its
   * methods run once per capture, against C2's threshold of about 15000 calls). Fewer measured the
   * interpreter and C1: on the H200, 43 to 46 us at n = 1 after 400 captures and 17 to 22 us after
   * 10000, where CaptureBreakdown measures 13 us; over a driver whose calls cost nothing, the
   * median falls from 28 us after 400 to 3.8 us after 12800 and 0.4 us after 100000 (2 cores).
   */
  static int warmCaptures(int n) {
    return n <= 10 ? 50_000 : n == 100 ? 500 : 50;
  }

  private void graph(int n, int reps) {
    try (CudaGraph<Void> graph = CudaGraph.capture(stream, chain(n))) {
      for (int w = 0; w < 3; w++) {
        graph.launch().syncOn(stream);
      }
      expected += 3L * n;
      settle();
      long t0 = System.nanoTime();
      for (int r = 0; r < reps; r++) {
        graph.launch().syncOn(stream);
      }
      long wall = System.nanoTime() - t0;
      long submit = 0;
      for (int r = 0; r < reps; r++) {
        long a0 = System.nanoTime();
        graph.launch().andThen(mark()).syncOn(stream);
        submit += marked - a0;
      }
      expected += 2L * reps * n;
      row(n, "graph", submit, wall, reps, "");
    }
  }

  /**
   * One kernel awaited as a future versus with syncOn, alternating to share the machine's noise.
   */
  private void async(int reps) {
    for (int w = 0; w < 100; w++) {
      IncKernel.INC.launch(ONE_THREAD, counter).asyncOn(stream).join();
      IncKernel.INC.launch(ONE_THREAD, counter).syncOn(stream);
    }
    expected += 200;
    settle();
    long sync = 0;
    long async = 0;
    for (int r = 0; r < reps; r++) {
      long a0 = System.nanoTime();
      IncKernel.INC.launch(ONE_THREAD, counter).syncOn(stream);
      long a1 = System.nanoTime();
      IncKernel.INC.launch(ONE_THREAD, counter).asyncOn(stream).join();
      long a2 = System.nanoTime();
      sync += a1 - a0;
      async += a2 - a1;
    }
    expected += 2L * reps;
    row(1, "sync1", Double.NaN, sync, reps);
    row(1, "future1", Double.NaN, async, reps);
  }

  private void row(int n, String mode, long submitNanos, long wallNanos, int reps, String note) {
    if (!print) {
      return;
    }
    System.out.printf(
        Locale.ROOT,
        "cuda-graph,%d,%s,%.3f,%.3f,%d%s%n",
        n,
        mode,
        submitNanos / 1e3 / reps / n,
        wallNanos / 1e3 / reps / n,
        reps,
        note);
  }

  private void row(int n, String mode, double submit, long wallNanos, int reps) {
    if (!print) {
      return;
    }
    System.out.printf(
        Locale.ROOT,
        "cuda-graph,%d,%s,%s,%.3f,%d%n",
        n,
        mode,
        "nan",
        wallNanos / 1e3 / reps / n,
        reps);
  }
}
