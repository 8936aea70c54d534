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
import org.jspecify.annotations.Nullable;

/**
 * Records one body of a conditional node: an auxiliary lane captures into the body graph the node
 * owns ({@code cuStreamBeginCaptureToGraph}), a scope of its own records the body through an
 * execution of the same capture, and the lane's capture ends on every path. The body's leases go to
 * the enclosing execution, so they last as long as the graph.
 */
final class ConditionalBody {

  private ConditionalBody() {}

  static void record(Execution enclosing, CuGraph bodyGraph, ScopeBody body) {
    CudaDriver driver = enclosing.driver;
    Lane lane = enclosing.borrowLane();
    CuStream stream = lane.stream().handle();
    try {
      driver.streamBeginCaptureToGraph(stream, bodyGraph, List.of(), CaptureMode.RELAXED);
    } catch (RuntimeException | Error e) {
      enclosing.device.auxLanes().giveBack(lane);
      throw e;
    }
    Execution execution = enclosing.branch(lane.stream());
    ScopeImpl scope = new ScopeImpl(execution, false);
    Throwable failure = null;
    try {
      body.record(scope);
    } catch (RuntimeException | Error e) {
      failure = e;
    } finally {
      scope.close();
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
   * Ends the lane's capture (the body graph stays the conditional node's) and gives the lane back
   * once it captures no more; a failure to end is added to the body's failure, or thrown. A failed
   * end may leave the lane capturing into the body graph, which the enclosing capture's failure
   * then destroys: the capture is ended once more first, and the lane is given back only when it no
   * longer captures.
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
          driver.streamEndCapture(stream); // returns the body graph, which the node owns
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
