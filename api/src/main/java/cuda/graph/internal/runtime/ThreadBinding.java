package cuda.graph.internal.runtime;

import cuda.graph.spi.CuContext;
import org.jspecify.annotations.Nullable;

/**
 * Keeps each thread's current CUDA context bound to the device it issues work for. The driver needs
 * the context current on the calling thread; remembering what this platform last bound on each
 * thread makes the common case (already bound) free of driver calls.
 */
public final class ThreadBinding {

  private final TranslatingDriver driver;
  private final ThreadLocal<@Nullable CuContext> bound = new ThreadLocal<>();

  public ThreadBinding(TranslatingDriver driver) {
    this.driver = driver;
  }

  /** Makes {@code context} current on this thread, unless this platform already did. */
  public void bind(CuContext context) {
    if (bound.get() != context) {
      driver.ctxSetCurrent(context);
      bound.set(context);
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
    bound.set(context);
  }

  /** Forgets what this thread has bound: code outside the library may have changed it. */
  public void forget() {
    bound.remove();
  }
}
