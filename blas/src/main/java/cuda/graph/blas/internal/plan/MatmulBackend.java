// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.plan;

import cuda.graph.GraphNode;
import org.jspecify.annotations.Nullable;

/**
 * One provider's way of running checked matmuls on one device: cuBLASLt on the {@code cuda}
 * provider, the Java model on the {@code simulator}. Thread-safe.
 */
public interface MatmulBackend extends AutoCloseable {

  /**
   * {@return the plan for {@code matmul}}: chosen once per distinct product (backends cache it),
   * never per launch
   *
   * @param workspaceLimit the most workspace bytes the algorithm may ask for
   * @throws cuda.graph.blas.BlasException if the backend has no algorithm for the product
   */
  MatmulPlan plan(CheckedMatmul matmul, long workspaceLimit);

  /**
   * {@return a graph node that runs {@code plan} over {@code operands}}: it runs eagerly, records
   * into a capture, and leases every operand (workspace included) like a kernel's arguments
   *
   * @param plan a plan this backend made
   * @param operands checked against the plan's product; the workspace holds at least {@link
   *     MatmulPlan#workspaceBytes()} bytes when that is not 0
   */
  GraphNode<@Nullable Void> node(MatmulPlan plan, MatmulOperands operands);

  /** Releases what the backend holds (handles, descriptors, plans) once no node of it can run. */
  @Override
  void close();
}
