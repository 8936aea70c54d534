package cuda.graph.conformance;

import cuda.graph.spi.CudaDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * Runs {@link CoreApiContract} against the {@code cuda} provider on a GPU host; skipped with the
 * provider's one-line reason where it is unavailable.
 */
@Tag("gpu")
class CudaCoreApiTests implements CoreApiContract {

  @BeforeAll
  static void requireCuda() {
    CudaUnderTest.abortUnlessAvailable();
  }

  @Override
  public CudaDriver openDriver() {
    return CudaUnderTest.openDriver();
  }

  @Override
  public String providerId() {
    return "cuda";
  }
}
