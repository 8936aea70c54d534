// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.spi.CuContext;
import org.jspecify.annotations.Nullable;

/**
 * Keeps each thread's current CUDA context bound to the device it issues work for. The driver needs
 * the context current on the calling thread; remembering what the library last made current on each
 * thread makes the common case (already bound) free of driver calls.
 *
 * <p>A thread's current context belongs to the process, not to a platform: two platforms over the
 * real driver share it, and when one of them closes (and makes no context current) the other must
 * bind again. So what was last made current is remembered once per thread, for every platform, with
 * the driver that made it current.
 */
public final class ThreadBinding {

  /** What the library last made current on a thread, and through which driver. */
  private static final class Current {
    @Nullable TranslatingDriver driver;
    @Nullable CuContext context;
  }

  private static final ThreadLocal<Current> CURRENT = ThreadLocal.withInitial(Current::new);

  private final TranslatingDriver driver;

  public ThreadBinding(TranslatingDriver driver) {
    this.driver = driver;
  }

  /**
   * Makes {@code context} current on this thread, unless the library already did, through this
   * driver.
   */
  public void bind(CuContext context) {
    Current current = CURRENT.get();
    if (current.context != context || current.driver != driver) {
      driver.ctxSetCurrent(context);
      current.driver = driver;
      current.context = context;
    }
  }

  /**
   * Checks, after foreign code ran on this thread, that {@code context} is still current, and makes
   * it current again if the foreign code changed it.
   */
  public void rebindIfChanged(CuContext context) {
    if (!context.equals(driver.ctxGetCurrent())) {
      driver.ctxSetCurrent(context);
    }
    Current current = CURRENT.get();
    current.driver = driver;
    current.context = context;
  }

  /** Forgets what this thread has bound: code outside the library may have changed it. */
  public void forget() {
    Current current = CURRENT.get();
    current.driver = null;
    current.context = null;
  }
}
