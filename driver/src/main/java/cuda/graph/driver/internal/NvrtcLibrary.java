// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds NVRTC once per process and makes downcall handles into it.
 *
 * <p>NVRTC ships with the CUDA toolkit, not the driver, so it is optional. The library named by
 * {@value #LIBRARY_PROPERTY} is tried alone when set; otherwise the sonames of CUDA 13 and 12 on
 * the loader path, then the toolkit's default install locations.
 */
final class NvrtcLibrary {

  /** System property naming the NVRTC library to load. */
  static final String LIBRARY_PROPERTY = "cuda.graph.nvrtc.library";

  /** Where NVRTC is looked for when {@value #LIBRARY_PROPERTY} is not set, in order. */
  static final List<String> DEFAULT_CANDIDATES =
      List.of(
          "libnvrtc.so.13",
          "libnvrtc.so.12",
          "/usr/local/cuda/lib64/libnvrtc.so",
          "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so");

  private static final System.Logger LOG = System.getLogger("cuda.graph.driver");

  /** The library found, or why none was. */
  record Found(Optional<String> name, Optional<SymbolLookup> lookup, String reason) {}

  private NvrtcLibrary() {}

  /** {@return the search result, computed on first use} */
  static Found found() {
    return Search.RESULT;
  }

  /** {@return the candidates tried: the property's value alone when set, else the defaults} */
  static List<String> candidates() {
    String configured = System.getProperty(LIBRARY_PROPERTY);
    return configured == null || configured.isBlank()
        ? DEFAULT_CANDIDATES
        : List.of(configured.strip());
  }

  /**
   * Links a downcall into NVRTC. Called only from the holder classes in {@link Nvrtc}, which are
   * reached only through an {@link NvrtcCompiler}, which exists only when NVRTC was found.
   */
  static MethodHandle downcall(String symbol, FunctionDescriptor descriptor) {
    Found found = found();
    SymbolLookup lookup =
        found
            .lookup()
            .orElseThrow(() -> new IllegalStateException("NVRTC is not loaded: " + found.reason()));
    return Ffm.downcall(lookup, found.name().orElseThrow(), symbol, descriptor);
  }

  private static final class Search {
    static final Found RESULT = search();

    private static Found search() {
      List<String> failures = new ArrayList<>();
      for (String candidate : candidates()) {
        try {
          SymbolLookup lookup = Ffm.libraryLookup(candidate);
          if (lookup.find("nvrtcCompileProgram").isEmpty()) {
            failures.add(candidate + " has no nvrtcCompileProgram");
            continue;
          }
          LOG.log(System.Logger.Level.DEBUG, "cuda.graph.driver: NVRTC loaded from {0}", candidate);
          return new Found(Optional.of(candidate), Optional.of(lookup), "loaded " + candidate);
        } catch (IllegalArgumentException | IllegalCallerException notLoaded) {
          failures.add(
              candidate + ": " + String.valueOf(notLoaded.getMessage()).replaceAll("\\s+", " "));
        }
      }
      String reason =
          "NVRTC not found (tried "
              + String.join("; ", failures)
              + "): install the CUDA toolkit's"
              + " NVRTC or set -D"
              + LIBRARY_PROPERTY
              + " to its libnvrtc.so";
      LOG.log(System.Logger.Level.DEBUG, "cuda.graph.driver: {0}", reason);
      return new Found(Optional.empty(), Optional.empty(), reason);
    }
  }
}
