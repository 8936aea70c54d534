package cuda.graph.conformance;

import cuda.graph.spi.CudaDriver;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Runs {@link HandleLifetimeContract} against the {@code cuda} provider on a GPU host (see {@code
 * gpu-tests.sh}); skipped with the provider's one-line reason where it is unavailable.
 */
@Tag("gpu")
@AddLifecycleHook(CudaUnderTest.SkipUnlessAvailable.class)
class CudaHandleLifetimeTests implements HandleLifetimeContract {

  @Override
  public CudaDriver openDriver() {
    return CudaUnderTest.openDriver();
  }

  @Override
  public String providerId() {
    return "cuda";
  }
}
