package cuda.graph.simulator;

import cuda.graph.spi.DriverCall;

/**
 * One call to a simulated driver.
 *
 * @param call the entry point
 * @param arguments the arguments, formatted for reading
 * @param status the {@code CUresult} the call produced (0 for success)
 * @param thread the name of the calling thread
 */
public record CallRecord(DriverCall call, String arguments, int status, String thread) {

  @Override
  public String toString() {
    return call.symbol() + "(" + arguments + ") = " + status + " [" + thread + "]";
  }
}
