package cuda.graph.conformance;

import cuda.graph.spi.DriverCall;

/**
 * One call that reached an {@link InstrumentedDriver}.
 *
 * @param call the entry point
 * @param status the {@code CUresult} the caller saw: 0 for success, the driver's or the injected
 *     status for a failure, -1 when the call was refused or the provider threw something else
 * @param outcome what happened to the call
 * @param thread the name of the calling thread
 */
public record LoggedCall(DriverCall call, int status, Outcome outcome, String thread) {

  /** What happened to a call. */
  public enum Outcome {
    /** The provider ran it and it succeeded. */
    SUCCEEDED,
    /** The provider ran it and it failed with {@link #status()}. */
    FAILED,
    /**
     * A fault was injected in its place: the provider never saw it (or, for "no graph", saw it
     * succeed).
     */
    INJECTED,
    /**
     * It would have used a destroyed handle: refused with a {@link ConformanceViolation}, never
     * delegated.
     */
    REFUSED,
    /** The provider threw something other than a {@code CudaDriverException}. */
    THREW
  }

  @Override
  public String toString() {
    return call.symbol()
        + " -> "
        + (status == 0 ? outcome.toString() : outcome + " " + status)
        + " ["
        + thread
        + "]";
  }
}
