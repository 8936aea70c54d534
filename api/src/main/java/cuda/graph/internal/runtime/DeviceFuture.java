package cuda.graph.internal.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The future {@link DeviceOp#asyncOn} returns. A plain {@link CompletableFuture}, except that
 * {@link #join()} and {@link #get()} spin briefly before blocking: GPU work often completes within
 * microseconds, and a parked thread takes longer than that to wake up.
 */
public final class DeviceFuture<T extends @Nullable Object> extends CompletableFuture<T> {

  /** How long a waiting caller spins before it parks, in nanoseconds. */
  private static final long SPIN_NANOS = 50_000;

  @Override
  public T join() {
    spinUntilDone();
    return super.join();
  }

  @Override
  public T get() throws InterruptedException, ExecutionException {
    spinUntilDone();
    return super.get();
  }

  private void spinUntilDone() {
    if (isDone()) {
      return;
    }
    long end = System.nanoTime() + SPIN_NANOS;
    while (!isDone() && System.nanoTime() - end < 0) {
      Thread.onSpinWait();
    }
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
