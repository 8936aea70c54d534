// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.matmul;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatmulPlanReport;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.MatmulBackend;
import cuda.graph.blas.internal.plan.MatmulPlan;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * Matrix products on one device: the checks a node needs beyond the {@link Matmul}'s own (device,
 * closed buffers, workspace), the plans cached by product, and the backend. Plans and nodes are
 * made under the read lock and the close takes the write lock, so the backend is never closed under
 * a call that is using it.
 */
public final class BlasImpl implements Blas {

  private final Device device;
  private final long workspaceLimit;
  private final MatmulBackend backend;
  private final Map<CheckedMatmul, MatmulPlan> plans = new ConcurrentHashMap<>();
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private boolean closed;

  private BlasImpl(Device device, long workspaceLimit, MatmulBackend backend) {
    this.device = device;
    this.workspaceLimit = workspaceLimit;
    this.backend = backend;
  }

  /** {@return matrix products on {@code device}} */
  public static Blas open(Device device, long workspaceLimit) {
    Objects.requireNonNull(device, "device");
    if (workspaceLimit < 0) {
      throw new IllegalArgumentException(
          "Blas.open: workspace limit " + workspaceLimit + " is negative; use 0 or more bytes");
    }
    return withBackend(device, workspaceLimit, Backends.open(device));
  }

  /** {@return matrix products on {@code device} through {@code backend}} */
  static BlasImpl withBackend(Device device, long workspaceLimit, MatmulBackend backend) {
    return new BlasImpl(device, workspaceLimit, backend);
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public long workspaceLimit() {
    return workspaceLimit;
  }

  @Override
  public MatmulPlanReport plan(Matmul matmul) {
    lock.readLock().lock();
    try {
      MatmulPlan plan = planOf("Blas.plan", matmul);
      return new MatmulPlanReport(plan.algorithm(), plan.workspaceBytes());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public DeviceOp<Workspace> workspaceFor(List<Matmul> matmuls) {
    List<Matmul> all = List.copyOf(Objects.requireNonNull(matmuls, "matmuls"));
    if (all.isEmpty()) {
      throw new IllegalArgumentException(
          "Blas.workspaceFor: no matmul given; pass the products that will share the workspace");
    }
    long largest = 1;
    lock.readLock().lock();
    try {
      for (Matmul matmul : all) {
        largest = Math.max(largest, planOf("Blas.workspaceFor", matmul).workspaceBytes());
      }
    } finally {
      lock.readLock().unlock();
    }
    return Workspace.allocate(largest);
  }

  @Override
  public GraphNode<@Nullable Void> matmul(Matmul matmul, Workspace workspace) {
    String call = "Blas.matmul";
    WorkspaceImpl space = WorkspaceImpl.of(workspace);
    lock.readLock().lock();
    try {
      MatmulPlan plan = planOf(call, matmul);
      checkWorkspace(call, plan, space);
      DeviceBuffer<?> declared = plan.workspaceBytes() == 0 ? null : space.buffer();
      return backend.node(plan, Resolution.operands(matmul, declared));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public boolean isClosed() {
    lock.readLock().lock();
    try {
      return closed;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      plans.clear();
      backend.close();
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "Blas[device " + device.ordinal() + ", " + plans.size() + " plans]";
  }

  /** {@return the cached plan of {@code matmul}, planned now if it is new}; under the read lock */
  private MatmulPlan planOf(String call, Matmul matmul) {
    Objects.requireNonNull(matmul, "matmul");
    if (closed) {
      throw new IllegalStateException(call + ": this Blas is closed; open a new one");
    }
    checkBuffers(call, matmul);
    return plans.computeIfAbsent(
        Resolution.product(matmul), product -> backend.plan(product, workspaceLimit));
  }

  /**
   * The checks of the matmul against this device, made again here because buffers close and a
   * description may be used long after it was made.
   */
  private void checkBuffers(String call, Matmul matmul) {
    check(call, "A", matmul.a().buffer());
    check(call, "B", matmul.b().buffer());
    MatrixView c = matmul.c();
    if (c != null) {
      check(call, "C", c.buffer());
    }
    check(call, "D", matmul.d().buffer());
    DeviceBuffer<?> bias = matmul.bias();
    if (bias != null) {
      check(call, "the bias", bias);
    }
  }

  private void check(String call, String role, DeviceBuffer<?> buffer) {
    if (buffer.device().platform() != device.platform()) {
      throw new IllegalArgumentException(
          call
              + ": "
              + role
              + "'s buffer "
              + buffer
              + " belongs to another platform than this Blas; use a Blas opened on the"
              + " buffers' device");
    }
    if (buffer.device() != device) {
      throw new IllegalArgumentException(
          call
              + ": "
              + role
              + "'s buffer lives on device "
              + buffer.device().ordinal()
              + " but this Blas runs on device "
              + device.ordinal()
              + "; use a Blas opened on the buffers' device");
    }
    if (buffer.isClosed()) {
      throw new IllegalStateException(
          call + ": " + role + "'s buffer " + buffer + " is closed; use open buffers");
    }
  }

  private void checkWorkspace(String call, MatmulPlan plan, WorkspaceImpl workspace) {
    if (workspace.device().platform() != device.platform() || workspace.device() != device) {
      throw new IllegalArgumentException(
          call
              + ": "
              + workspace
              + (workspace.device().platform() != device.platform()
                  ? " belongs to another platform"
                  : " lives on another device")
              + " than this Blas (device "
              + device.ordinal()
              + "); allocate the workspace on a stream of the Blas's device");
    }
    if (workspace.isClosed()) {
      throw new IllegalStateException(
          call + ": " + workspace + " is closed; allocate a new one with Blas.workspaceFor");
    }
    if (workspace.byteSize() < plan.workspaceBytes()) {
      throw new IllegalArgumentException(
          call
              + ": the plan ("
              + plan.algorithm()
              + ") needs "
              + plan.workspaceBytes()
              + " bytes of workspace but "
              + workspace
              + " holds "
              + workspace.byteSize()
              + "; allocate one with Blas.workspaceFor, or open the Blas with a smaller workspace"
              + " limit");
    }
  }
}
