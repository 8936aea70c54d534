// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What fails in one try of the fault-injection soak.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface SoakFault {

  /**
   * A failure point of the capture-failure matrix ({@link CaptureFault}), during the try's capture:
   * the op fails (driver error, {@code RuntimeException} or {@code Error} thrown after a step, for
   * a scope thrown by its body), alone or with a failing or graph-less end, or a protocol step
   * fails.
   *
   * @param fault the matrix's failure point
   * @since 0.1.0
   */
  record Matrix(CaptureFault fault) implements SoakFault {}

  /**
   * One driver call of the whole try fails with {@code status}: of the calls a fault-free run of
   * the same try makes on the calling thread (destroy, free and release calls excepted, and the
   * calls of entry points other threads also make), the one at {@code pick} modulo their number.
   *
   * @param pick which call, taken modulo the number of candidates
   * @param status the {@code CUresult} the call fails with
   * @since 0.1.0
   */
  record AtCall(int pick, int status) implements SoakFault {}

  /**
   * A host callback after step {@code step} throws, every time the graph runs it; the driver drops
   * what it throws, so the try must succeed.
   *
   * @param step after which step (modulo the sequence's size)
   * @param error whether it throws an {@code Error} rather than a {@code RuntimeException}
   * @since 0.1.0
   */
  record HostCallbackThrows(int step, boolean error) implements SoakFault {}

  /**
   * A function the try passes to the API throws.
   *
   * @param where which function
   * @param step after which step (modulo the sequence's size), or, for a module's binding and
   *     output function, which forward call fails ({@code step % 2}: the first or the second)
   * @param error whether it throws an {@code Error} rather than a {@code RuntimeException}
   * @since 0.1.0
   */
  record LambdaThrows(Lambda where, int step, boolean error) implements SoakFault {}

  /**
   * Nothing fails: the try must compute what its Java model computes.
   *
   * @since 0.1.0
   */
  record None() implements SoakFault {}

  /**
   * The functions a try passes to the API.
   *
   * @since 0.1.0
   */
  enum Lambda {
    /** A {@code thenNode} function inside the captured op (or a recorded node). */
    THEN_NODE,
    /** The body of {@code CudaGraph.scope}, after recording a step. */
    SCOPE_BODY,
    /** A module's {@code InputBinding.copyIn}. */
    INPUT_BINDING,
    /** A module's output function, run after the replay. */
    OUTPUT_FUNCTION
  }
}
