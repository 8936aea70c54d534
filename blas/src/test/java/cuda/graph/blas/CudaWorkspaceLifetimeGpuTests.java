// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriverProvider;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * {@link WorkspaceSoak} on the {@code cuda} provider with real cuBLASLt, issue 24's workspace case:
 * eight graphs captured on one stream, some sharing a workspace, through 10,000 random creates,
 * replays and destroys (system property {@value #STEPS_PROPERTY} sets another count), every replay
 * checked bit for bit against the eager result of the same product, the ledger back to zero, no
 * lifetime violation, and each shared workspace as large as the largest need, not the sum. The
 * provider is found through {@link ServiceLoader}, as applications find it, and runs under the test
 * kit's instrumented driver. Where it cannot serve this machine (no GPU), the class is skipped with
 * a one-line reason; a run without the provider installed, or a GPU host without cuBLASLt, fails
 * with the message that says what is missing. On a GPU host: {@code scripts/gpu-run.sh blas-soak}
 * (plainly and under compute-sanitizer memcheck).
 */
@Tag("gpu")
class CudaWorkspaceLifetimeGpuTests {

  /** The system property that sets how many steps the soak runs. */
  static final String STEPS_PROPERTY = "cuda.graph.blas.soak.steps";

  private static final int STEPS = 10_000;

  /**
   * The inner dimension of the products: long enough that cuBLASLt's heuristic may split it and ask
   * for a workspace, which the simulator's 6 would not make it do.
   */
  private static final int INNER = 1024;

  private static @Nullable CudaDriverProvider provider;

  @BeforeAll
  static void findTheCudaProvider() {
    CudaDriverProvider cuda = cudaProvider();
    Availability availability = cuda.availability();
    Assumptions.assumeTrue(
        availability.available(),
        () -> "the 'cuda' provider is unavailable: " + availability.reason());
    // A GPU host without cuBLASLt fails here with the loader's message, as CublasLtGpuTests do:
    // skipping would hide a broken installation.
    provider = cuda;
  }

  /** {@return the installed {@code cuda} provider}, or fails naming those installed */
  private static CudaDriverProvider cudaProvider() {
    // Patched into module cuda.graph.blas, which declares no use of the SPI (a no-op on the class
    // path, where the GPU bundle runs this).
    CudaWorkspaceLifetimeGpuTests.class.getModule().addUses(CudaDriverProvider.class);
    List<CudaDriverProvider> installed =
        ServiceLoader.load(
                CudaDriverProvider.class, CudaWorkspaceLifetimeGpuTests.class.getClassLoader())
            .stream()
            .map(ServiceLoader.Provider::get)
            .toList();
    for (CudaDriverProvider candidate : installed) {
      if (candidate.id().equals("cuda")) {
        return candidate;
      }
    }
    // A run that selects the GPU tests without the provider is misconfigured, not GPU-less.
    throw new AssertionError(
        "the 'cuda' provider is not installed (found "
            + installed.stream().map(CudaDriverProvider::id).toList()
            + "): put cuda-graph-driver on the class or module path");
  }

  @Test
  void eightGraphsOnOneStreamSomeSharingAWorkspaceReplayTheEagerResultsThroughRandomSteps(
      TestReporter reporter) {
    CudaDriverProvider cuda = Objects.requireNonNull(provider, "found before all tests");
    int steps = Integer.getInteger(STEPS_PROPERTY, STEPS);

    WorkspaceSoak.Outcome outcome =
        new WorkspaceSoak("cuda", cuda::open, INNER, steps, 20260524).run();

    reporter.publishEntry(
        "soak",
        steps
            + " steps, "
            + outcome.replays()
            + " replays checked, "
            + outcome.captures()
            + " captures; workspace needs by slot "
            + outcome.needs()
            + " B; workspaces by group "
            + outcome.workspaceBytes()
            + " B, the shared ones against the sums of their needs "
            + outcome.sumOfNeeds(0)
            + " and "
            + outcome.sumOfNeeds(1)
            + " B");
  }
}
