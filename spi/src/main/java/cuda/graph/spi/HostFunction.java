// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A host function enqueued with {@code cuLaunchHostFunc}: runs on a driver thread once all earlier
 * work in its stream is done, and blocks later work in that stream until it returns.
 *
 * <p>It must not call the driver (the driver may answer {@code CUDA_ERROR_NOT_PERMITTED}) and must
 * not throw: a provider logs and swallows what it throws, because nothing can receive it. It is not
 * called if the context has a sticky error.
 *
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface HostFunction {
  /** Runs the host work, on a driver thread, in stream order. */
  void run();
}
