// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One try of the fault-injection soak: what is captured ({@link Target}), the steps its graph runs,
 * and what fails.
 *
 * @param target how the steps are captured and replayed
 * @param sequence the steps, over a {@link Workspace}
 * @param fault what fails, and where
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record SoakTry(Target target, OpSequence sequence, SoakFault fault) {

  /**
   * How a try captures and replays its steps.
   *
   * @since 0.1.0
   */
  public enum Target {
    /** {@code CudaGraph.capture} of the steps as one op, then two launches. */
    CAPTURE,
    /** {@code CudaGraph.scope} recording each step, then two launches. */
    SCOPE,
    /**
     * {@code Module.capture} of the steps over an input buffer and an output copy, then two {@code
     * forward} calls.
     */
    MODULE
  }

  @Override
  public String toString() {
    return target + " of " + sequence + " with " + fault;
  }
}
