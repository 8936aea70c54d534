package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.support.ForwardingCudaDriver;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/**
 * Where the time of a small {@code CudaGraph.capture} goes (issue 15): the provider's driver is
 * wrapped so that every driver call the capture makes is timed, and what is left of the capture's
 * time is the library's own. Prints, per n, the median capture time, the driver's share per call
 * (calls per capture and microseconds per capture), and the remainder.
 *
 * <p>Run on the GPU host: {@code .gpu/java cuda.graph.benchmarks.CaptureBreakdown} (the provider is
 * the one {@code -Dcuda.graph.provider} names, {@code cuda} by default).
 */
public final class CaptureBreakdown {

  private CaptureBreakdown() {}

  /** Times the calls made while {@link #on} is set. */
  static final class TimingDriver extends ForwardingCudaDriver {
    final Map<DriverCall, long[]> spent = new EnumMap<>(DriverCall.class);
    boolean on;
    private DriverCall current = DriverCall.INIT;

    TimingDriver(CudaDriver delegate) {
      super(delegate);
    }

    @Override
    protected void before(DriverCall call) {
      current = call;
    }

    private void add(long t0) {
      if (on) {
        long[] slot = spent.computeIfAbsent(current, c -> new long[2]);
        slot[0]++;
        slot[1] += System.nanoTime() - t0;
      }
    }

    @Override
    public void streamBeginCapture(CuStream stream, CaptureMode mode) {
      long t0 = System.nanoTime();
      super.streamBeginCapture(stream, mode);
      add(t0);
    }

    @Override
    public @Nullable CuGraph streamEndCapture(CuStream stream) {
      long t0 = System.nanoTime();
      CuGraph graph = super.streamEndCapture(stream);
      add(t0);
      return graph;
    }

    @Override
    public CaptureInfo streamGetCaptureInfo(CuStream stream) {
      long t0 = System.nanoTime();
      CaptureInfo info = super.streamGetCaptureInfo(stream);
      add(t0);
      return info;
    }

    @Override
    public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
      long t0 = System.nanoTime();
      CuGraphExec exec = super.graphInstantiate(graph, flags);
      add(t0);
      return exec;
    }

    @Override
    public void graphUpload(CuGraphExec exec, CuStream stream) {
      long t0 = System.nanoTime();
      super.graphUpload(exec, stream);
      add(t0);
    }

    @Override
    public void streamSynchronize(CuStream stream) {
      long t0 = System.nanoTime();
      super.streamSynchronize(stream);
      add(t0);
    }

    @Override
    public void launchKernel(
        CuFunction function,
        int gridX,
        int gridY,
        int gridZ,
        int blockX,
        int blockY,
        int blockZ,
        int sharedMemBytes,
        CuStream stream,
        KernelArguments arguments) {
      long t0 = System.nanoTime();
      super.launchKernel(
          function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
      add(t0);
    }

    @Override
    public void graphLaunch(CuGraphExec exec, CuStream stream) {
      long t0 = System.nanoTime();
      super.graphLaunch(exec, stream);
      add(t0);
    }

    @Override
    public void graphDestroy(CuGraph graph) {
      long t0 = System.nanoTime();
      super.graphDestroy(graph);
      add(t0);
    }

    @Override
    public void graphExecDestroy(CuGraphExec exec) {
      long t0 = System.nanoTime();
      super.graphExecDestroy(exec);
      add(t0);
    }
  }

  public static void main(String[] args) {
    String id = System.getProperty("cuda.graph.provider", "cuda");
    CudaDriverProvider provider =
        ServiceLoader.load(CudaDriverProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.id().equals(id))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no provider " + id));
    TimingDriver driver = new TimingDriver(provider.open());
    try (CudaPlatform platform = CudaPlatform.forDriver(driver, id)) {
      Device device = platform.defaultDevice();
      System.out.println("# capture breakdown, " + id + " on " + device.name());
      try (Stream stream = device.newStream();
          DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream)) {
        IncKernel.INC.load(device);
        for (int n : new int[] {1, 10}) {
          measure(driver, stream, counter, n);
        }
        replays(driver, stream, counter);
      }
    }
  }

  private static void measure(
      TimingDriver driver, Stream stream, DeviceBuffer<Integer> counter, int n) {
    for (int i = 0; i < 400; i++) {
      CudaGraph.capture(stream, chain(counter, n)).close();
    }
    int reps = 50;
    long[] total = new long[reps];
    long closing = 0;
    driver.spent.clear();
    for (int rep = 0; rep < reps; rep++) {
      GraphNode<@Nullable Void> chain = chain(counter, n);
      driver.on = true;
      long t0 = System.nanoTime();
      CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, chain);
      total[rep] = System.nanoTime() - t0;
      long c0 = System.nanoTime();
      graph.close();
      closing += System.nanoTime() - c0;
      driver.on = false;
    }
    java.util.Arrays.sort(total);
    long driverNanos = 0;
    List<String> lines = new ArrayList<>();
    for (var e : driver.spent.entrySet()) {
      if (e.getKey() == DriverCall.GRAPH_DESTROY || e.getKey() == DriverCall.GRAPH_EXEC_DESTROY) {
        lines.add(
            String.format(
                Locale.ROOT,
                "  (close) %-26s %5.2f calls %7.2f us",
                e.getKey(),
                (double) e.getValue()[0] / reps,
                e.getValue()[1] / 1e3 / reps));
        continue;
      }
      driverNanos += e.getValue()[1];
      lines.add(
          String.format(
              Locale.ROOT,
              "  %-34s %5.2f calls %7.2f us",
              e.getKey(),
              (double) e.getValue()[0] / reps,
              e.getValue()[1] / 1e3 / reps));
    }
    double mean = java.util.Arrays.stream(total).average().orElse(0) / 1e3;
    System.out.printf(
        Locale.ROOT,
        "n=%d: capture median %.1f us (mean %.1f, min %.1f, max %.1f); driver calls %.1f us;"
            + " library %.1f us; close %.1f us%n",
        n,
        total[reps / 2] / 1e3,
        mean,
        total[0] / 1e3,
        total[reps - 1] / 1e3,
        driverNanos / 1e3 / reps,
        mean - driverNanos / 1e3 / reps,
        closing / 1e3 / reps);
    lines.forEach(System.out::println);
  }

  /**
   * The same split for what the one-kernel rows of {@code LaunchOverhead} time: a graph replay and
   * an eager launch, each with {@code syncOn}.
   */
  private static void replays(TimingDriver driver, Stream stream, DeviceBuffer<Integer> counter) {
    try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, chain(counter, 1))) {
      for (String mode : new String[] {"graph launch + syncOn", "eager launch + syncOn"}) {
        boolean replay = mode.startsWith("graph");
        int reps = 20_000;
        for (int i = 0; i < reps; i++) {
          (replay ? graph.launch() : chain(counter, 1)).syncOn(stream);
        }
        driver.spent.clear();
        driver.on = true;
        long t0 = System.nanoTime();
        for (int i = 0; i < reps; i++) {
          (replay ? graph.launch() : chain(counter, 1)).syncOn(stream);
        }
        long total = System.nanoTime() - t0;
        driver.on = false;
        long inDriver = driver.spent.values().stream().mapToLong(v -> v[1]).sum();
        System.out.printf(
            Locale.ROOT,
            "%s: %.2f us per op; driver calls %.2f us; library %.2f us%n",
            mode,
            total / 1e3 / reps,
            inDriver / 1e3 / reps,
            (total - inDriver) / 1e3 / reps);
        for (var e : driver.spent.entrySet()) {
          System.out.printf(
              Locale.ROOT,
              "  %-34s %5.2f calls %7.2f us%n",
              e.getKey(),
              (double) e.getValue()[0] / reps,
              e.getValue()[1] / 1e3 / reps);
        }
      }
    }
  }

  private static GraphNode<@Nullable Void> chain(DeviceBuffer<Integer> counter, int n) {
    List<GraphNode<?>> launches = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      launches.add(IncKernel.INC.launch(LaunchConfig.of(1, 1), counter));
    }
    return GraphNode.sequence(launches);
  }
}
