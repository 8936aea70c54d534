// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.Buckets;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.GraphCache.KeyStats;
import cuda.graph.GraphMemory;
import cuda.graph.LaunchConfig;
import cuda.graph.Scope;
import cuda.graph.Stream;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Epilogue;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Issue 25's measurement of the graph cache, on a realistic step at vLLM's 67 batch buckets (1, 2,
 * 4 and every multiple of 8 up to 512):
 *
 * <ol>
 *   <li><b>Warm-up</b>: the wall time to capture, instantiate and upload all 67 graphs, and the
 *       sums of the three phases from the cache's statistics.
 *   <li><b>Graph memory</b> ({@code Device.graphMemory}, the driver's accounting): after the
 *       warm-up, after launching every bucket in turn on the cache's stream, and the largest
 *       bucket's own (a cache holding only it, on an idle, trimmed device).
 *   <li><b>Cost of a hit</b>: {@code cache.launch(key).syncOn(stream)} against {@code
 *       graph.launch().syncOn(stream)} of the same graph captured by hand, in interleaved rounds:
 *       the encoder step at 32 rows (as PyTorch's anchor, {@code anchors/cache/cache_torch.py},
 *       compares), and a one-kernel graph among 67 cached keys; microseconds per launch and the
 *       ratio per round, median [p10-p90].
 * </ol>
 *
 * <p>The step: six layers of the 384-wide encoder's four projections as cuBLASLt matmul nodes over
 * b rows (fp16, fp32 accumulation): Q = X·Wqkvᵀ (384 to 1152), O = X·Woᵀ (384 to 384), H =
 * GELU(O·W1ᵀ + b1) (384 to 1536), X' = H·W2ᵀ + O (1536 to 384), each activation a temporary of the
 * graph; the input and output are prefix views of buffers sized for the largest bucket.
 *
 * <p>{@code java ... CacheBench [rounds]} with {@code -Dcuda.graph.provider=cuda} on the GPU host.
 */
public final class CacheBench {

  private static final int WIDTH = 384, QKV = 1152, FFN = 1536, LAYERS = 6;

  private CacheBench() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    Device device = CudaPlatform.system().defaultDevice();
    System.out.println(
        "# cuda-graph " + CudaPlatform.system().providerId() + " on " + device.name());
    SimulatorTimes.note(CudaPlatform.system());
    Buckets buckets = Buckets.batchSizes(512);
    try (Stream stream = device.newStream();
        Blas blas = Blas.open(device, 4 << 20);
        Workspace workspace = Workspace.allocate(4 << 20).syncOn(stream);
        Weights w = new Weights(stream);
        DeviceBuffer<Short> input =
            DeviceBuffer.zeros(ElementType.F16, (long) buckets.largest() * WIDTH).syncOn(stream);
        DeviceBuffer<Short> output =
            DeviceBuffer.zeros(ElementType.F16, (long) buckets.largest() * WIDTH).syncOn(stream)) {
      GraphCache.Recorder<Integer> step =
          (rows, scope) -> encoderStep(scope, blas, workspace, w, input, output, rows);

      device.trimGraphMemory();
      device.resetGraphMemoryHighWater();
      GraphMemory before = device.graphMemory();
      long largestOwn;
      try (GraphCache<Integer> alone =
          GraphCache.create(stream, GraphCache.Settings.budget(1L << 30), step)) {
        alone.launch(buckets.largest()).syncOn(stream);
        largestOwn = device.graphMemory().usedBytes() - before.usedBytes();
      }
      device.trimGraphMemory();
      device.resetGraphMemoryHighWater();

      try (GraphCache<Integer> cache =
          GraphCache.create(stream, GraphCache.Settings.budget(256L << 20), step)) {
        long t0 = System.nanoTime();
        cache.warm(buckets.sizes());
        double warmMs = (System.nanoTime() - t0) / 1e6;
        double capture = 0, instantiate = 0, upload = 0;
        for (KeyStats s : cache.stats().values()) {
          capture += s.captureTime().toNanos() / 1e6;
          instantiate += s.instantiateTime().toNanos() / 1e6;
          upload += s.uploadTime().toNanos() / 1e6;
        }
        GraphMemory warmed = device.graphMemory();
        for (int b : buckets.sizes()) {
          cache.launch(b).syncOn(stream);
        }
        GraphMemory launched = device.graphMemory();
        System.out.printf(
            Locale.ROOT,
            "warm,buckets=%d,wall_ms=%.1f,capture_ms=%.1f,instantiate_ms=%.1f,upload_ms=%.1f,"
                + "nodes_largest=%d%n",
            cache.stats().size(),
            warmMs,
            capture,
            instantiate,
            upload,
            LAYERS * 4);
        System.out.printf(
            Locale.ROOT,
            "memory,accounted_mib=%.1f,after_warm_used_mib=%.1f,after_launches_used_mib=%.1f,"
                + "reserved_high_mib=%.1f,largest_bucket_own_mib=%.1f,ratio_to_largest=%.3f%n",
            mib(cache.graphMemoryBytes()),
            mib(warmed.usedBytes() - before.usedBytes()),
            mib(launched.usedBytes() - before.usedBytes()),
            mib(launched.reservedHighBytes()),
            mib(largestOwn),
            (double) (launched.usedBytes() - before.usedBytes()) / largestOwn);
        stepHitCost(cache, stream, step, rounds);
      }
      hitCost(stream, rounds);
    }
  }

  private static double mib(long bytes) {
    return bytes / 1048576.0;
  }

  /** The encoder step over {@code rows} rows, as the class doc says. */
  private static void encoderStep(
      Scope scope,
      Blas blas,
      Workspace workspace,
      Weights w,
      DeviceBuffer<Short> input,
      DeviceBuffer<Short> output,
      int rows) {
    IntFunction<DeviceBuffer<Short>> temp =
        cols -> scope.temporary(ElementType.F16, (long) rows * cols);
    DeviceBuffer<Short> x = input.slice(0, (long) rows * WIDTH);
    for (int layer = 0; layer < LAYERS; layer++) {
      DeviceBuffer<Short> q = temp.apply(QKV), o = temp.apply(WIDTH), h = temp.apply(FFN);
      DeviceBuffer<Short> next =
          layer == LAYERS - 1 ? output.slice(0, (long) rows * WIDTH) : temp.apply(WIDTH);
      scope.record(blas.matmul(linear(x, w.qkv, q, rows, WIDTH, QKV), workspace));
      scope.record(blas.matmul(linear(x, w.o, o, rows, WIDTH, WIDTH), workspace));
      scope.record(
          blas.matmul(
              linear(o, w.up, h, rows, WIDTH, FFN).withEpilogue(Epilogue.BIAS_GELU, w.upBias),
              workspace));
      scope.record(
          blas.matmul(
              linear(h, w.down, next, rows, FFN, WIDTH)
                  .plus(1f, MatrixView.rowMajor(o, rows, WIDTH)),
              workspace));
      x = next;
    }
  }

  private static Matmul linear(
      DeviceBuffer<Short> x,
      DeviceBuffer<Short> w,
      DeviceBuffer<Short> y,
      int rows,
      int in,
      int out) {
    return Matmul.of(
        MatrixView.rowMajor(x, rows, in),
        MatrixView.rowMajor(w, out, in).transposed(),
        MatrixView.rowMajor(y, rows, out));
  }

  /** One layer's weights, shared by the six layers (the values do not matter here). */
  private static final class Weights implements AutoCloseable {
    final DeviceBuffer<Short> qkv, o, up, upBias, down;

    Weights(Stream stream) {
      qkv = DeviceBuffer.zeros(ElementType.F16, (long) QKV * WIDTH).syncOn(stream);
      o = DeviceBuffer.zeros(ElementType.F16, (long) WIDTH * WIDTH).syncOn(stream);
      up = DeviceBuffer.zeros(ElementType.F16, (long) FFN * WIDTH).syncOn(stream);
      upBias = DeviceBuffer.zeros(ElementType.F16, FFN).syncOn(stream);
      down = DeviceBuffer.zeros(ElementType.F16, (long) WIDTH * FFN).syncOn(stream);
    }

    @Override
    public void close() {
      for (DeviceBuffer<?> b : new DeviceBuffer<?>[] {qkv, o, up, upBias, down}) {
        b.close();
      }
    }
  }

  /**
   * A hit of the encoder step at 32 rows against a plain launch of the same step captured by hand
   * (the comparison PyTorch's anchor makes), interleaved rounds.
   */
  private static void stepHitCost(
      GraphCache<Integer> cache, Stream stream, GraphCache.Recorder<Integer> step, int rounds) {
    int launches = 2000;
    try (CudaGraph<@Nullable Void> plain = CudaGraph.scope(stream, s -> step.record(32, s))) {
      double[] plainUs = new double[rounds], hitUs = new double[rounds], ratio = new double[rounds];
      for (int r = -3; r < rounds; r++) {
        double p = timePlain(plain, stream, launches);
        double h = timeHit(cache, 32, stream, launches);
        if (r >= 0) {
          plainUs[r] = p;
          hitUs[r] = h;
          ratio[r] = h / p;
        }
      }
      System.out.println("impl,mode,us_per_launch_median,us_p10,us_p90,rounds,launches_per_round");
      print("encoder32_plain_graph_launch", plainUs, launches);
      print("encoder32_cache_hit_launch", hitUs, launches);
      if (SimulatorTimes.meaningful(CudaPlatform.system())) {
        print("encoder32_ratio_hit_to_plain", ratio, launches);
      }
    }
  }

  /** A hit against a plain launch of the same one-kernel graph, interleaved rounds. */
  private static void hitCost(Stream stream, int rounds) {
    int launches = 5000;
    Device device = stream.device();
    IncKernel.INC.load(device);
    try (DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
        CudaGraph<@Nullable Void> plain =
            CudaGraph.scope(
                stream, s -> s.record(IncKernel.INC.launch(LaunchConfig.of(1, 1), counter)));
        GraphCache<Integer> cache =
            GraphCache.create(
                stream,
                GraphCache.Settings.budget(0),
                (key, s) -> s.record(IncKernel.INC.launch(LaunchConfig.of(1, 1), counter)))) {
      for (int k = 0; k < 67; k++) {
        cache.launch(k).syncOn(stream); // 67 keys cached, as in the encoder's cache
      }
      double[] plainUs = new double[rounds], hitUs = new double[rounds], ratio = new double[rounds];
      for (int warm = 0; warm < 3; warm++) {
        timePlain(plain, stream, launches);
        timeHit(cache, 33, stream, launches);
      }
      for (int r = 0; r < rounds; r++) {
        plainUs[r] = timePlain(plain, stream, launches);
        hitUs[r] = timeHit(cache, 33, stream, launches);
        ratio[r] = hitUs[r] / plainUs[r];
      }
      System.out.println("impl,mode,us_per_launch_median,us_p10,us_p90,rounds,launches_per_round");
      print("plain_graph_launch", plainUs, launches);
      print("cache_hit_launch", hitUs, launches);
      if (SimulatorTimes.meaningful(CudaPlatform.system())) {
        print("ratio_hit_to_plain", ratio, launches);
      }
    }
  }

  private static double timePlain(CudaGraph<?> graph, Stream stream, int launches) {
    long t0 = System.nanoTime();
    for (int i = 0; i < launches; i++) {
      graph.launch().syncOn(stream);
    }
    return (System.nanoTime() - t0) / 1e3 / launches;
  }

  private static double timeHit(GraphCache<Integer> cache, int key, Stream stream, int launches) {
    long t0 = System.nanoTime();
    for (int i = 0; i < launches; i++) {
      cache.launch(key).syncOn(stream);
    }
    return (System.nanoTime() - t0) / 1e3 / launches;
  }

  private static void print(String mode, double[] values, int launches) {
    double[] v = values.clone();
    Arrays.sort(v);
    System.out.printf(
        Locale.ROOT,
        "cuda-graph,%s,%.4f,%.4f,%.4f,%d,%d%n",
        mode,
        v[v.length / 2],
        v[(int) (0.1 * (v.length - 1))],
        v[(int) (0.9 * (v.length - 1))],
        v.length,
        launches);
  }
}
