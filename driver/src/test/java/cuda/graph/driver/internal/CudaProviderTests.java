// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.CudaDriverProvider;
import cuda.graph.spi.DriverCall;
import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The provider as a service: discovery, identity, and availability verdicts that need no GPU. */
class CudaProviderTests {

  @Test
  void serviceLoaderFindsTheCudaProviderWithPriority100() {
    // A named module may only load services it declares it uses; the provider module declares
    // none (it only provides), so the test, patched into that module, adds the edge itself.
    CudaProvider.class.getModule().addUses(CudaDriverProvider.class);
    List<CudaDriverProvider> cuda =
        ServiceLoader.load(CudaDriverProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(provider -> provider.id().equals("cuda"))
            .toList();
    assertEquals(1, cuda.size(), "providers with id cuda");
    assertInstanceOf(CudaProvider.class, cuda.getFirst());
    assertEquals(100, cuda.getFirst().priority());
  }

  @Test
  void moduleProvidesTheServiceAndExportsNothing() {
    Module module = CudaProvider.class.getModule();
    assumeTrue(module.isNamed(), "runs on the class path: there is no module descriptor to check");
    ModuleDescriptor descriptor = module.getDescriptor();
    assertEquals("cuda.graph.driver", descriptor.name());
    assertTrue(descriptor.exports().isEmpty(), "exports " + descriptor.exports());
    assertTrue(
        descriptor.provides().stream()
            .anyMatch(
                p ->
                    p.service().equals(CudaDriverProvider.class.getName())
                        && p.providers().equals(List.of(CudaProvider.class.getName()))),
        "provides " + descriptor.provides());
  }

  @Test
  void constructingAndNamingLoadNothing() {
    boolean boundBefore = CudaLibrary.isBound();
    CudaProvider provider = new CudaProvider();
    assertEquals("cuda", provider.id());
    assertEquals(100, provider.priority());
    assertEquals(boundBefore, CudaLibrary.isBound());
  }

  @Test
  void aMissingLibraryIsUnavailableWithAOneLineFix() {
    String missing = "/nonexistent/cuda-graph-test/libcuda.so.1";
    Availability availability =
        withLibraryProperty(missing, () -> new CudaProvider().availability());
    assertFalse(availability.available());
    String reason = availability.reason();
    assertOneLine(reason);
    assertTrue(reason.startsWith("cannot load " + missing), reason);
    assertTrue(
        reason.contains("-Dcuda.graph.driver.library"), "names the property to fix: " + reason);
  }

  /**
   * A library the user named with the property and that does not load is the user's to fix, so the
   * verdict is blocked: selection warns instead of falling back to the simulator at DEBUG, as the
   * selector's Javadoc promises for a provider passed over for a reason the user can fix (issue 36,
   * item 7). Selection's side of it: {@code
   * ProviderSelectorTests.aFallbackPastABlockedProviderIsAWarning}.
   */
  @Test
  void aMissingLibraryNamedByThePropertyIsBlockedSoSelectionWarns() {
    String missing = "/nonexistent/cuda-graph-test/libcuda.so.1";
    Availability availability =
        withLibraryProperty(missing, () -> new CudaProvider().availability());
    assertFalse(availability.available());
    assertTrue(availability.blocked(), "a fallback the user can fix: " + availability.reason());
  }

  @Test
  void aLibraryNamedByThePropertyThatIsNotTheDriverIsBlockedSoSelectionWarns() {
    Availability availability =
        withLibraryProperty("libc.so.6", () -> new CudaProvider().availability());
    assertFalse(availability.available());
    assertTrue(availability.blocked(), "a fallback the user can fix: " + availability.reason());
  }

  @Test
  void openingAnUnavailableProviderFailsWithTheReason() {
    String missing = "/nonexistent/cuda-graph-test/libcuda.so.1";
    CudaDriverException failure =
        withLibraryProperty(
            missing,
            () -> assertThrows(CudaDriverException.class, () -> new CudaProvider().open()));
    assertEquals(CuResult.NOT_INITIALIZED, failure.status());
    assertEquals(DriverCall.INIT, failure.call());
    assertTrue(
        String.valueOf(failure.detail()).startsWith("cannot load " + missing),
        failure.getMessage());
  }

  @Test
  void aLibraryThatIsNotTheDriverIsUnavailable() {
    Availability availability =
        withLibraryProperty("libc.so.6", () -> new CudaProvider().availability());
    assertFalse(availability.available());
    assertOneLine(availability.reason());
    assertTrue(
        availability.reason().startsWith("libc.so.6 is not the CUDA driver"),
        availability.reason());
  }

  @Test
  void theDefaultVerdictIsOneLineEitherWay() {
    Availability availability = new CudaProvider().availability();
    assertOneLine(availability.reason());
    if (!availability.available()) {
      // Without a driver the reason says how to get one or how to do without.
      assertTrue(
          availability.reason().contains("NVIDIA driver")
              || availability.reason().contains("simulator"),
          availability.reason());
    }
  }

  @Test
  void driverVersionsReadAsCudaVersions() {
    assertEquals("13.0", CudaProvider.cudaVersion(13000));
    assertEquals("12.8", CudaProvider.cudaVersion(12080));
    assertEquals("12.3", CudaProvider.cudaVersion(12030));
  }

  private static void assertOneLine(String reason) {
    assertFalse(reason.isBlank(), "an empty reason");
    assertFalse(reason.contains("\n") || reason.contains("\r"), "not one line: " + reason);
  }

  private static <T> T withLibraryProperty(String value, Supplier<T> action) {
    String previous = System.getProperty(CudaLibrary.LIBRARY_PROPERTY);
    System.setProperty(CudaLibrary.LIBRARY_PROPERTY, value);
    try {
      return action.get();
    } finally {
      if (previous == null) {
        System.clearProperty(CudaLibrary.LIBRARY_PROPERTY);
      } else {
        System.setProperty(CudaLibrary.LIBRARY_PROPERTY, previous);
      }
    }
  }
}
