// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What {@code cuStreamGetCaptureInfo_v3} reports for a stream.
 *
 * @param status the stream's capture status
 * @param id the capture sequence's process-unique, non-zero id; 0 unless {@code status} is ACTIVE
 * @param graph the graph under construction (borrowed: never destroy it); null unless ACTIVE
 * @param dependencies the nodes the next captured operation on this stream will depend on
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CaptureInfo(
    CaptureStatus status, long id, @Nullable CuGraph graph, List<CuGraphNode> dependencies) {

  /** Copies {@code dependencies}, so the record is immutable. */
  public CaptureInfo {
    dependencies = List.copyOf(dependencies);
  }
}
