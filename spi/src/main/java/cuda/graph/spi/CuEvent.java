// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * An event, from {@code cuEventCreate}; destroyed with {@code cuEventDestroy_v2}.
 *
 * @param address the {@code CUevent} value the driver returned
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CuEvent(long address) implements CuHandle {

  @Override
  public HandleKind kind() {
    return HandleKind.EVENT;
  }

  @Override
  public String toString() {
    return CuHandle.format(kind(), address);
  }
}
