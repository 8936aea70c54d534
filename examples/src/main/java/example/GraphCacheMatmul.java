// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.Buckets;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.Stream;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Epilogue;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import java.util.Random;

/**
 * A two-layer MLP, y = W2 relu(W1 x + b1), served at any batch size from one graph per bucket: two
 * cuBLASLt matmul nodes each, the hidden activations a temporary of the graph, kept by a
 * GraphCache.
 */
public class GraphCacheMatmul {

  static final int IN = 64, HIDDEN = 256, OUT = 32;

  public static void main(String[] args) {
    float[] w1 = random(HIDDEN * IN, 1); // HIDDEN x IN, row-major, as PyTorch's Linear keeps it
    float[] b1 = random(HIDDEN, 2);
    float[] w2 = random(OUT * HIDDEN, 3); // OUT x HIDDEN
    Buckets buckets = Buckets.of(4, 16, 48); // a request of n rows runs in the smallest n fits
    double worst = 0;
    try (Stream stream = CudaPlatform.system().defaultDevice().newStream();
        Blas blas = Blas.open(stream.device());
        // Inputs and outputs sized for the largest bucket: each graph reads and writes a prefix.
        DeviceBuffer<Float> x =
            DeviceBuffer.zeros(ElementType.F32, buckets.largest() * IN).syncOn(stream);
        DeviceBuffer<Float> y =
            DeviceBuffer.zeros(ElementType.F32, buckets.largest() * OUT).syncOn(stream);
        DeviceBuffer<Float> dw1 = DeviceBuffer.fromArray(w1).syncOn(stream);
        DeviceBuffer<Float> db1 = DeviceBuffer.fromArray(b1).syncOn(stream);
        DeviceBuffer<Float> dw2 = DeviceBuffer.fromArray(w2).syncOn(stream);
        // One workspace for every graph, allocated before any capture (a capture allocates
        // nothing): the cache replays its graphs one after another on this stream, so their
        // products never run at once. Each bucket's products are planned when its graph is
        // captured, so size it for the Blas's limit, which bounds every plan.
        Workspace workspace = Workspace.allocate(blas.workspaceLimit()).syncOn(stream);
        GraphCache<Integer> mlp =
            GraphCache.create(
                stream,
                GraphCache.Settings.budget(32L << 20), // graph memory: the temporaries
                (rows, scope) -> { // records one bucket's graph, on its first launch
                  // h = relu(x W1^T + b1): exists only while a replay runs; every replay
                  // writes all of it before the second product reads it.
                  DeviceBuffer<Float> h = scope.temporary(ElementType.F32, (long) rows * HIDDEN);
                  Matmul hidden =
                      Matmul.of(
                              MatrixView.rowMajor(x, rows, IN),
                              MatrixView.rowMajor(dw1, HIDDEN, IN).transposed(),
                              MatrixView.rowMajor(h, rows, HIDDEN))
                          .withEpilogue(Epilogue.BIAS_RELU, db1); // one bias per hidden unit
                  Matmul output =
                      Matmul.of(
                          MatrixView.rowMajor(h, rows, HIDDEN),
                          MatrixView.rowMajor(dw2, OUT, HIDDEN).transposed(),
                          MatrixView.rowMajor(y, rows, OUT));
                  scope.record(blas.matmul(hidden, workspace)); // one node each
                  scope.record(blas.matmul(output, workspace)); // after it, in capture order
                })) {
      for (int requests : new int[] {3, 13, 40, 2}) {
        Buckets.Bucket bucket = buckets.cover(requests);
        float[] input = random(requests * IN, 10 + requests);
        // The rows past the request are padding: their products are computed and never read.
        x.slice(0, (long) requests * IN).write(input).syncOn(stream);
        mlp.launch(bucket.size()).syncOn(stream); // a miss captures the bucket's graph first
        float[] out = y.slice(0, (long) requests * OUT).toFloatArray().syncOn(stream);
        worst = Math.max(worst, worstDifference(input, requests, w1, b1, w2, out));
        // prints: 3 rows in bucket 4
        // prints: 13 rows in bucket 16
        // prints: 40 rows in bucket 48
        // prints: 2 rows in bucket 4
        System.out.println(requests + " rows in bucket " + bucket.size());
      }
      for (int size : buckets.sizes()) {
        GraphCache.KeyStats stats = mlp.stats(size).orElseThrow();
        // prints: bucket 4: replays 2, temporaries 4096 bytes
        // prints: bucket 16: replays 1, temporaries 16384 bytes
        // prints: bucket 48: replays 1, temporaries 49152 bytes
        System.out.println(
            "bucket "
                + size
                + ": replays "
                + stats.replays()
                + ", temporaries "
                + stats.graphMemoryBytes()
                + " bytes");
      }
      // They replay one after another on one stream (Sharing.SERIAL): they share their memory.
      // prints: the cache holds 49152 bytes, the largest graph's; not graphed: []
      System.out.println(
          "the cache holds "
              + mlp.graphMemoryBytes()
              + " bytes, the largest graph's; not graphed: "
              + mlp.notGraphed());
    }
    // prints: every output within 1e-4 of Java: true
    System.out.println("every output within 1e-4 of Java: " + (worst < 1e-4));
  }

  /** The largest difference between {@code out} and the MLP computed in Java, in double. */
  static double worstDifference(
      float[] x, int rows, float[] w1, float[] b1, float[] w2, float[] out) {
    double worst = 0; // NaN in out makes it NaN, and NaN < 1e-4 is false
    for (int r = 0; r < rows; r++) {
      double[] h = new double[HIDDEN];
      for (int j = 0; j < HIDDEN; j++) {
        double sum = b1[j];
        for (int i = 0; i < IN; i++) {
          sum += (double) x[r * IN + i] * w1[j * IN + i];
        }
        h[j] = Math.max(sum, 0);
      }
      for (int o = 0; o < OUT; o++) {
        double sum = 0;
        for (int j = 0; j < HIDDEN; j++) {
          sum += h[j] * w2[o * HIDDEN + j];
        }
        worst = Math.max(worst, Math.abs(sum - out[r * OUT + o]));
      }
    }
    return worst;
  }

  static float[] random(int length, long seed) {
    Random random = new Random(seed);
    float[] values = new float[length];
    for (int i = 0; i < length; i++) {
      values[i] = (float) (random.nextDouble() - 0.5);
    }
    return values;
  }
}
