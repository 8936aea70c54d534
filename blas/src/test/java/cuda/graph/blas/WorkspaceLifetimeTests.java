// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import org.junit.jupiter.api.Test;

/**
 * Workspaces are owned per graph: {@link WorkspaceSoak} on the simulator, eight graphs captured on
 * one stream, some sharing a workspace, through a seeded random sequence of captures, replays,
 * destroys and workspaces closed and replaced under live graphs. Every replay gives the eager
 * result bit for bit, nothing is allocated while the stream captures, and nothing is left once
 * everything is closed. {@code CudaWorkspaceLifetimeGpuTests} runs the same soak on a GPU.
 */
class WorkspaceLifetimeTests {

  private static final int STEPS = 400;

  @Test
  void graphsSharingOrNotSharingWorkspacesReplayCorrectlyThroughRandomCreatesReplaysAndDestroys() {
    WorkspaceSoak.Outcome outcome =
        new WorkspaceSoak(
                "simulator",
                () -> Simulator.builder().reuseHandleValues(true).build(),
                6,
                STEPS,
                20260524)
            .run();

    // The simulator's need grows with m x n: slot 2's is the largest of slots 0-2.
    long largest = outcome.needs().get(2);
    assertEquals(
        largest, outcome.workspaceBytes().get(0), "the largest need of slots 0-2, not the sum");
    assertTrue(largest < outcome.needs().get(0) * 3);
    assertTrue(outcome.workspaceBytes().get(0) < outcome.sumOfNeeds(0));
  }
}
