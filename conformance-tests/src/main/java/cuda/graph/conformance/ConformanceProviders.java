// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import java.util.List;
import java.util.ServiceLoader;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds an installed provider by id through {@link ServiceLoader}, the path applications use, so a
 * test through it also checks the provider's registration ({@code provides ...} on the module path,
 * {@code META-INF/services} on the class path).
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ConformanceProviders {

  private ConformanceProviders() {}

  /**
   * {@return the installed provider with {@code id}}
   *
   * @param id the provider's {@link CudaDriverProvider#id()}, e.g. {@code "simulator"}
   * @throws IllegalStateException naming the installed providers, when none has that id
   */
  public static CudaDriverProvider find(String id) {
    List<CudaDriverProvider> providers =
        // The kit's own loader, not the thread's context loader: tries of a soak run on threads
        // (driver callbacks among them) whose context loader sees no provider.
        ServiceLoader.load(CudaDriverProvider.class, ConformanceProviders.class.getClassLoader())
            .stream()
            .map(ServiceLoader.Provider::get)
            .toList();
    return providers.stream()
        .filter(p -> p.id().equals(id))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no CudaDriverProvider with id '"
                        + id
                        + "' is installed; found "
                        + providers.stream().map(CudaDriverProvider::id).toList()
                        + ": put the provider's jar on the class or module path"));
  }

  /**
   * {@return a new driver of the provider {@code id}}, or aborts the calling test (reported as
   * skipped, not failed) with the provider's one-line reason when it cannot serve this machine
   *
   * @param id the provider's {@link CudaDriverProvider#id()}, e.g. {@code "cuda"}
   * @throws IllegalStateException naming the installed providers, when none has that id
   */
  public static CudaDriver openOrAbort(String id) {
    CudaDriverProvider provider = find(id);
    Availability availability = provider.availability();
    if (!availability.available()) {
      Assumptions.abort("the '" + id + "' provider is unavailable: " + availability.reason());
    }
    return provider.open();
  }
}
