// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.ScopeBody;
import cuda.graph.internal.runtime.AuxLanes.Lane;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Records work into a graph that exists, on an auxiliary lane: the lane captures into the graph
 * ({@code cuStreamBeginCaptureToGraph}), the work records through an execution on the lane, and the
 * lane's capture ends on every path. Used for each body of a conditional node (the graph is the
 * body the node owns, the execution a branch of the enclosing capture) and for a foreign node
 * recorded as one child-graph node (a scratch graph the caller destroys). The lane execution's
 * leases go to the enclosing execution, so they last as long as its own.
 */
final class LaneCapture {

  private LaneCapture() {}

  /** Records a conditional node's body through a scope of its own, a branch of the capture. */
  static void record(Execution enclosing, CuGraph bodyGraph, ScopeBody body) {
    record(
        enclosing,
        bodyGraph,
        null,
        execution -> {
          ScopeImpl scope = new ScopeImpl(execution, false);
          try {
            body.record(scope);
          } finally {
            scope.close();
          }
        });
  }

  /**
   * Records {@code work} into {@code graph} on a lane of {@code enclosing}'s device.
   *
   * @param capture what the lane's execution captures for, when {@code enclosing} is not a capture
   *     (a replacement prepared for a recorded node); null to capture as a branch of {@code
   *     enclosing}'s own capture
   */
  static void record(
      Execution enclosing, CuGraph graph, @Nullable Object capture, Consumer<Execution> work) {
    CudaDriver driver = enclosing.driver;
    Lane lane = enclosing.borrowLane();
    CuStream stream = lane.stream().handle();
    try {
      driver.streamBeginCaptureToGraph(stream, graph, List.of(), CaptureMode.RELAXED);
    } catch (RuntimeException | Error e) {
      enclosing.device.auxLanes().giveBack(lane);
      throw e;
    }
    Execution execution =
        capture == null ? enclosing.branch(lane.stream()) : new Execution(lane.stream(), capture);
    Throwable failure = null;
    try {
      work.accept(execution);
    } catch (RuntimeException | Error e) {
      failure = e;
    } finally {
      enclosing.adopt(execution);
    }
    end(driver, lane, failure);
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
  }

  /**
   * Ends the lane's capture (the graph stays its owner's) and gives the lane back once it captures
   * no more; a failure to end is added to the work's failure, or thrown. A failed end may leave the
   * lane capturing into the graph, which its owner then destroys: the capture is ended once more
   * first, and the lane is given back only when it no longer captures.
   */
  private static void end(CudaDriver driver, Lane lane, @Nullable Throwable failure) {
    CuStream stream = lane.stream().handle();
    RuntimeException endFailure = null;
    try {
      driver.streamEndCapture(stream);
    } catch (RuntimeException e) {
      endFailure = e;
    }
    boolean free = endFailure == null;
    if (!free) {
      try {
        if (driver.streamIsCapturing(stream) != CaptureStatus.NONE) {
          driver.streamEndCapture(stream); // returns the graph, which stays its owner's
        }
        free = driver.streamIsCapturing(stream) == CaptureStatus.NONE;
      } catch (RuntimeException e) {
        endFailure.addSuppressed(e);
      }
    }
    if (free) {
      lane.stream().device().auxLanes().giveBack(lane);
    } // else: a lane stuck in capture is never reused; the device destroys it when it closes
    if (endFailure != null) {
      if (failure != null) {
        failure.addSuppressed(endFailure);
      } else {
        throw endFailure;
      }
    }
  }
}
