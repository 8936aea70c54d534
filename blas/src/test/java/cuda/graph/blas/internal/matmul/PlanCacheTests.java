// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.matmul;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.MatmulBackend;
import cuda.graph.blas.internal.plan.MatmulOperands;
import cuda.graph.blas.internal.plan.MatmulPlan;
import cuda.graph.blas.internal.simulated.SimulatedMatmulBackend;
import cuda.graph.simulator.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The backend's heuristic is asked once per distinct product, however often the product is planned,
 * made into nodes, captured and replayed; and the backend is closed with the Blas.
 */
class PlanCacheTests {

  /** Counts what the Blas asks of the simulator's backend. */
  private static final class Counting implements MatmulBackend {
    final MatmulBackend delegate;
    final List<CheckedMatmul> planned = new ArrayList<>();
    int nodes;
    int closes;

    Counting(MatmulBackend delegate) {
      this.delegate = delegate;
    }

    @Override
    public MatmulPlan plan(CheckedMatmul matmul, long workspaceLimit) {
      planned.add(matmul);
      return delegate.plan(matmul, workspaceLimit);
    }

    @Override
    public GraphNode<@Nullable Void> node(MatmulPlan plan, MatmulOperands operands) {
      nodes++;
      return delegate.node(plan, operands);
    }

    @Override
    public void close() {
      closes++;
      delegate.close();
    }
  }

  @Test
  void eachDistinctProductIsPlannedOnceNeverPerNodeOrReplay() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> a = DeviceBuffer.fromArray(new float[] {1, 2, 3, 4}).syncOn(stream);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream)) {
      Counting backend = new Counting(SimulatedMatmulBackend.open(platform.defaultDevice()));
      BlasImpl blas = BlasImpl.withBackend(platform.defaultDevice(), 1 << 20, backend);
      Matmul square =
          Matmul.of(
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(d, 2, 2));
      Matmul transposed = Matmul.of(square.a().transposed(), square.b(), square.d());
      try (Workspace workspace =
          blas.workspaceFor(List.of(square, transposed, square)).syncOn(stream)) {
        blas.plan(square);
        blas.matmul(square, workspace).syncOn(stream);
        blas.matmul(Matmul.of(square.a(), square.b(), square.d()), workspace).syncOn(stream);
        try (CudaGraph<@Nullable Void> graph =
            CudaGraph.capture(stream, blas.matmul(transposed, workspace))) {
          for (int i = 0; i < 5; i++) {
            graph.launch().syncOn(stream);
          }
        }
      }
      assertEquals(2, backend.planned.size(), "planned: " + backend.planned);
      assertEquals(3, backend.nodes);
      blas.close();
      blas.close();
      assertEquals(1, backend.closes, "closed once, with the Blas");
    }
  }
}
