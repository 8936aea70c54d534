// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.jspecify.annotations.Nullable;

/**
 * The single funnel for the FFM API's restricted methods: loading a library, linking a downcall or
 * an upcall, and giving a raw native address a size. No other class in this module calls a
 * restricted method, so native access is needed (and refused, when the JVM refuses it) only here.
 *
 * <p>Every method may throw {@link IllegalCallerException} when the JVM runs with {@code
 * --illegal-native-access=deny} and this module was not granted native access; callers that can
 * degrade ({@link CudaProvider#availability()}) catch it and name the missing flag.
 */
final class Ffm {

  private static final Linker LINKER = Linker.nativeLinker();

  private Ffm() {}

  /**
   * Opens a shared library with {@code dlopen} for the life of the process.
   *
   * @param name a file name searched on the loader path ({@code libcuda.so.1}) or a path
   * @throws IllegalArgumentException when the library cannot be opened
   */
  @SuppressWarnings("restricted")
  static SymbolLookup libraryLookup(String name) {
    // Arena.global(): the driver library must never be unloaded while handles into it exist, and
    // they live in static finals.
    return SymbolLookup.libraryLookup(name, Arena.global());
  }

  /**
   * Links a downcall to {@code symbol} in {@code lookup}.
   *
   * @throws UnsatisfiedLinkError naming the symbol and library when the library lacks it
   */
  @SuppressWarnings("restricted")
  static MethodHandle downcall(
      SymbolLookup lookup, String library, String symbol, FunctionDescriptor descriptor) {
    MemorySegment address =
        lookup
            .find(symbol)
            .orElseThrow(() -> new UnsatisfiedLinkError(library + " has no symbol " + symbol));
    return LINKER.downcallHandle(address, descriptor);
  }

  /** Links a downcall to a function at a known address (a function pointer, an upcall stub). */
  @SuppressWarnings("restricted")
  static MethodHandle downcall(MemorySegment address, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(address, descriptor);
  }

  /** Makes an upcall stub that lives for the whole process. */
  @SuppressWarnings("restricted")
  static MemorySegment upcallStub(MethodHandle target, FunctionDescriptor descriptor) {
    return LINKER.upcallStub(target, descriptor, Arena.global());
  }

  /**
   * {@return a segment of {@code bytes} bytes at a native address the driver handed out}, alive for
   * the whole process (the driver, not an arena, decides when the memory goes away)
   */
  @SuppressWarnings("restricted")
  static MemorySegment view(long address, long bytes) {
    return MemorySegment.ofAddress(address).reinterpret(bytes);
  }

  /**
   * {@return the NUL-terminated UTF-8 string at a native address the driver handed out}, or null
   * for a NULL address
   */
  @SuppressWarnings("restricted")
  static @Nullable String cString(long address) {
    if (address == 0) {
      return null;
    }
    return MemorySegment.ofAddress(address).reinterpret(Long.MAX_VALUE).getString(0);
  }
}
