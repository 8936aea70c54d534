// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.DriverCall;
import java.io.Serial;
import org.apiguardian.api.API;

/**
 * A call broke a handle's lifetime: it used or destroyed a handle (or memory) that was already
 * destroyed, released a primary context more often than it retained it, or the driver handed out a
 * handle that was still live. Thrown by {@link InstrumentedDriver} <em>before</em> the call reaches
 * the driver it wraps, where a dangling handle could crash the process.
 *
 * <p>An {@link AssertionError}, so that test frameworks report it as a failed test, and so that
 * library code that catches {@code RuntimeException} (a cleaner, a release queue) cannot swallow
 * it. Every violation is also kept in {@link InstrumentedDriver#violations()}, because one thrown
 * on a thread nobody joins would otherwise go unseen.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class LifetimeViolation extends AssertionError {

  @Serial private static final long serialVersionUID = 1L;

  /** The entry point the violation was found at. */
  private final DriverCall call;

  /**
   * A violation found at a call of {@code call}.
   *
   * @param call the entry point that broke a lifetime
   * @param message what the call did wrong, and which call ended the lifetime it broke
   */
  public LifetimeViolation(DriverCall call, String message) {
    super(call.symbol() + ": " + message);
    this.call = call;
  }

  /** {@return the driver entry point the violation was found at} */
  public DriverCall call() {
    return call;
  }
}
