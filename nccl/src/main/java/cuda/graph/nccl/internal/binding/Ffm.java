// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The single funnel for the FFM API's restricted methods in this package: opening a library,
 * linking a downcall, reading a C string NCCL returned. Callers check {@link NativeAccess#require}
 * first, so a missing grant is reported in this module's words rather than by the JVM.
 */
final class Ffm {

  private static final Linker LINKER = Linker.nativeLinker();

  private Ffm() {}

  /**
   * Opens a library by file name, searched the way {@code dlopen} searches ({@code
   * LD_LIBRARY_PATH}, the {@code ldconfig} cache).
   *
   * @throws IllegalArgumentException when it cannot be opened
   */
  @SuppressWarnings("restricted")
  static SymbolLookup libraryLookup(String name) {
    // Arena.global(): NCCL must never be unloaded while downcalls into it exist; they live as long
    // as the process-wide NcclLibrary.
    return SymbolLookup.libraryLookup(name, Arena.global());
  }

  /**
   * Opens exactly the library at {@code path}.
   *
   * @throws IllegalArgumentException when it cannot be opened
   */
  @SuppressWarnings("restricted")
  static SymbolLookup libraryLookup(Path path) {
    return SymbolLookup.libraryLookup(path, Arena.global());
  }

  /** {@return a downcall to the function at {@code address}} */
  @SuppressWarnings("restricted")
  static MethodHandle downcall(MemorySegment address, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(address, descriptor);
  }

  /**
   * {@return the NUL-terminated string at an address NCCL returned}, or null for NULL; NCCL's
   * strings are static or per-thread, and read before the next call on this thread
   */
  @SuppressWarnings("restricted")
  static @Nullable String cString(MemorySegment address) {
    if (address.address() == 0) {
      return null;
    }
    return address.reinterpret(Long.MAX_VALUE).getString(0);
  }
}
