// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.DriverCall;
import org.apiguardian.api.API;

/**
 * One call made through an {@link InstrumentedDriver}, as its {@link CallLog} records it.
 *
 * @param call the entry point
 * @param arguments the arguments, formatted for reading (empty while the log was off)
 * @param status the {@code CUresult} the caller saw: 0 for success, the driver's or the injected
 *     status for a failure, -1 when the call was refused or the driver threw something else
 * @param outcome what happened to the call
 * @param thread the name of the calling thread
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record LoggedCall(
    DriverCall call, String arguments, int status, Outcome outcome, String thread) {

  /**
   * What happened to a call.
   *
   * @since 0.1.0
   */
  public enum Outcome {
    /** The driver ran it and it succeeded, or it has not returned yet. */
    SUCCEEDED,
    /** The driver ran it and it failed with {@link #status()}. */
    FAILED,
    /**
     * A fault was injected in its place: the driver never saw it (or, for "no graph", saw it
     * succeed).
     */
    INJECTED,
    /** It broke a handle's lifetime: refused with a {@link LifetimeViolation}. */
    REFUSED,
    /** The driver threw something other than a {@code CudaDriverException}. */
    THREW
  }

  @Override
  public String toString() {
    String result = status == 0 ? outcome.toString() : outcome + " " + status;
    return call.symbol() + "(" + arguments + ") -> " + result + " [" + thread + "]";
  }
}
