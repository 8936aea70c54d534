// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.CuResult;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.apiguardian.api.API;

/**
 * Where a graph capture fails, for the capture-failure matrix: a failure of the captured op itself
 * (optionally together with a failure to end the capture), or of one driver step of the capture
 * protocol.
 *
 * @param point what fails
 * @param end what ending the capture does; always {@link EndCapture#SUCCEEDS} unless the op fails
 *     (other points say themselves whether ending fails)
 * @param step for op failures: which step of the sequence fails (taken modulo its size)
 * @param status the {@code CUresult} injected at the failing driver call
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CaptureFault(Point point, EndCapture end, int step, int status) {

  /** The status an end-capture call fails with when it fails together with the op. */
  public static final int END_CAPTURE_STATUS = CuResult.STREAM_CAPTURE_INVALIDATED;

  /**
   * What fails.
   *
   * @since 0.1.0
   */
  public enum Point {
    /**
     * A driver call of one of the op's steps fails (injected): the op fails with {@code
     * CudaDriverError}.
     */
    OP_DRIVER_ERROR,
    /** The op throws a {@code RuntimeException} on the host after one of its steps. */
    OP_RUNTIME_EXCEPTION,
    /** The op throws an {@code Error} on the host after one of its steps. */
    OP_ERROR,
    /** {@code cuStreamBeginCapture_v2} fails: the op never runs. */
    BEGIN_CAPTURE,
    /** {@code cuStreamEndCapture} fails after the op succeeded. */
    END_CAPTURE,
    /** {@code cuStreamEndCapture} reports success but returns no graph. */
    END_CAPTURE_NO_GRAPH,
    /** {@code cuGraphInstantiateWithFlags} fails. */
    INSTANTIATE,
    /** {@code cuGraphUpload} fails. */
    UPLOAD,
    /** The {@code cuStreamSynchronize} that drains the upload fails. */
    SYNCHRONIZE;

    /** {@return whether the captured op itself fails} */
    public boolean isOpFailure() {
      return this == OP_DRIVER_ERROR || this == OP_RUNTIME_EXCEPTION || this == OP_ERROR;
    }
  }

  /**
   * What ending the capture does when the op failed.
   *
   * @since 0.1.0
   */
  public enum EndCapture {
    /** It returns a graph (which must then be destroyed). */
    SUCCEEDS,
    /**
     * It fails with {@link #END_CAPTURE_STATUS} (which must be attached to the op's failure as
     * suppressed).
     */
    FAILS,
    /** It reports success without a graph. */
    RETURNS_NO_GRAPH
  }

  /**
   * {@return every failure point, with every end-capture outcome for op failures}: 3 x 3 op
   * failures and 6 protocol-step failures, 15 kinds, equally likely by point
   */
  public static Arbitrary<CaptureFault> faults() {
    return Combinators.combine(
            Arbitraries.of(Point.class),
            Arbitraries.of(EndCapture.class),
            Arbitraries.integers().between(0, 63),
            Arbitraries.of(
                CuResult.INVALID_VALUE,
                CuResult.OUT_OF_MEMORY,
                CuResult.NOT_SUPPORTED,
                CuResult.UNKNOWN))
        .as(
            (point, end, step, status) ->
                new CaptureFault(
                    point, point.isOpFailure() ? end : EndCapture.SUCCEEDS, step, status));
  }
}
