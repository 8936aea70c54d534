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
 * synchronizing after every rep, after an unprinted warm-up pass of the same work (the JIT's).
 * Prints the anchors' CSV ({@code impl,n,mode,us_per_kernel_submit, us_per_kernel_wall,reps}), plus
 * capture time and async-completion rows, and checks the counter.
 *
 * <p>"submit" is the host time from building the op to the moment its last launch was enqueued
 * (marked by a raw-stream op at the end of the chain); "wall" adds the completion wait.
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
    for (int pass = warmup ? 0 : 1; pass < 2; pass++) {
      if (pass == 1) {
        System.out.println("impl,n,mode,us_per_kernel_submit,us_per_kernel_wall,reps");
        printing = true;
      }
      this.print = printing;
      for (int n : new int[] {1, 10, 100, 1000}) {
        int reps = Math.max(20, budget / n);
        eager(n, reps);
        graph(n, reps);
      }
      async(Math.max(200, budget));
    }
    // Capture timings come last, after both passes: on the H200 driver, graphs replay slower per
    // kernel once other graphs were instantiated and destroyed in the process, in C++ too (see
    // docs/PERFORMANCE.md), so replays are measured before any such churn.
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
    long submit = 0;
    long t0 = System.nanoTime();
    for (int r = 0; r < reps; r++) {
      long a0 = System.nanoTime();
      chain(n).andThen(mark()).syncOn(stream);
      submit += marked - a0;
    }
    long wall = System.nanoTime() - t0;
    expected += (long) reps * n;
    row(n, "eager", submit, wall, reps, "");
  }

  /**
   * Capture, instantiate, upload and synchronize, as CudaGraph.capture does them: untimed captures
   * first until the capture path is compiled (the replay passes never run it, and seven cold
   * captures measured the interpreter), then the median of 15 with their min and max.
   */
  private void capture(int n) {
    int warm = n <= 10 ? 400 : n == 100 ? 60 : 12;
    // Collected before the untimed captures, not between them and the timed ones: the timed
    // captures follow the untimed ones at once, as in the C++ anchor (capture_bench.cu), rather
    // than after a pause that leaves the caches and the clock to cool.
    settle();
    for (int i = 0; i < warm; i++) {
      CudaGraph.capture(stream, chain(n)).close();
    }
    long[] times = new long[15];
    for (int rep = 0; rep < times.length; rep++) {
      long c0 = System.nanoTime();
      try (CudaGraph<Void> graph = CudaGraph.capture(stream, chain(n))) {
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

  private void graph(int n, int reps) {
    try (CudaGraph<Void> graph = CudaGraph.capture(stream, chain(n))) {
      for (int w = 0; w < 3; w++) {
        graph.launch().syncOn(stream);
      }
      expected += 3L * n;
      settle();
      long submit = 0;
      long t0 = System.nanoTime();
      for (int r = 0; r < reps; r++) {
        long a0 = System.nanoTime();
        graph.launch().andThen(mark()).syncOn(stream);
        submit += marked - a0;
      }
      long wall = System.nanoTime() - t0;
      expected += (long) reps * n;
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
