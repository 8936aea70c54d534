// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

/**
 * What makes a device buffer a temporary of one capture ({@code Scope.temporary}): the graph
 * allocation's address, the capture that recorded its allocation node (and will record its free
 * node), and whether that capture has ended. Only executions of that capture may use the buffer;
 * once it has ended, nothing may. It holds no lease and no reference to the graph: the graph's
 * allocation and free nodes own the memory.
 */
public final class GraphTemporary {

  /** The capture, as {@link Execution#capturing} names it: compared by identity. */
  private final Object capture;

  /** The graph allocation's fixed address, freed by the capture's free node. */
  final long address;

  /** The graph allocation's size as requested, before the driver rounds it up. */
  final long bytes;

  /** Which temporary of its capture this is, from 1, for messages. */
  private final int number;

  private volatile boolean ended;

  GraphTemporary(Object capture, long address, long bytes, int number) {
    this.capture = capture;
    this.address = address;
    this.bytes = bytes;
    this.number = number;
  }

  /** {@return whether the capture that made the temporary has ended} */
  public boolean ended() {
    return ended;
  }

  void end() {
    ended = true;
  }

  /**
   * Fails unless {@code ex} records into the capture that made the temporary: its parallel branches
   * and conditional bodies included; eager work, node replacements and other captures not.
   *
   * @throws IllegalStateException naming the buffer, its capture and what to do
   */
  void requireUsableIn(Execution ex, Object buffer) {
    if (ex.capturing == capture) {
      return;
    }
    requireLive(buffer);
    throw new IllegalStateException(
        buffer
            + " is a temporary of "
            + capture
            + " and cannot be used by "
            + (ex.capturing == null ? "work executed outside a capture" : ex.capturing)
            + ": its memory exists only while that graph replays, between its allocation and free"
            + " nodes; use it only in nodes recorded by that capture's scope (its parallel"
            + " branches and conditional bodies included), or use a buffer allocated before the"
            + " capture");
  }

  /**
   * Fails once the capture that made the temporary has ended: no op built afterwards can run in it.
   *
   * @throws IllegalStateException naming the buffer, its capture and what to do
   */
  void requireLive(Object buffer) {
    if (ended) {
      throw new IllegalStateException(
          buffer
              + " is a temporary of "
              + capture
              + ", which has ended: its memory exists only while that graph replays, so no op"
              + " built after the capture can use it; call Scope.temporary in the capture (or"
              + " recapture) whose nodes use it, or use a buffer allocated before the capture");
    }
  }

  /**
   * Fails for an op that no graph node can be: host reads and writes, copies into new buffers,
   * frees and closes.
   *
   * @param use what the caller tried, e.g. {@code "read into a Java array"}
   * @throws IllegalStateException naming the buffer, its capture and what to do
   */
  void refuse(Object buffer, String use) {
    throw new IllegalStateException(
        buffer
            + " is a temporary of "
            + capture
            + " and cannot be "
            + use
            + ": its graph allocates it at the start of every replay and frees it at the end, so"
            + " it has no contents outside a replay and is released with the graph; record"
            + " kernels, copies and fills on it in that capture, and copy what must survive into"
            + " a buffer allocated before the capture");
  }

  @Override
  public String toString() {
    return "temporary " + number;
  }
}
