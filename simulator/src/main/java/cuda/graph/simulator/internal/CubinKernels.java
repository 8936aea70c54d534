// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ParamInfo;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The kernels of a cubin with their parameters, read where the driver reads them for {@code
 * cuFuncGetParamInfo}: each kernel has an ELF section {@code .nv.info.<kernel>} of attribute
 * records, and each parameter one {@code EIATTR_KPARAM_INFO} record (ordinal, offset, size), or an
 * {@code EIATTR_KPARAM_INFO_V2} record, which ptxas writes once a kernel's parameters pass 4 KiB.
 *
 * <p>An image too short for an ELF64 header, not little-endian 64-bit, or without section headers
 * defines no kernels here (tests load such stand-ins with Java kernels); one whose section headers
 * or {@code .nv.info} records run past their bounds is refused as the driver refuses a corrupt
 * image. A kernel whose records do not number its parameters 0 to n-1 has unknown parameters.
 */
final class CubinKernels {

  private static final int ELF64_HEADER = 64;
  private static final int ELF64_SECTION_HEADER = 64;
  private static final byte ELFCLASS64 = 2;
  private static final byte ELFDATA2LSB = 1;
  private static final String INFO_PREFIX = ".nv.info.";

  // Record formats: no value, a byte, a half-word (each in the 4-byte header), sized payload.
  private static final int EIFMT_NVAL = 1;
  private static final int EIFMT_BVAL = 2;
  private static final int EIFMT_HVAL = 3;
  private static final int EIFMT_SVAL = 4;

  private static final int EIATTR_KPARAM_INFO = 0x17;
  private static final int EIATTR_KPARAM_INFO_V2 = 0x45;
  private static final int KPARAM_PAYLOAD = 12;

  private CubinKernels() {}

  /**
   * {@return the kernels of {@code elf} by name, in section order, each with its parameters or
   * empty where the records do not tell them}
   *
   * @throws CudaDriverException {@code CUDA_ERROR_INVALID_IMAGE} for a cut-short or corrupt image
   */
  static Map<String, Optional<List<ParamInfo>>> of(byte[] elf) {
    Map<String, Optional<List<ParamInfo>>> kernels = new LinkedHashMap<>();
    if (elf.length < ELF64_HEADER || elf[4] != ELFCLASS64 || elf[5] != ELFDATA2LSB) {
      return kernels;
    }
    long sectionHeaders = u64(elf, 0x28);
    int entrySize = u16(elf, 0x3a);
    int count = u16(elf, 0x3c);
    int namesIndex = u16(elf, 0x3e);
    if (sectionHeaders == 0 || count == 0) {
      return kernels;
    }
    if (entrySize < ELF64_SECTION_HEADER
        || sectionHeaders < 0
        || sectionHeaders > elf.length - (long) count * entrySize) {
      throw corrupt(
          "its "
              + count
              + " section headers of "
              + entrySize
              + " bytes from offset "
              + sectionHeaders
              + " do not fit its "
              + elf.length
              + " bytes (section headers are 64 bytes each in a 64-bit ELF)");
    }
    if (namesIndex >= count) {
      throw corrupt("its section-name table is section " + namesIndex + " of " + count);
    }
    Section names = section(elf, sectionHeaders + (long) namesIndex * entrySize, namesIndex);
    for (int i = 0; i < count; i++) {
      long header = sectionHeaders + (long) i * entrySize;
      String name = name(elf, names, u32(elf, (int) header));
      if (name.startsWith(INFO_PREFIX) && name.length() > INFO_PREFIX.length()) {
        Section info = section(elf, header, i);
        kernels.put(name.substring(INFO_PREFIX.length()), parameters(elf, info, name));
      }
    }
    return kernels;
  }

  private record Section(int offset, int size) {}

  private static Section section(byte[] elf, long header, int index) {
    long offset = u64(elf, (int) header + 0x18);
    long size = u64(elf, (int) header + 0x20);
    if (offset < 0 || size < 0 || offset > elf.length || size > elf.length - offset) {
      throw corrupt(
          "section "
              + index
              + " ("
              + size
              + " bytes from offset "
              + offset
              + ") runs past its "
              + elf.length
              + " bytes");
    }
    return new Section((int) offset, (int) size);
  }

  private static String name(byte[] elf, Section names, long at) {
    if (at >= names.size()) {
      throw corrupt("a section name lies outside the section-name table");
    }
    int start = names.offset() + (int) at;
    int end = start;
    while (end < names.offset() + names.size() && elf[end] != 0) {
      end++;
    }
    return new String(elf, start, end - start, StandardCharsets.UTF_8);
  }

  /** The parameter records of one {@code .nv.info.<kernel>} section, by ordinal. */
  private static Optional<List<ParamInfo>> parameters(byte[] elf, Section info, String name) {
    TreeMap<Integer, ParamInfo> byOrdinal = new TreeMap<>();
    boolean duplicate = false;
    int at = info.offset();
    int end = info.offset() + info.size();
    while (at < end) {
      if (at + 4 > end) {
        throw corrupt(name + " ends inside a record header");
      }
      int format = elf[at] & 0xff;
      int attribute = elf[at + 1] & 0xff;
      switch (format) {
        case EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL -> at += 4;
        case EIFMT_SVAL -> {
          int length = u16(elf, at + 2);
          int payload = at + 4;
          if (payload + length > end) {
            throw corrupt(
                name + " has a record of " + length + " bytes that runs past the section's end");
          }
          if ((attribute == EIATTR_KPARAM_INFO || attribute == EIATTR_KPARAM_INFO_V2)
              && length >= KPARAM_PAYLOAD) {
            // Both: u32 index, u16 ordinal, u16 offset; then the size, in bits 18-31 of a u32
            // whose low bits hold the pointee's alignment, space and constant bank (the first
            // version), or a u16 of its own (the second).
            int ordinal = u16(elf, payload + 4);
            long offset = u16(elf, payload + 6);
            long size =
                attribute == EIATTR_KPARAM_INFO
                    ? u32(elf, payload + 8) >>> 18
                    : u16(elf, payload + 8);
            duplicate |= byOrdinal.put(ordinal, new ParamInfo(offset, size)) != null;
          }
          at = payload + length;
        }
        default ->
            throw corrupt(name + " has a record of unknown format " + format + " at offset " + at);
      }
    }
    boolean numbered = byOrdinal.isEmpty() || byOrdinal.lastKey() == byOrdinal.size() - 1;
    return duplicate || !numbered ? Optional.empty() : Optional.of(List.copyOf(byOrdinal.values()));
  }

  private static CudaDriverException corrupt(String detail) {
    return new CudaDriverException(
        CuResult.INVALID_IMAGE,
        DriverCall.MODULE_LOAD_DATA,
        "the cubin is cut short or corrupt: " + detail);
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  private static long u32(byte[] b, int at) {
    return (u16(b, at) | (long) u16(b, at + 2) << 16) & 0xffff_ffffL;
  }

  private static long u64(byte[] b, int at) {
    return u32(b, at) | u32(b, at + 4) << 32;
  }
}
