// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item 2: one {@link Workspace} shared by products that run at once on two streams, from
 * two graphs, two eager executions or one of each. Every run overwrites the workspace, so the
 * library orders the uses (the workspace is an exclusive buffer): every product comes out right, in
 * every round. Before, 179 of 300 rounds of two graphs were wrong on the simulator.
 */
abstract class AbstractWorkspaceSharingTests {

  private static final int ROUNDS = 300;

  private CudaPlatform platform;
  private Stream first;
  private Stream second;
  private Blas blas;

  /** {@return the platform the tests run on, opened} */
  abstract CudaPlatform openPlatform();

  /** Closes the platform if the test owns it. */
  abstract void closePlatform(CudaPlatform platform);

  /** {@return the shape m, n, k: its plan must need a workspace on this provider} */
  abstract int[] shape();

  @BeforeEach
  void open() {
    platform = openPlatform();
    first = platform.defaultDevice().newStream();
    second = platform.defaultDevice().newStream();
    blas = Blas.open(platform.defaultDevice());
  }

  @AfterEach
  void close() {
    blas.close();
    first.close();
    second.close();
    closePlatform(platform);
  }

  /** One product and what it must give: small integers, so every sum is exact in any order. */
  private final class Product implements AutoCloseable {
    final DeviceBuffer<Float> a, b, d;
    final Matmul matmul;
    final float[] expected;

    Product(int seed) {
      int m = shape()[0], n = shape()[1], k = shape()[2];
      float[] av = ints(m * k, seed);
      float[] bv = ints(k * n, seed + 1);
      a = DeviceBuffer.fromArray(av).syncOn(first);
      b = DeviceBuffer.fromArray(bv).syncOn(first);
      d = DeviceBuffer.zeros(ElementType.F32, m * n).syncOn(first);
      matmul =
          Matmul.of(
              MatrixView.rowMajor(a, m, k),
              MatrixView.rowMajor(b, k, n),
              MatrixView.rowMajor(d, m, n));
      expected = new float[m * n];
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          float sum = 0;
          for (int p = 0; p < k; p++) {
            sum += av[i * k + p] * bv[p * n + j];
          }
          expected[i * n + j] = sum;
        }
      }
    }

    boolean right() {
      return Arrays.equals(expected, d.toFloatArray().syncOn(first));
    }

    @Override
    public void close() {
      a.close();
      b.close();
      d.close();
    }
  }

  private static float[] ints(int length, int seed) {
    float[] v = new float[length];
    for (int i = 0; i < length; i++) {
      v[i] = Math.floorMod(i * 7 + seed * 13 + i / 5, 9) - 4;
    }
    return v;
  }

  private interface Runs {
    /** Starts both products, each on its stream, and waits for both. */
    void round(Product p, Product q, Workspace w);
  }

  private void share(Runs runs) {
    try (Product p = new Product(1);
        Product q = new Product(2);
        Workspace w = blas.workspaceFor(List.of(p.matmul, q.matmul)).syncOn(first)) {
      assertTrue(
          blas.plan(p.matmul).workspaceBytes() > 0,
          "the product's plan needs no workspace, so nothing here is shared: "
              + blas.plan(p.matmul));
      List<Integer> wrong = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        runs.round(p, q, w);
        if (!p.right() || !q.right()) {
          wrong.add(round);
        }
      }
      assertEquals(List.of(), wrong, wrong.size() + " of " + ROUNDS + " rounds were wrong");
    }
  }

  private static void both(CompletableFuture<?> x, CompletableFuture<?> y) {
    CompletableFuture.allOf(x, y).join();
  }

  @Test
  void twoGraphsSharingAWorkspaceLaunchedAtOnceOnTwoStreamsBothComputeTheirProducts() {
    List<@Nullable CudaGraph<?>> graphs = new ArrayList<>();
    share(
        (p, q, w) -> {
          if (graphs.isEmpty()) {
            graphs.add(CudaGraph.capture(first, blas.matmul(p.matmul, w)));
            graphs.add(CudaGraph.capture(second, blas.matmul(q.matmul, w)));
          }
          both(graphs.get(0).launch().asyncOn(first), graphs.get(1).launch().asyncOn(second));
        });
    graphs.forEach(g -> g.close());
  }

  @Test
  void twoEagerProductsSharingAWorkspaceOnTwoStreamsFromTwoThreadsBothComputeTheirProducts() {
    share(
        (p, q, w) ->
            both(
                CompletableFuture.runAsync(() -> blas.matmul(p.matmul, w).syncOn(first)),
                CompletableFuture.runAsync(() -> blas.matmul(q.matmul, w).syncOn(second))));
  }

  @Test
  void aGraphAndAnEagerProductSharingAWorkspaceOnTwoStreamsBothComputeTheirProducts() {
    List<CudaGraph<?>> graphs = new ArrayList<>();
    share(
        (p, q, w) -> {
          if (graphs.isEmpty()) {
            graphs.add(CudaGraph.capture(first, blas.matmul(p.matmul, w)));
          }
          both(graphs.get(0).launch().asyncOn(first), blas.matmul(q.matmul, w).asyncOn(second));
        });
    graphs.forEach(CudaGraph::close);
  }
}
