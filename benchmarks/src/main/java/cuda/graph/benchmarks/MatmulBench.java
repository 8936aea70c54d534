// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaEvent;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatmulPlanReport;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The matmul benchmark of issue 24 through the public API, with the protocol of the C++ anchor
 * ({@code benchmarks/anchors/matmul/matmul_bench.cu}) and the PyTorch one ({@code
 * matmul_torch.py}): a row-major linear layer Y[rows x out] = X[rows x in] · Wᵀ (W stored out x in)
 * in fp16 with fp32 accumulation, 10 warm-up steps, then SAMPLES samples of REPEATS back-to-back
 * steps timed between two CUDA events; per matmul in microseconds, the median and the 10th and 90th
 * percentiles. An eager step is the matmul node executed on the stream; a graph step is one launch
 * of a graph that captured the node. Prints CSV; eager and replayed results are compared bit for
 * bit at the end of each shape.
 *
 * <p>{@code java ... MatmulBench [-n SAMPLES] [-r REPEATS] [INxOUTxROWS ...]}, on the provider
 * chosen as usual ({@code -Dcuda.graph.provider=cuda} on the GPU host).
 */
public final class MatmulBench {

  private MatmulBench() {}

  record Shape(String name, int in, int out, int rows) {}

  public static void main(String[] args) {
    int samples = 100;
    int repeats = 20;
    List<Shape> shapes = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "-n" -> samples = Integer.parseInt(args[++i]);
        case "-r" -> repeats = Integer.parseInt(args[++i]);
        default -> {
          int[] p = Arrays.stream(args[i].split("x")).mapToInt(Integer::parseInt).toArray();
          shapes.add(new Shape(args[i], p[0], p[1], p[2]));
        }
      }
    }
    if (shapes.isEmpty()) {
      shapes = builtIn();
    }
    Device device = CudaPlatform.system().defaultDevice();
    System.out.println(
        "impl,shape,in,out,rows,mode,us_per_matmul_median,us_p10,us_p90,samples,repeats,"
            + "algo_workspace_bytes,check");
    try (Stream stream = device.newStream();
        Blas blas = Blas.open(device);
        CudaEvent start = device.newEvent();
        CudaEvent stop = device.newEvent()) {
      for (Shape s : shapes) {
        run(s, blas, stream, start, stop, samples, repeats);
      }
    }
  }

  static List<Shape> builtIn() {
    List<Shape> shapes = new ArrayList<>();
    int[][] llama = {{2048, 2048}, {2048, 512}, {2048, 8192}, {8192, 2048}, {2048, 128256}};
    for (int[] p : llama) {
      for (int b : new int[] {1, 8, 32, 128}) {
        shapes.add(new Shape("llama_" + p[0] + "to" + p[1] + "_b" + b, p[0], p[1], b));
      }
    }
    int[][] encoder = {{384, 1152}, {384, 384}, {384, 1536}, {1536, 384}};
    for (int[] p : encoder) {
      for (int r : new int[] {16, 256, 4096, 32768}) {
        shapes.add(new Shape("encoder_" + p[0] + "to" + p[1] + "_r" + r, p[0], p[1], r));
      }
    }
    return shapes;
  }

  private static void run(
      Shape s,
      Blas blas,
      Stream stream,
      CudaEvent start,
      CudaEvent stop,
      int samples,
      int repeats) {
    try (DeviceBuffer<Short> x = halves((long) s.rows() * s.in(), 1).syncOn(stream);
        DeviceBuffer<Short> w = halves((long) s.out() * s.in(), 2).syncOn(stream);
        DeviceBuffer<Short> eagerY =
            DeviceBuffer.zeros(ElementType.F16, (long) s.rows() * s.out()).syncOn(stream);
        DeviceBuffer<Short> graphY =
            DeviceBuffer.zeros(ElementType.F16, (long) s.rows() * s.out()).syncOn(stream)) {
      Matmul eager = layer(x, w, eagerY, s);
      Matmul replayed = layer(x, w, graphY, s);
      MatmulPlanReport plan = blas.plan(eager);
      try (Workspace workspace = blas.workspaceFor(List.of(eager)).syncOn(stream);
          CudaGraph<?> graph = CudaGraph.capture(stream, blas.matmul(replayed, workspace))) {
        double[] e =
            sample(() -> blas.matmul(eager, workspace), stream, start, stop, samples, repeats);
        double[] g = sample(graph::launch, stream, start, stop, samples, repeats);
        boolean same =
            Arrays.equals(
                eagerY.toShortArray().syncOn(stream), graphY.toShortArray().syncOn(stream));
        print(s, "eager", e, samples, repeats, plan.workspaceBytes(), same);
        print(s, "graph", g, samples, repeats, plan.workspaceBytes(), same);
      }
    }
  }

  private static Matmul layer(
      DeviceBuffer<Short> x, DeviceBuffer<Short> w, DeviceBuffer<Short> y, Shape s) {
    return Matmul.of(
        MatrixView.rowMajor(x, s.rows(), s.in()),
        MatrixView.rowMajor(w, s.out(), s.in()).transposed(),
        MatrixView.rowMajor(y, s.rows(), s.out()));
  }

  /** Small values, multiples of 1/64 in [-1, 1]: exact in fp16. */
  private static DeviceOp<DeviceBuffer<Short>> halves(long n, int seed) {
    short[] bits = new short[Math.toIntExact(n)];
    for (int i = 0; i < bits.length; i++) {
      int h = (i * 0x9E3779B1) ^ seed;
      h ^= h >>> 15;
      bits[i] = Float.floatToFloat16((Math.floorMod(h, 129) - 64) / 64f);
    }
    return DeviceBuffer.fromArray(ElementType.F16, bits);
  }

  /** Warm-up, then samples of {@code repeats} steps between two events: us per step, sorted. */
  private static double[] sample(
      Supplier<DeviceOp<?>> step,
      Stream stream,
      CudaEvent start,
      CudaEvent stop,
      int samples,
      int repeats) {
    for (int i = 0; i < 10; i++) {
      step.get().syncOn(stream);
    }
    double[] us = new double[samples];
    for (int i = 0; i < samples; i++) {
      List<DeviceOp<?>> ops = new ArrayList<>(repeats + 2);
      ops.add(start.record());
      for (int r = 0; r < repeats; r++) {
        ops.add(step.get());
      }
      ops.add(stop.record());
      DeviceOp.zipAll(ops).syncOn(stream);
      us[i] = stop.elapsedMillisSince(start) * 1000.0 / repeats;
    }
    Arrays.sort(us);
    return us;
  }

  private static void print(
      Shape s, String mode, double[] us, int samples, int repeats, long workspace, boolean same) {
    System.out.printf(
        Locale.ROOT,
        "cuda-graph,%s,%d,%d,%d,%s,%.3f,%.3f,%.3f,%d,%d,%d,%s%n",
        s.name(),
        s.in(),
        s.out(),
        s.rows(),
        mode,
        us[us.length / 2],
        us[(int) (0.1 * (us.length - 1))],
        us[(int) (0.9 * (us.length - 1))],
        samples,
        repeats,
        workspace,
        same ? "OK" : "MISMATCH");
  }
}
