// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.ModuleImage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What {@code cuModuleLoadDataEx} is given: the image in native memory and JIT options that make
 * the driver write its error log into a buffer, so a failed load can say why.
 */
final class ModuleImages {

  /** Size of the JIT error log buffer (8 KiB, as NVIDIA Warp uses). */
  static final int ERROR_LOG_BYTES = 8192;

  /** {@code CU_JIT_ERROR_LOG_BUFFER}: option value is the buffer's address. */
  static final int CU_JIT_ERROR_LOG_BUFFER = 5;

  /** {@code CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES}: in, the capacity; out, the bytes written. */
  static final int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

  private ModuleImages() {}

  /**
   * {@return a native copy of the image}; a PTX image gets the trailing NUL the driver requires
   * (the driver finds the end of PTX text by it, while cubins and fatbins describe their own size)
   */
  static MemorySegment nativeImage(Arena arena, ModuleImage image) {
    byte[] bytes = image.bytes();
    long size = image.format() == ImageFormat.PTX ? bytes.length + 1L : bytes.length;
    // 16-byte alignment: cubin and fatbin images are ELF/fatbin containers read in 8-byte words.
    MemorySegment segment = arena.allocate(Math.max(size, 1), 16);
    MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 0, bytes.length);
    return segment; // allocate() zero-fills, so the byte after the PTX text is already NUL
  }

  /**
   * JIT options asking for the error log: {@link #options} and {@link #values} are the parallel
   * {@code CUjit_option[]} and {@code void*[]} arrays; {@link #log()} reads the log afterwards.
   */
  record ErrorLog(MemorySegment options, MemorySegment values, MemorySegment buffer) {

    /** Number of options in the arrays. */
    static final int COUNT = 2;

    /** Allocates the arrays and the buffer in {@code arena}. */
    static ErrorLog allocate(Arena arena) {
      MemorySegment buffer = arena.allocate(ERROR_LOG_BYTES);
      MemorySegment options = arena.allocate(ValueLayout.JAVA_INT, COUNT);
      MemorySegment values = arena.allocate(ValueLayout.ADDRESS, COUNT);
      options.setAtIndex(ValueLayout.JAVA_INT, 0, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
      // Scalar option values travel as the pointer-sized value itself, not as a pointer to it.
      values.setAtIndex(ValueLayout.JAVA_LONG, 0, ERROR_LOG_BYTES);
      options.setAtIndex(ValueLayout.JAVA_INT, 1, CU_JIT_ERROR_LOG_BUFFER);
      values.setAtIndex(ValueLayout.ADDRESS, 1, buffer);
      return new ErrorLog(options, values, buffer);
    }

    /** {@return the log the driver wrote, without trailing white space; empty when none} */
    String log() {
      // The driver NUL-terminates what it writes; forcing the last byte keeps a full buffer
      // readable.
      buffer.set(ValueLayout.JAVA_BYTE, buffer.byteSize() - 1, (byte) 0);
      return buffer.getString(0).strip();
    }
  }

  /**
   * {@return the exception detail for a failed load}: the JIT log when there is one, and a hint for
   * the statuses whose cause is usually the toolchain rather than the code
   */
  static String failureDetail(int status, ImageFormat format, String log) {
    String hint =
        switch (status) {
          case CuResult.UNSUPPORTED_PTX_VERSION ->
              "the PTX ISA version is newer than this driver's JIT supports: generate PTX with a"
                  + " toolkit no newer than the driver, or update the NVIDIA driver";
          case CuResult.NO_BINARY_FOR_GPU ->
              "the image has no code for this device's architecture: build it for this GPU or"
                  + " include PTX";
          case CuResult.INVALID_IMAGE ->
              "the bytes are not a " + format + " image the driver recognizes";
          default -> "";
        };
    String jitLog = log.isEmpty() ? "" : "JIT log:\n" + log;
    if (hint.isEmpty()) {
      return jitLog;
    }
    return jitLog.isEmpty() ? hint : hint + "\n" + jitLog;
  }
}
