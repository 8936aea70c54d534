// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A grid or block shape, as in CUDA's {@code dim3}. Not validated: the driver rejects dimensions
 * below 1 or above the device's limits when a launch uses them.
 *
 * @param x the size in x
 * @param y the size in y
 * @param z the size in z
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Dim3(int x, int y, int z) {

  /** {@return x * y * z, as a long so that large grids do not overflow} */
  public long volume() {
    return (long) x * y * z;
  }

  @Override
  public String toString() {
    return "(" + x + ", " + y + ", " + z + ")";
  }
}
