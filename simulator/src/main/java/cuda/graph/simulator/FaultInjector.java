package cuda.graph.simulator;

import cuda.graph.spi.DriverCall;
import java.util.List;

/**
 * Makes chosen driver calls fail. An injected failure replaces the call: the call changes no state
 * and throws {@link cuda.graph.spi.CudaDriverException} with the chosen status, as an argument
 * error would. Thread-safe.
 */
public interface FaultInjector {

  /**
   * Makes the {@code nth} call of {@code call} from now on (1 = the next one) fail with {@code
   * status}. Each rule fires once.
   */
  void failNth(DriverCall call, int nth, int status);

  /**
   * Makes every call of {@code call} from now on fail with {@code status}, until {@link #clear()}.
   */
  void failAlways(DriverCall call, int status);

  /** {@return the rules that have not fired yet, described for reading} */
  List<String> pending();

  /** {@return how many injected failures have fired} */
  long fired();

  /** Removes every rule. */
  void clear();
}
