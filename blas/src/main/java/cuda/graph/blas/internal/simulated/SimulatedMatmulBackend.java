// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.simulated;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.MatmulBackend;
import cuda.graph.blas.internal.plan.MatmulOperands;
import cuda.graph.blas.internal.plan.MatmulPlan;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The simulator's matmuls: one launch of a Java kernel per node ({@link SimulatedMatmulKernel}), so
 * capture, replay, stream order and leases are the simulator's ordinary kernel rules.
 *
 * <p>The plan needs {@code min(4 * m * n * batch, 64 KiB, limit)} bytes of workspace, rounded down
 * to whole fp32 accumulators (0 when the limit holds none): the kernel keeps its accumulators
 * there, so the workspace checks and the workspace's lifetime matter on the simulator as they do on
 * a GPU.
 */
public final class SimulatedMatmulBackend implements MatmulBackend {

  /** The most workspace a simulated plan asks for. */
  public static final long WORKSPACE_CAP = 64 << 10;

  private final Device device;
  private final Map<PlanKey, SimulatedPlan> plans = new ConcurrentHashMap<>();
  private final AtomicInteger planned = new AtomicInteger();
  private volatile boolean closed;

  private SimulatedMatmulBackend(Device device) {
    this.device = device;
  }

  /** {@return a backend on {@code device}} */
  public static SimulatedMatmulBackend open(Device device) {
    return new SimulatedMatmulBackend(device);
  }

  private record PlanKey(CheckedMatmul matmul, long workspaceLimit) {}

  private record SimulatedPlan(
      CheckedMatmul matmul, long workspaceBytes, String algorithm, Kernel kernel)
      implements MatmulPlan {}

  @Override
  public MatmulPlan plan(CheckedMatmul matmul, long workspaceLimit) {
    requireOpen("plan");
    return plans.computeIfAbsent(
        new PlanKey(matmul, workspaceLimit),
        key -> {
          int number = planned.incrementAndGet();
          // A kernel per plan, loaded by the plan's first node: after every check of the node.
          // Messages name it by its product: its name in the image means nothing to users.
          Kernel kernel =
              SimulatedMatmulKernel.make(
                      "simulated_matmul_"
                          + matmul.m()
                          + "x"
                          + matmul.n()
                          + "x"
                          + matmul.k()
                          + "_plan"
                          + number)
                  .describedAs(
                      "matmul of " + matmul.describe() + " (simulated plan " + number + ")");
          long elements = (long) matmul.m() * matmul.n() * matmul.batch();
          long bytes = Math.min(Math.min(4 * elements, WORKSPACE_CAP), workspaceLimit) & ~3L;
          return new SimulatedPlan(
              matmul,
              bytes,
              "simulated reference: fp32 accumulation"
                  + (matmul.compute() == CheckedMatmul.Compute.TF32 ? " of tf32 inputs" : "")
                  + (bytes == 0
                      ? ", no workspace"
                      : ", " + bytes / 4 + " accumulators in the workspace"),
              kernel);
        });
  }

  @Override
  public GraphNode<@Nullable Void> node(MatmulPlan plan, MatmulOperands operands) {
    requireOpen("node");
    if (!(plan instanceof SimulatedPlan simulated)) {
      throw new IllegalArgumentException(
          "simulated matmul: " + plan + " was not made by the simulator's backend");
    }
    CheckedMatmul product = simulated.matmul();
    boolean columnMajor = product.order() == CheckedMatmul.Order.COLUMN_MAJOR;
    // The public API checked all of this; a slip there must not reach memory here either.
    fits(
        "A",
        operands.a(),
        product.transA() ? product.k() : product.m(),
        product.transA() ? product.m() : product.k(),
        product.lda(),
        columnMajor,
        product.batch(),
        product.strideA());
    fits(
        "B",
        operands.b(),
        product.transB() ? product.n() : product.k(),
        product.transB() ? product.k() : product.n(),
        product.ldb(),
        columnMajor,
        product.batch(),
        product.strideB());
    if (operands.c() != null) {
      fits(
          "C",
          operands.c(),
          product.m(),
          product.n(),
          product.ldc(),
          columnMajor,
          product.batch(),
          product.strideC());
    }
    fits(
        "D",
        operands.d(),
        product.m(),
        product.n(),
        product.ldd(),
        columnMajor,
        product.batch(),
        product.strideD());
    DeviceBuffer<?> workspace = operands.workspace();
    if (simulated.workspaceBytes() > 0
        && (workspace == null || workspace.byteSize() < simulated.workspaceBytes())) {
      throw new IllegalArgumentException(
          "simulated matmul: the plan needs "
              + simulated.workspaceBytes()
              + " bytes of workspace but was given "
              + (workspace == null ? "none" : workspace.byteSize()));
    }
    simulated.kernel().load(device);
    return SimulatedMatmulKernel.launch(
        simulated.kernel(), product, operands, simulated.workspaceBytes());
  }

  private static void fits(
      String role,
      DeviceBuffer<?> buffer,
      long rows,
      long cols,
      long ld,
      boolean columnMajor,
      int batch,
      long stride) {
    long elements = SimulatedMatmulKernel.extent(rows, cols, ld, columnMajor, batch, stride);
    if (buffer.length() < elements) {
      throw new IllegalArgumentException(
          "simulated matmul: "
              + role
              + " spans "
              + elements
              + " elements but "
              + buffer
              + " holds "
              + buffer.length());
    }
  }

  /** {@return how many plans the heuristic made: one per distinct product and limit} */
  int plansMade() {
    return planned.get();
  }

  /**
   * Unloads each plan's kernel once no node of it can run: the image stays loaded while an
   * execution or a graph that launched it can run ({@link cuda.graph.KernelImage#unload}), so nodes
   * already made keep running after this.
   */
  @Override
  public void close() {
    closed = true;
    for (SimulatedPlan plan : plans.values()) {
      plan.kernel().image().unload(device);
    }
    plans.clear();
  }

  private void requireOpen(String what) {
    if (closed) {
      throw new IllegalStateException(
          "simulated matmul "
              + what
              + ": the backend of device "
              + device.ordinal()
              + " is closed");
    }
  }
}
