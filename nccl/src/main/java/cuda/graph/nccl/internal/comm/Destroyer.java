// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.nccl.internal.collective.Backend;
import java.util.List;

/**
 * Destroys a communicator's endpoints on a thread of its own: NCCL switches the calling thread's
 * current device, which must not leak into a thread that runs ops, and the last use may be released
 * on any thread.
 */
final class Destroyer {

  private static final System.Logger LOG = System.getLogger("cuda.graph.nccl");

  private Destroyer() {}

  static void destroy(Backend backend, List<Backend.Endpoint> endpoints) {
    Thread thread =
        Thread.ofPlatform()
            .daemon()
            .name("cuda-graph-nccl destroy")
            .start(
                () -> {
                  try {
                    backend.destroy(endpoints);
                  } catch (RuntimeException e) {
                    // Nobody is left to tell: the owner closed the communicator and the last use
                    // is gone; the failure is logged so that it is not lost.
                    LOG.log(
                        System.Logger.Level.WARNING, "destroying an NCCL communicator failed", e);
                  }
                });
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
