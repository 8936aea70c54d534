package cuda.graph.conformance;

import cuda.graph.spi.DriverCall;
import java.io.Serial;
import org.jspecify.annotations.Nullable;

/**
 * A caller broke the driver contract: it used a handle after destroying it, destroyed one twice,
 * released a context it did not retain, or left handles alive. Thrown by {@link InstrumentedDriver}
 * <em>before</em> the call reaches the real driver (where it could crash the process), and by
 * {@link ConformanceSession#close()} for leaks.
 *
 * <p>An {@link AssertionError}, so that test frameworks report it as a failed test, and so that
 * library code that catches {@code RuntimeException} (a cleaner, a release queue) cannot swallow
 * it. Every violation is also recorded in {@link InstrumentedDriver#violations()}, because one
 * thrown on a thread nobody joins (a cleaner) would otherwise go unseen.
 */
public final class ConformanceViolation extends AssertionError {

  @Serial private static final long serialVersionUID = 1L;

  private final @Nullable DriverCall call;

  /** A violation found at a call to {@code call} (null when found outside a driver call). */
  public ConformanceViolation(@Nullable DriverCall call, String message) {
    super(call == null ? message : call.symbol() + ": " + message);
    this.call = call;
  }

  /**
   * {@return the driver entry point the violation was found at, or null for a leak found at the
   * end}
   */
  public @Nullable DriverCall call() {
    return call;
  }
}
