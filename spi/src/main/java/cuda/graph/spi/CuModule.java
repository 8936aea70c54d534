// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A loaded module, from {@code cuModuleLoadData}; destroyed with {@code cuModuleUnload}.
 *
 * @param address the {@code CUmodule} value the driver returned
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CuModule(long address) implements CuHandle {

  @Override
  public HandleKind kind() {
    return HandleKind.MODULE;
  }

  @Override
  public String toString() {
    return CuHandle.format(kind(), address);
  }
}
