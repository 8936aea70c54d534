// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Flags of {@code cuGraphInstantiateWithFlags}.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class GraphInstantiateFlags {
  /** Free unfreed graph allocations of the previous launch when the exec is launched again. */
  public static final long AUTO_FREE_ON_LAUNCH = 1;

  /** Upload at instantiation; rejected by {@code cuGraphInstantiateWithFlags} (INVALID_VALUE). */
  public static final long UPLOAD = 2;

  /** Instantiate for launch from the device; incompatible with {@link #AUTO_FREE_ON_LAUNCH}. */
  public static final long DEVICE_LAUNCH = 4;

  /** Honour per-node priorities. */
  public static final long USE_NODE_PRIORITY = 8;

  private GraphInstantiateFlags() {}
}
