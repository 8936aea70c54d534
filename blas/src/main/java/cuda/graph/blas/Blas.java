// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.Device;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.blas.internal.matmul.BlasImpl;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Matrix products on one device, as graph nodes. On the {@code cuda} provider they are cuBLASLt's;
 * on the {@code simulator} provider a Java model with the same rounding (fp16 and bf16 inputs
 * widened exactly, fp32 accumulation, the epilogue in fp32, the output rounded to nearest even),
 * which plans a workspace of up to 64 KiB so that workspace rules hold there too. Both check every
 * argument the same way, before any library call.
 *
 * <p>Each distinct {@link Matmul} is planned once, on its first {@link #plan} or {@link #matmul}
 * (cuBLASLt's heuristic, with the workspace limit this {@code Blas} was opened with), and the plan
 * is kept: launches and replays never plan. A node made by {@link #matmul} runs eagerly ({@code
 * syncOn}, {@code asyncOn}), in {@link cuda.graph.CudaGraph#capture} and in {@link
 * cuda.graph.Scope#record}, and leases its buffers and its {@link Workspace} like a kernel launch.
 * A node recorded with {@link cuda.graph.Scope#recordNode} is one node of the graph, which {@link
 * cuda.graph.CudaGraph#replaceNode} gives the parameters of a node of the same product (the same
 * shapes, types, layouts and epilogue: the same plan) over other buffers, for launches executed
 * afterwards; a node of another product is refused with {@code IllegalArgumentException} before the
 * graph changes, on every provider. On a GPU the node is a child graph of the cuBLASLt call, on the
 * simulator a launch of a kernel of the plan's own. Any other change is made by recapturing the
 * graph ({@code CudaGraph.recapture}).
 *
 * <p>Thread-safe. Open one per device you run products on, and close it when done: nodes made
 * before the close stay valid (graphs that captured them still replay, and the library's handles
 * stay alive until the last of them lets go), but no plan or node is made after it.
 *
 * <p>For example, a product captured and replayed:
 *
 * {@snippet class=cuda.graph.blas.JavadocSnippetsTests region=blas}
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface Blas extends AutoCloseable permits BlasImpl {

  /** The workspace limit of {@link #open(Device)}: 32 MiB, what cuBLAS advises for Hopper. */
  long DEFAULT_WORKSPACE_LIMIT = 32L << 20;

  /**
   * {@return matrix products on {@code device}, planned with workspaces of at most {@link
   * #DEFAULT_WORKSPACE_LIMIT} bytes}
   *
   * @param device the device the products run on
   * @throws BlasUnavailableException if the device's provider has no matrix products here
   */
  static Blas open(Device device) {
    return BlasImpl.open(device, DEFAULT_WORKSPACE_LIMIT);
  }

  /**
   * {@return matrix products on {@code device}, planned with workspaces of at most {@code
   * workspaceLimit} bytes} (0: only algorithms that need none)
   *
   * @param device the device the products run on
   * @param workspaceLimit the most workspace bytes an algorithm may need, at least 0
   * @throws IllegalArgumentException if {@code workspaceLimit} is negative
   * @throws BlasUnavailableException if the device's provider has no matrix products here
   */
  static Blas open(Device device, long workspaceLimit) {
    return BlasImpl.open(device, workspaceLimit);
  }

  /** {@return the device the products run on} */
  Device device();

  /** {@return the most workspace bytes a plan may need} */
  long workspaceLimit();

  /**
   * {@return the plan for {@code matmul}: its algorithm and workspace need}, chosen on the first
   * call for an equal matmul and the same thereafter
   *
   * @param matmul a product whose buffers live on {@link #device()}
   * @throws IllegalArgumentException if a buffer lives elsewhere
   * @throws IllegalStateException if this is closed, or a buffer of {@code matmul} is
   * @throws BlasException if the library has no algorithm for the product
   */
  MatmulPlanReport plan(Matmul matmul);

  /**
   * {@return an op that allocates one workspace for all of {@code matmuls}}: as large as the
   * largest need among their plans (at least 1 byte), for matmuls that never run at the same time
   * (see {@link Workspace})
   *
   * @param matmuls the products that will share the workspace, at least one
   * @throws IllegalArgumentException if {@code matmuls} is empty or a buffer lives elsewhere
   * @throws IllegalStateException if this is closed
   */
  @CheckReturnValue
  DeviceOp<Workspace> workspaceFor(List<Matmul> matmuls);

  /**
   * {@return a graph node that runs {@code matmul} with its plan, using {@code workspace} as
   * scratch}; every buffer, the workspace included, is leased while the node's work or a graph that
   * captured it can run
   *
   * @param matmul a product whose buffers live on {@link #device()}
   * @param workspace a workspace on {@link #device()} of at least the plan's {@link
   *     MatmulPlanReport#workspaceBytes()}; it must not be used by a matmul that may run at the
   *     same time
   * @throws IllegalArgumentException if a buffer or the workspace lives elsewhere, or the workspace
   *     is smaller than the plan needs
   * @throws IllegalStateException if this, a buffer or the workspace is closed
   * @throws BlasException if the library has no algorithm for the product
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> matmul(Matmul matmul, Workspace workspace);

  /** {@return whether {@link #close()} was called} */
  boolean isClosed();

  /**
   * Refuses further plans and nodes, and releases the library's handles and plans once no node made
   * here can run any more. Idempotent.
   */
  @Override
  void close();
}
