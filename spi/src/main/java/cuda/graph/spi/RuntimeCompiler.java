// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * NVRTC: compiles CUDA C++ source to PTX at run time. Offered by providers that can find the NVRTC
 * library ({@link CudaDriver#runtimeCompiler()}); thread-safe.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface RuntimeCompiler {

  /** {@return the NVRTC version, e.g. {@code "13.0"}} */
  String version();

  /**
   * Compiles one translation unit to PTX. Kernels should be declared {@code extern "C"} so that
   * {@link CudaDriver#moduleGetFunction} finds them by their plain names.
   *
   * @param source the CUDA C++ source
   * @param programName the name used in diagnostics, e.g. {@code "saxpy.cu"}
   * @param options NVRTC options, e.g. {@code --gpu-architecture=compute_90}
   * @return the PTX text, without a trailing NUL
   * @throws RuntimeCompilationException when NVRTC fails; it carries the compile log
   */
  String compileToPtx(String source, String programName, List<String> options);
}
