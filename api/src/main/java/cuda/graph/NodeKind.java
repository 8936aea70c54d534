// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * What one node of a captured graph does, as {@link CudaGraph#nodeKinds()} lists it.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public enum NodeKind {
  /** A kernel launch. */
  KERNEL,
  /** A copy between device and pinned host memory. */
  COPY,
  /** A fill of device memory with one value. */
  FILL,
  /** A host callback. */
  HOST_CALLBACK,
  /** A child graph. */
  CHILD_GRAPH,
  /** A node that does no work and only orders others (for example a join of parallel branches). */
  EMPTY,
  /** A wait for an event. */
  EVENT_WAIT,
  /** An event record. */
  EVENT_RECORD,
  /** A stream-ordered allocation. */
  ALLOCATION,
  /** A free of a stream-ordered allocation. */
  FREE,
  /** An IF, WHILE or SWITCH node with body graphs. */
  CONDITIONAL,
  /** Any other kind of node (external semaphores, batched memory operations). */
  OTHER
}
