// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The kinds of module image {@code cuModuleLoadData} accepts.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum ImageFormat {
  /** PTX assembly text, JIT-compiled for the context's device at load. */
  PTX,
  /** A cubin: an ELF image of machine code for one architecture. */
  CUBIN,
  /** A fat binary bundling cubins and PTX for several architectures. */
  FATBIN
}
