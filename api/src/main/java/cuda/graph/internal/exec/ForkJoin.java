// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import cuda.graph.DeviceOp;
import cuda.graph.internal.ops.ParallelOp;
import cuda.graph.internal.runtime.AuxLanes.Lane;
import cuda.graph.internal.runtime.Execution;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link ParallelOp}: forks an auxiliary lane per branch after the first (its fork event
 * recorded on the executing stream, waited for by the lane), runs the first branch on the executing
 * stream and the others on their lanes, then joins every forked lane back (its join event recorded
 * on the lane, waited for by the executing stream) on every path, so neither eager work nor a
 * capture is ever left unjoined. Captured, the events become the graph's fork and join edges.
 */
final class ForkJoin {

  private ForkJoin() {}

  static List<@Nullable Object> run(ParallelOp<?> op, Execution ex) {
    List<? extends DeviceOp<?>> branches = op.branches;
    List<Lane> forked = new ArrayList<>(branches.size() - 1);
    List<@Nullable Object> results = new ArrayList<>(branches.size());
    try {
      for (int i = 1; i < branches.size(); i++) {
        forked.add(fork(ex));
      }
      results.add(Executor.execute(branches.get(0), ex));
      for (int i = 1; i < branches.size(); i++) {
        Execution branch = ex.branch(forked.get(i - 1).stream());
        try {
          results.add(Executor.execute(branches.get(i), branch));
        } finally {
          ex.adopt(branch);
        }
      }
    } catch (RuntimeException | Error failure) {
      joinAll(ex, forked, failure);
      throw failure;
    }
    joinAll(ex, forked, null);
    return results;
  }

  /** Borrows a lane and orders it after the work enqueued so far on the executing stream. */
  private static Lane fork(Execution ex) {
    Lane lane = ex.borrowLane();
    try {
      ex.driver.eventRecord(lane.fork(), ex.cuStream);
      ex.driver.streamWaitEvent(lane.stream().handle(), lane.fork(), 0);
    } catch (RuntimeException | Error e) {
      // Nothing was enqueued on the lane that needs a join: it is free again.
      ex.device.auxLanes().giveBack(lane);
      throw e;
    }
    return lane;
  }

  /**
   * Orders the executing stream after every forked lane and lends the lanes back. A failure to join
   * is added to {@code failure} when there is one, else thrown once all lanes were tried.
   */
  private static void joinAll(Execution ex, List<Lane> forked, @Nullable Throwable failure) {
    @Nullable RuntimeException joinFailure = null;
    for (Lane lane : forked) {
      try {
        ex.driver.eventRecord(lane.join(), lane.stream().handle());
        ex.driver.streamWaitEvent(ex.cuStream, lane.join(), 0);
      } catch (RuntimeException e) {
        if (failure != null) {
          failure.addSuppressed(e);
        } else if (joinFailure == null) {
          joinFailure = e;
        } else {
          joinFailure.addSuppressed(e);
        }
      } finally {
        ex.lendBack(lane);
      }
    }
    if (joinFailure != null) {
      throw joinFailure;
    }
  }
}
