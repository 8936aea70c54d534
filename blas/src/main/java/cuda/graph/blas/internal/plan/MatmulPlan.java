// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.plan;

/**
 * What a backend decided for one {@link CheckedMatmul}, once (never per launch): the algorithm and
 * how much workspace it needs. A backend keeps what it needs to run the plan (descriptors, the
 * chosen algorithm) in its own implementation of this interface.
 */
public interface MatmulPlan {

  /** {@return the product the plan is for} */
  CheckedMatmul matmul();

  /** {@return the bytes of workspace the chosen algorithm needs; 0 for none} */
  long workspaceBytes();

  /** {@return a one-line description of the chosen algorithm, for reports and messages} */
  String algorithm();
}
