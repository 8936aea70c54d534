// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUstreamCaptureStatus}: whether a stream is capturing, and whether its capture still can
 * succeed.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum CaptureStatus {
  /** Not capturing. */
  NONE,
  /** Capturing; work issued to the stream is recorded, not executed. */
  ACTIVE,
  /** Capturing, but an illegal call invalidated the capture: ending it returns no graph. */
  INVALIDATED
}
