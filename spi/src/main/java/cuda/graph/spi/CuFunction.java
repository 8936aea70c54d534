// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A kernel of a loaded module, from {@code cuModuleGetFunction}; valid until its module is
 * unloaded.
 *
 * @param address the {@code CUfunction} value the driver returned
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CuFunction(long address) implements CuHandle {

  @Override
  public HandleKind kind() {
    return HandleKind.FUNCTION;
  }

  @Override
  public String toString() {
    return CuHandle.format(kind(), address);
  }
}
