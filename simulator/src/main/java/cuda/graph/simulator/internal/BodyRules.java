// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphNodeType;
import java.util.EnumSet;
import java.util.Set;

/**
 * What the body graphs of conditional nodes may hold, checked (recursively) when the graph holding
 * them is instantiated: the one place that decides, so that the status can follow what a GPU
 * answers.
 */
final class BodyRules {

  /**
   * The node types a body may hold, from {@code CUDA_CONDITIONAL_NODE_PARAMS}: "kernel nodes, empty
   * nodes, child graphs, memsets, memcopies, and conditionals", recursively.
   */
  static final Set<GraphNodeType> ALLOWED =
      EnumSet.of(
          GraphNodeType.KERNEL,
          GraphNodeType.MEMCPY,
          GraphNodeType.MEMSET,
          GraphNodeType.EMPTY,
          GraphNodeType.GRAPH,
          GraphNodeType.CONDITIONAL);

  /**
   * The status instantiation fails with when a body holds another node type. The CUDA documentation
   * names no code; CUDA_ERROR_NOT_SUPPORTED is assumed until measured on a GPU.
   */
  static final int DISALLOWED_NODE_STATUS = CuResult.NOT_SUPPORTED;

  private BodyRules() {}

  /** Checks the bodies of every conditional node of {@code graph}, at any depth. */
  static void check(SimGraph graph, DriverCall call) {
    for (Node node : graph.nodes) {
      if (node.op instanceof Op.Conditional conditional) {
        for (SimGraph body : conditional.bodies()) {
          checkBody(body, node, call);
        }
      }
    }
  }

  private static void checkBody(SimGraph body, Node conditional, DriverCall call) {
    if (body.capturing != null) {
      body.capturing.invalidate();
      throw fail(
          CuResult.STREAM_CAPTURE_UNSUPPORTED,
          call,
          "body "
              + body.handle
              + " of "
              + conditional.handle
              + " is still being captured ("
              + body.capturing
              + "); the capture is invalidated");
    }
    for (Node node : body.nodes) {
      GraphNodeType type = node.op.type();
      if (!ALLOWED.contains(type)) {
        throw fail(
            DISALLOWED_NODE_STATUS,
            call,
            "body "
                + body.handle
                + " of conditional node "
                + conditional.handle
                + " holds a "
                + type
                + " node ("
                + node.op.describe()
                + "); conditional bodies may hold only "
                + ALLOWED
                + " nodes");
      }
    }
    check(body, call);
  }
}
