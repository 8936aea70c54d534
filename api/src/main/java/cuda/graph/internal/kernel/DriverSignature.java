// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.CudaDriverError;
import cuda.graph.KernelParam;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.ParamInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of a loaded kernel as the driver reports them ({@code cuFuncGetParamInfo}), for
 * images without PTX text (cubin, fatbin), and the check of a kernel's declared {@link
 * KernelParam}s against them: the same count, and at each position a parameter of the same size.
 * The driver knows sizes, not types, so a {@code float} declared {@link KernelParam#I32} passes
 * here; it would not pass {@link PtxSignature}.
 *
 * @param entry the kernel's name
 * @param sizes each parameter's size in bytes
 */
record DriverSignature(String entry, List<Long> sizes) {

  /** More parameters than a kernel's 32 KiB parameter buffer holds: a provider that never ends. */
  private static final int MAX_PARAMETERS = 32_768;

  /**
   * {@return the parameters of {@code function}, or empty where the driver cannot tell} (a driver
   * older than CUDA 12.4, a provider that cannot read the image): the check is then skipped
   */
  static Optional<DriverSignature> read(CudaDriver driver, CuFunction function, String entry) {
    List<Long> sizes = new ArrayList<>();
    try {
      for (Optional<ParamInfo> p = driver.funcGetParamInfo(function, 0);
          p.isPresent();
          p = driver.funcGetParamInfo(function, sizes.size())) {
        sizes.add(p.get().size());
        if (sizes.size() > MAX_PARAMETERS) {
          return Optional.empty();
        }
      }
    } catch (CudaDriverError e) {
      if (e.code() == CuResult.NOT_SUPPORTED) {
        return Optional.empty();
      }
      throw e;
    }
    return Optional.of(new DriverSignature(entry, List.copyOf(sizes)));
  }

  /**
   * {@return why {@code declared} does not fit these parameters, or null when it does}: the message
   * names the declaration and the sizes the image has
   */
  @Nullable String mismatch(String declaredSignature, List<KernelParam> declared, String image) {
    return DeclarationCheck.mismatch(
        entry,
        declaredSignature,
        declared,
        image,
        this,
        sizes.size(),
        (i, p) ->
            sizes.get(i) == p.size()
                ? null
                : "parameter "
                    + i
                    + " is "
                    + bytes(sizes.get(i))
                    + ", which "
                    + p
                    + " ("
                    + bytes(p.size())
                    + ") cannot pass",
        "declare the kernel with parameters of those sizes (the driver reports sizes, not types)");
  }

  private static String bytes(long size) {
    return size == 1 ? "1 byte" : size + " bytes";
  }

  /** {@return e.g. {@code saxpy(4, 4, 8, 8 bytes)}} */
  @Override
  public String toString() {
    if (sizes.isEmpty()) {
      return entry + "()";
    }
    String unit = sizes.equals(List.of(1L)) ? " byte)" : " bytes)";
    StringJoiner j = new StringJoiner(", ", entry + "(", unit);
    sizes.forEach(s -> j.add(Long.toString(s)));
    return j.toString();
  }
}
