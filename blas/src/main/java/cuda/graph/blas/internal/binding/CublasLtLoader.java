// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Decides which cuBLASLt library to open: the file system property {@value
 * CublasLtLibrary#LIBRARY_PROPERTY} names, else the first of {@link #SONAMES} the dynamic loader
 * finds. That choice is all it makes; {@link CublasLtLibrary} binds what it opened and checks its
 * version.
 */
final class CublasLtLoader {

  /**
   * cuBLASLt's sonames, newest first: CUDA 13's, then CUDA 12's. The unversioned {@code
   * libcublasLt.so} only exists with the development files.
   */
  static final List<String> SONAMES = List.of("libcublasLt.so.13", "libcublasLt.so.12");

  /** Where to get cuBLASLt, for every message that says it is missing or too old. */
  static final String WHERE_TO_GET_IT =
      "it ships with the CUDA toolkit, in its lib64 (e.g. /usr/local/cuda/lib64), and on a host"
          + " with Python in the nvidia-cublas package (pip install nvidia-cublas), whose library"
          + " is in site-packages/nvidia/cublas/lib (site-packages/nvidia/cu13/lib in the"
          + " CUDA 13 wheels PyTorch installs)";

  private CublasLtLoader() {}

  /**
   * {@return cuBLASLt opened and bound, afresh, from what {@value CublasLtLibrary#LIBRARY_PROPERTY}
   * says now}
   *
   * @throws cuda.graph.blas.BlasException as {@link #load(String)} does
   */
  static CublasLtLibrary loadConfigured() {
    return load(System.getProperty(CublasLtLibrary.LIBRARY_PROPERTY));
  }

  /**
   * {@return cuBLASLt opened and bound, afresh}
   *
   * @param configured the value of {@value CublasLtLibrary#LIBRARY_PROPERTY}, or null when it is
   *     unset
   * @throws cuda.graph.blas.BlasException saying what was tried and what to do, when native access
   *     is not enabled, the library cannot be opened, lacks a symbol or is older than 12.0
   */
  static CublasLtLibrary load(@Nullable String configured) {
    NativeAccess.require();
    if (configured == null || configured.isBlank()) {
      return fromLoaderPath();
    }
    return fromFile(configured.strip());
  }

  private static CublasLtLibrary fromLoaderPath() {
    List<IllegalArgumentException> refusals = new ArrayList<>();
    for (String soname : SONAMES) {
      SymbolLookup lookup;
      try {
        lookup = Ffm.libraryLookup(soname);
      } catch (IllegalArgumentException e) {
        refusals.add(e);
        continue;
      }
      return new CublasLtLibrary(lookup, soname);
    }
    IllegalArgumentException first = refusals.getFirst();
    for (int i = 1; i < refusals.size(); i++) {
      first.addSuppressed(refusals.get(i));
    }
    throw Unavailable.because(
        "dlopen(" + String.join(", ", SONAMES) + ")",
        "cannot load cuBLASLt: the dynamic loader finds neither "
            + String.join(" nor ", SONAMES)
            + " (it searched LD_LIBRARY_PATH and the ldconfig cache, as system property "
            + CublasLtLibrary.LIBRARY_PROPERTY
            + " is not set): "
            + WHERE_TO_GET_IT
            + "; put its directory on LD_LIBRARY_PATH, or run java with -D"
            + CublasLtLibrary.LIBRARY_PROPERTY
            + "=/path/to/"
            + SONAMES.getFirst(),
        first);
  }

  private static CublasLtLibrary fromFile(String configured) {
    Path path;
    try {
      path = Path.of(configured);
    } catch (InvalidPathException e) {
      throw notLoadable(configured, "which is not a valid path", e);
    }
    if (!Files.exists(path)) {
      throw notLoadable(configured, "which does not exist", null);
    }
    if (!Files.isRegularFile(path)) {
      throw notLoadable(configured, "which is not a file", null);
    }
    SymbolLookup lookup;
    try {
      lookup = Ffm.libraryLookup(path);
    } catch (IllegalArgumentException e) {
      throw notLoadable(
          configured,
          "which the dynamic loader cannot open (not a library, one for another architecture,"
              + " or one whose own dependencies are missing)",
          e);
    }
    return new CublasLtLibrary(lookup, configured);
  }

  private static cuda.graph.blas.BlasUnavailableException notLoadable(
      String configured, String why, @Nullable Throwable cause) {
    return Unavailable.because(
        "dlopen(" + configured + ")",
        "cannot load cuBLASLt: system property "
            + CublasLtLibrary.LIBRARY_PROPERTY
            + " names "
            + configured
            + ", "
            + why
            + ": point it at "
            + String.join(" or ", SONAMES)
            + " ("
            + WHERE_TO_GET_IT
            + "), or leave it unset to have the dynamic loader search LD_LIBRARY_PATH",
        cause);
  }
}
