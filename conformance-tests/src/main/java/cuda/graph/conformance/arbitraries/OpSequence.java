// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.spi.DriverCall;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A sequence of graph-node steps over a {@link Workspace}, run in order on one stream: the unit of
 * GPU work the capture properties record, replay and execute eagerly. {@link #applyTo} is its Java
 * model.
 *
 * @param steps the steps, at least one
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record OpSequence(List<OpStep> steps) {

  /**
   * Copies {@code steps}.
   *
   * @throws IllegalArgumentException if {@code steps} is empty
   */
  public OpSequence {
    steps = List.copyOf(steps);
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("an op sequence has at least one step");
    }
  }

  /** {@return the number of steps} */
  public int size() {
    return steps.size();
  }

  /**
   * {@return a new graph node running every step on {@code workspace}, in order}
   *
   * @param workspace the buffers the steps read and write
   */
  @CheckReturnValue
  public GraphNode<@Nullable Void> node(Workspace workspace) {
    return build(workspace, -1, () -> {});
  }

  /**
   * {@return a new graph node running the steps on {@code workspace}, that runs {@code hostAction}
   * on the host right after step {@code afterStep} has been issued}; if the action throws, the
   * later steps are never issued
   *
   * @param workspace the buffers the steps read and write
   * @param afterStep the index of the step after which {@code hostAction} runs
   * @param hostAction run once per execution of the node, on the executing thread
   * @throws IndexOutOfBoundsException if {@code afterStep} is not a step's index
   */
  @CheckReturnValue
  public GraphNode<@Nullable Void> node(Workspace workspace, int afterStep, Runnable hostAction) {
    Objects.checkIndex(afterStep, steps.size());
    return build(workspace, afterStep, Objects.requireNonNull(hostAction, "hostAction"));
  }

  private GraphNode<@Nullable Void> build(Workspace workspace, int afterStep, Runnable hostAction) {
    GraphNode<@Nullable Void> node = DeviceOp.value(null);
    for (int i = 0; i < steps.size(); i++) {
      node = node.andThen(steps.get(i).node(workspace));
      if (i == afterStep) {
        node =
            node.map(
                ignored -> {
                  hostAction.run();
                  return null;
                });
      }
    }
    return node;
  }

  /**
   * {@return n such that step {@code index} makes the n-th call of its {@link OpStep#driverCall()}
   * among this sequence's calls} (1 for the first), which is what a fault aimed at it counts
   *
   * @param index the step's index in {@link #steps()}
   */
  public int callOrdinal(int index) {
    DriverCall call = steps.get(index).driverCall();
    int n = 0;
    for (int i = 0; i <= index; i++) {
      if (steps.get(i).driverCall() == call) {
        n++;
      }
    }
    return n;
  }

  /**
   * {@return the state after running this sequence on {@code state} (which is left unchanged)}
   *
   * @param state the host model before the first step
   */
  public WorkspaceState applyTo(WorkspaceState state) {
    WorkspaceState next = state.copy();
    steps.forEach(step -> step.applyTo(next));
    return next;
  }

  @Override
  public String toString() {
    return "OpSequence" + steps;
  }
}
