// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Finds {@code libcuda} and is the one place downcall handles into it are made.
 *
 * <p>The library is opened and <em>bound</em> once per process, by {@link
 * CudaProvider#availability()}: from then on each entry's downcall ({@link CuEntry#handle()}) is
 * linked against that library on first use, so none is ever linked before the library is known to
 * load and to export every symbol the provider needs.
 */
final class CudaLibrary {

  /** System property naming the driver library to load instead of {@link #DEFAULT_LIBRARY}. */
  static final String LIBRARY_PROPERTY = "cuda.graph.driver.library";

  /**
   * The driver library's soname: the unversioned {@code libcuda.so} only exists with dev packages.
   */
  static final String DEFAULT_LIBRARY = "libcuda.so.1";

  private record Bound(String name, SymbolLookup lookup) {}

  private static volatile @Nullable Bound bound;

  private CudaLibrary() {}

  /**
   * {@return the library to load: {@value #LIBRARY_PROPERTY} if set, else {@value
   * #DEFAULT_LIBRARY}}
   */
  static String configuredName() {
    String name = System.getProperty(LIBRARY_PROPERTY);
    return name == null || name.isBlank() ? DEFAULT_LIBRARY : name.strip();
  }

  /**
   * Opens a driver library without binding it.
   *
   * @throws IllegalArgumentException when the library cannot be opened
   * @throws IllegalCallerException when this module may not use native access
   */
  static SymbolLookup open(String name) {
    return Ffm.libraryLookup(name);
  }

  /**
   * Makes {@code lookup} the library all handles link against, unless one is bound already.
   *
   * @return the name of the library bound now, which differs from {@code name} when another library
   *     was bound first
   */
  static synchronized String bind(String name, SymbolLookup lookup) {
    Bound current = bound;
    if (current == null) {
      current = new Bound(name, lookup);
      bound = current;
    }
    return current.name();
  }

  /** {@return whether a library has been bound} */
  static boolean isBound() {
    return bound != null;
  }

  /**
   * {@return the first entry a driver of {@code driverVersion} needs whose symbol {@code lookup}
   * lacks, or null when it has them all}
   */
  static @Nullable CuEntry firstMissing(SymbolLookup lookup, int driverVersion) {
    for (CuEntry entry : CuEntry.requiredBy(driverVersion)) {
      if (lookup.find(entry.symbol()).isEmpty()) {
        return entry;
      }
    }
    return null;
  }

  /**
   * {@return the address of {@code entry}'s symbol in the bound library, by {@code dlsym}}; for
   * checking the binding against the driver's own {@code cuGetProcAddress_v2}
   */
  static Optional<MemorySegment> address(CuEntry entry) {
    Bound current = bound;
    return current == null ? Optional.empty() : current.lookup().find(entry.symbol());
  }

  /**
   * Links {@code entry}'s downcall into the bound library. Called only by {@link CuEntry#handle()},
   * once per entry.
   *
   * @throws IllegalStateException when no library is bound yet (a provider bug: availability binds
   *     before any driver exists)
   */
  static MethodHandle downcall(CuEntry entry) {
    Bound current = bound;
    if (current == null) {
      throw new IllegalStateException(
          "no CUDA driver library is bound yet; CudaProvider.availability() binds it before a"
              + " driver is opened");
    }
    return Ffm.downcall(current.lookup(), current.name(), entry.symbol(), entry.signature());
  }
}
