// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

/**
 * Runs queued commands: in order per stream, each after its prerequisites. The asynchronous engine
 * runs them on simulator threads; the deterministic one on the caller's thread, driven by driver
 * calls.
 */
interface Engine {

  /** Queues a command on its stream. Called with the simulator lock held. */
  void enqueue(Command command);

  /** Lets the engine make progress after a driver call. Called with the simulator lock held. */
  void afterCall(boolean query);

  /** Blocks until a completion is done. Called without the simulator lock. */
  void await(Completion completion);

  /** Stops accepting work; queued work still runs (asynchronous) or is dropped (deterministic). */
  void shutdown();
}
