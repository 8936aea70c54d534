// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a {@link Blas} chose for one {@link Matmul}, once: the algorithm and the workspace it needs.
 * Every node made for an equal matmul runs this plan; a {@link Workspace} passed with it must hold
 * at least {@link #workspaceBytes()}.
 *
 * {@snippet class=cuda.graph.blas.JavadocSnippetsTests region=plan}
 *
 * @param algorithm a one-line description of the chosen algorithm (cuBLASLt's algorithm id and
 *     configuration on the {@code cuda} provider; the Java reference on the {@code simulator})
 * @param workspaceBytes the workspace bytes the algorithm needs, at most the {@link Blas}'s
 *     workspace limit; 0 for none
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record MatmulPlanReport(String algorithm, long workspaceBytes) {

  /**
   * Checks the report.
   *
   * @throws IllegalArgumentException if {@code workspaceBytes} is negative
   */
  public MatmulPlanReport {
    Objects.requireNonNull(algorithm, "algorithm");
    if (workspaceBytes < 0) {
      throw new IllegalArgumentException(
          "MatmulPlanReport: workspaceBytes is " + workspaceBytes + "; it is at least 0");
    }
  }
}
