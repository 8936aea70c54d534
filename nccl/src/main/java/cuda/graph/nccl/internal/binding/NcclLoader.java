// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import cuda.graph.nccl.NcclUnavailableException;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Decides which NCCL library to open: the file system property {@value
 * NcclLibrary#LIBRARY_PROPERTY} names, else {@value #SONAME} wherever the dynamic loader finds it.
 * That choice is all it makes; {@link NcclLibrary} binds what it opened.
 */
final class NcclLoader {

  /** NCCL's soname: the unversioned {@code libnccl.so} only exists with the development files. */
  static final String SONAME = "libnccl.so.2";

  /** Where to get NCCL, for every message that says it is missing or too old. */
  static final String WHERE_TO_GET_IT =
      "on a host with Python: pip install nvidia-nccl-cu13, whose library is in"
          + " site-packages/nvidia/nccl/lib";

  private NcclLoader() {}

  /**
   * {@return NCCL opened and bound, afresh, from what {@value NcclLibrary#LIBRARY_PROPERTY} says
   * now}
   *
   * @throws NcclUnavailableException as {@link #load(String)} does
   */
  static NcclLibrary loadConfigured() {
    return load(System.getProperty(NcclLibrary.LIBRARY_PROPERTY));
  }

  /**
   * {@return NCCL opened and bound, afresh}
   *
   * @param configured the value of {@value NcclLibrary#LIBRARY_PROPERTY}, or null when it is unset
   * @throws NcclUnavailableException saying what was tried and what to do, when native access is
   *     not enabled, the library cannot be opened, lacks a symbol or is older than 2.18
   */
  static NcclLibrary load(@Nullable String configured) {
    NativeAccess.require();
    if (configured == null || configured.isBlank()) {
      return fromLoaderPath();
    }
    return fromFile(configured.strip());
  }

  private static NcclLibrary fromLoaderPath() {
    SymbolLookup lookup;
    try {
      lookup = Ffm.libraryLookup(SONAME);
    } catch (IllegalArgumentException e) {
      throw new NcclUnavailableException(
          "cannot load NCCL: the dynamic loader finds no "
              + SONAME
              + " (it searched LD_LIBRARY_PATH and the ldconfig cache, as system property "
              + NcclLibrary.LIBRARY_PROPERTY
              + " is not set): install NCCL ("
              + WHERE_TO_GET_IT
              + ") and put its directory on LD_LIBRARY_PATH, or run java with -D"
              + NcclLibrary.LIBRARY_PROPERTY
              + "=/path/to/"
              + SONAME,
          e);
    }
    return new NcclLibrary(lookup, SONAME);
  }

  private static NcclLibrary fromFile(String configured) {
    Path path;
    try {
      path = Path.of(configured);
    } catch (InvalidPathException e) {
      throw new NcclUnavailableException(notLoadable(configured, "which is not a valid path"), e);
    }
    if (!Files.exists(path)) {
      throw new NcclUnavailableException(notLoadable(configured, "which does not exist"), null);
    }
    if (!Files.isRegularFile(path)) {
      throw new NcclUnavailableException(notLoadable(configured, "which is not a file"), null);
    }
    SymbolLookup lookup;
    try {
      lookup = Ffm.libraryLookup(path);
    } catch (IllegalArgumentException e) {
      throw new NcclUnavailableException(
          notLoadable(
              configured,
              "which the dynamic loader cannot open (not a library, or one"
                  + " for another architecture)"),
          e);
    }
    return new NcclLibrary(lookup, configured);
  }

  private static String notLoadable(String configured, String why) {
    return "cannot load NCCL: system property "
        + NcclLibrary.LIBRARY_PROPERTY
        + " names "
        + configured
        + ", "
        + why
        + ": point it at "
        + SONAME
        + " ("
        + WHERE_TO_GET_IT
        + "), or leave it unset to have the dynamic loader search LD_LIBRARY_PATH";
  }
}
