// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.GraphNode;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.DriverCall;
import java.util.Arrays;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One graph-node step of an {@link OpSequence} over the buffers of a {@link Workspace}: a kernel
 * launch, a fill or a device-to-device copy. Each step makes exactly one driver call when it is
 * executed or recorded ({@link #driverCall()}), and {@link #applyTo} computes on the host what it
 * computes on the device.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface OpStep {

  /** {@return the one driver call this step makes, where a fault can be injected into it} */
  DriverCall driverCall();

  /**
   * {@return a new graph node doing this step on {@code workspace}'s buffers}
   *
   * @param workspace the buffers the step reads and writes
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> node(Workspace workspace);

  /**
   * Applies this step to the host model {@code state}, in place.
   *
   * @param state the host model, changed as the device's buffers would be
   */
  void applyTo(WorkspaceState state);

  /**
   * {@code inc} on integer buffer {@code counter}: every element + 1.
   *
   * @param counter the integer buffer's index in the workspace
   * @since 0.1.0
   */
  record Inc(int counter) implements OpStep {
    @Override
    public DriverCall driverCall() {
      return DriverCall.LAUNCH_KERNEL;
    }

    @Override
    @CheckReturnValue
    public GraphNode<@Nullable Void> node(Workspace workspace) {
      return ConformanceKernels.inc(workspace.ints(counter));
    }

    @Override
    public void applyTo(WorkspaceState state) {
      ConformanceKernels.inc(state.ints(counter));
    }
  }

  /**
   * A fill of integer buffer {@code counter} with {@code value} ({@code cuMemsetD32Async}).
   *
   * @param counter the integer buffer's index in the workspace
   * @param value the value of every element
   * @since 0.1.0
   */
  record Fill(int counter, int value) implements OpStep {
    @Override
    public DriverCall driverCall() {
      return DriverCall.MEMSET_D32_ASYNC;
    }

    @Override
    @CheckReturnValue
    public GraphNode<@Nullable Void> node(Workspace workspace) {
      return workspace.ints(counter).fill(value);
    }

    @Override
    public void applyTo(WorkspaceState state) {
      Arrays.fill(state.ints(counter), value);
    }
  }

  /**
   * A device-to-device copy of integer buffer {@code from} into integer buffer {@code to}.
   *
   * @param from the index of the integer buffer read
   * @param to the index of the integer buffer overwritten; another buffer than {@code from}
   * @since 0.1.0
   */
  record Copy(int from, int to) implements OpStep {
    @Override
    public DriverCall driverCall() {
      return DriverCall.MEMCPY_DTOD_ASYNC;
    }

    @Override
    @CheckReturnValue
    public GraphNode<@Nullable Void> node(Workspace workspace) {
      return workspace.ints(to).copyFrom(workspace.ints(from));
    }

    @Override
    public void applyTo(WorkspaceState state) {
      int[] source = state.ints(from);
      System.arraycopy(source, 0, state.ints(to), 0, source.length);
    }
  }

  /**
   * {@code saxpy}: float buffer {@code y} = {@code a} * float buffer {@code x} + {@code y}.
   *
   * @param a the scale of {@code x}
   * @param x the index of the float buffer read
   * @param y the index of the float buffer read and overwritten
   * @since 0.1.0
   */
  record Saxpy(float a, int x, int y) implements OpStep {
    @Override
    public DriverCall driverCall() {
      return DriverCall.LAUNCH_KERNEL;
    }

    @Override
    @CheckReturnValue
    public GraphNode<@Nullable Void> node(Workspace workspace) {
      return ConformanceKernels.saxpy(a, workspace.floats(x), workspace.floats(y));
    }

    @Override
    public void applyTo(WorkspaceState state) {
      ConformanceKernels.saxpy(a, state.floats(x), state.floats(y));
    }
  }

  /**
   * A fill of float buffer {@code target} with {@code value} ({@code cuMemsetD32Async} of its
   * bits).
   *
   * @param target the float buffer's index in the workspace
   * @param value the value of every element
   * @since 0.1.0
   */
  record FillFloats(int target, float value) implements OpStep {
    @Override
    public DriverCall driverCall() {
      return DriverCall.MEMSET_D32_ASYNC;
    }

    @Override
    @CheckReturnValue
    public GraphNode<@Nullable Void> node(Workspace workspace) {
      return workspace.floats(target).fill(value);
    }

    @Override
    public void applyTo(WorkspaceState state) {
      Arrays.fill(state.floats(target), value);
    }
  }
}
