// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * How a graph capture interacts with other threads' "potentially unsafe" CUDA calls (allocation,
 * synchronous frees, queries of uncaptured work), as CUDA defines it.
 *
 * <p>{@link #RELAXED} (the default, as in the reference) lets every thread, the capturing one
 * included, make such calls; {@link #THREAD_LOCAL} prohibits them on the capturing thread; {@link
 * #GLOBAL} prohibits them on every thread in global mode, so another thread's allocation fails the
 * capture. A prohibited call fails and invalidates the capture.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public enum CaptureMode {
  /** Prohibits potentially unsafe calls on every thread that is in global mode. */
  GLOBAL,
  /** Prohibits potentially unsafe calls on the capturing thread only. */
  THREAD_LOCAL,
  /** Prohibits nothing: the default. */
  RELAXED
}
