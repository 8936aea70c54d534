// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ForeignStream;
import cuda.graph.internal.ops.ForeignNodeOp;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.RefCount;
import java.util.Objects;

/**
 * The view a foreign node's work gets of one execution: the addresses were leased before the work
 * is called, and the view is closed when it returns.
 */
public final class ForeignStreamImpl implements ForeignStream {

  private static final System.Logger LOG = System.getLogger("cuda.graph");

  private final ForeignNodeOp node;
  private final Execution execution;
  private final long[] addresses;
  private final Thread owner = Thread.currentThread();
  private boolean open = true;

  private ForeignStreamImpl(ForeignNodeOp node, Execution execution, long[] addresses) {
    this.node = node;
    this.execution = execution;
    this.addresses = addresses;
  }

  /** Leases the node's buffers for the execution and runs its work on the execution's stream. */
  static void run(ForeignNodeOp node, Execution ex) {
    long[] addresses = new long[node.buffers.size()];
    for (int i = 0; i < addresses.length; i++) {
      addresses[i] = ex.use(node.buffers.get(i));
    }
    ForeignStreamImpl stream = new ForeignStreamImpl(node, ex, addresses);
    try {
      node.work.enqueue(stream);
    } finally {
      stream.open = false;
      // Foreign code may have changed the thread's current context: bind ours again if so.
      ex.platform.binding().rebindIfChanged(ex.device.context());
    }
  }

  @Override
  public long handle() {
    checkOpen();
    return execution.cuStream.address();
  }

  @Override
  public Device device() {
    checkOpen();
    return execution.device;
  }

  @Override
  public boolean isCapturing() {
    checkOpen();
    return execution.isCapturing();
  }

  @Override
  public long address(DeviceBuffer<?> buffer) {
    checkOpen();
    for (int i = 0; i < addresses.length; i++) {
      if (node.buffers.get(i) == buffer) {
        return addresses[i];
      }
    }
    throw new IllegalArgumentException(
        buffer
            + " is not one of the buffers "
            + node
            + " declared, so the node does not lease it and it could be freed while the work uses"
            + " it; list it in GraphNode.foreign's buffers");
  }

  @Override
  public void onRelease(Runnable action) {
    checkOpen();
    Objects.requireNonNull(action, "action");
    execution.hold(
        new RefCount(
            () -> {
              try {
                action.run();
              } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a release action of " + node + " threw", e);
              }
            }));
  }

  private void checkOpen() {
    if (!open || Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "the ForeignStream of "
              + node
              + " is valid only during its work's enqueue call, on the thread that made it");
    }
  }

  @Override
  public String toString() {
    return "ForeignStream of " + node + " on " + execution.stream;
  }
}
