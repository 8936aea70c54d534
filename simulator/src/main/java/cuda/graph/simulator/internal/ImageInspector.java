// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Validates a module image the way the driver's loader rejects bad ones, and lists the kernels a
 * PTX image declares ({@link PtxEntries}) or a cubin defines ({@link CubinKernels}), with their
 * parameters, and for PTX their static shared memory ({@link PtxSharedMemory}). A fatbin is checked
 * by its magic number only: its kernels are the ones given Java implementations, and their
 * parameters are unknown to the simulator (it does not read the device code a fatbin holds).
 */
final class ImageInspector {

  /**
   * A kernel of an image, with what the simulator can read of it.
   *
   * @param parameters its parameters' layout, or empty where unknown
   * @param staticSharedBytes its static shared memory, or empty where unknown: the simulator reads
   *     it from PTX only (a cubin's per-kernel shared section also holds what the architecture
   *     reserves, which the driver does not report)
   */
  record Kernel(Optional<List<ParamInfo>> parameters, OptionalInt staticSharedBytes) {}

  private static final Pattern VERSION =
      Pattern.compile("^\\s*\\.version\\s+(\\d+)\\.(\\d+)", Pattern.MULTILINE);
  private static final Pattern TARGET =
      Pattern.compile("^\\s*\\.target\\s+\\S+", Pattern.MULTILINE);

  /** The newest PTX ISA major version the modelled driver (CUDA 13.0) accepts. */
  private static final int NEWEST_PTX_MAJOR = 9;

  private static final int FATBIN_MAGIC = 0xBA55ED50;

  private static final OptionalInt UNKNOWN = OptionalInt.empty();

  private ImageInspector() {}

  /**
   * {@return the kernels the image declares, by name, each with its parameters and static shared
   * memory where the simulator can read them}: none for a fatbin
   */
  static Map<String, Kernel> inspect(ModuleImage image) {
    byte[] bytes = image.bytes();
    return switch (image.format()) {
      case PTX -> ptxEntries(image.text());
      case CUBIN -> {
        if (bytes.length < 4
            || bytes[0] != 0x7f
            || bytes[1] != 'E'
            || bytes[2] != 'L'
            || bytes[3] != 'F') {
          throw invalidImage(
              "a cubin must be an ELF image (it does not start with 0x7F 'E' 'L' 'F')");
        }
        Map<String, Kernel> kernels = new LinkedHashMap<>();
        CubinKernels.of(bytes)
            .forEach((name, parameters) -> kernels.put(name, new Kernel(parameters, UNKNOWN)));
        yield kernels;
      }
      case FATBIN -> {
        if (bytes.length < 4 || littleEndianInt(bytes) != FATBIN_MAGIC) {
          throw invalidImage("a fatbin must start with the magic number 0xBA55ED50");
        }
        yield Map.of();
      }
    };
  }

  private static Map<String, Kernel> ptxEntries(String text) {
    Matcher version = VERSION.matcher(text);
    if (!version.find() || !TARGET.matcher(text).find()) {
      throw new CudaDriverException(
          CuResult.INVALID_PTX,
          DriverCall.MODULE_LOAD_DATA,
          "ptxas fatal: the PTX has no .version and .target directives");
    }
    int major = Integer.parseInt(version.group(1));
    if (major > NEWEST_PTX_MAJOR) {
      throw new CudaDriverException(
          CuResult.UNSUPPORTED_PTX_VERSION,
          DriverCall.MODULE_LOAD_DATA,
          "PTX ISA "
              + version.group(1)
              + "."
              + version.group(2)
              + " is newer than this driver supports ("
              + NEWEST_PTX_MAJOR
              + ".x)");
    }
    Map<String, OptionalInt> shared = PtxSharedMemory.of(text);
    Map<String, Kernel> kernels = new LinkedHashMap<>();
    PtxEntries.of(text)
        .forEach(
            (name, parameters) ->
                kernels.put(name, new Kernel(parameters, shared.getOrDefault(name, UNKNOWN))));
    return kernels;
  }

  private static int littleEndianInt(byte[] b) {
    return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 | (b[3] & 0xff) << 24;
  }

  private static CudaDriverException invalidImage(String detail) {
    return new CudaDriverException(CuResult.INVALID_IMAGE, DriverCall.MODULE_LOAD_DATA, detail);
  }
}
