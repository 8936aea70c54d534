// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.UndefinedBehaviorException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs queued work on the calling thread only: a seeded random number of commands after each driver
 * call (at least one after a query, so polling loops make progress), and as many as needed when the
 * caller waits. Which ready stream runs next is chosen by the same seeded generator, so with one
 * host thread the interleaving is a function of the seed and the calls.
 */
final class DeterministicEngine implements Engine {

  private final ReentrantLock lock;
  private final OpExecutor executor;
  private final Random random;
  private final Set<SimStream> busy = new LinkedHashSet<>();
  private boolean running;

  DeterministicEngine(ReentrantLock lock, OpExecutor executor, long seed) {
    this.lock = lock;
    this.executor = executor;
    this.random = new Random(seed);
  }

  @Override
  public void enqueue(Command command) {
    command.stream.queue.addLast(command);
    busy.add(command.stream);
  }

  @Override
  public void afterCall(boolean query) {
    int steps = random.nextInt(2) + (query ? 1 : 0);
    for (int i = 0; i < steps && step(); i++) {
      // each step ran one command
    }
  }

  @Override
  public void await(Completion completion) {
    lock.lock();
    try {
      while (!completion.isDone()) {
        if (!step()) {
          throw new UndefinedBehaviorException(
              "deterministic simulator: waiting for work that can never run (every queued command"
                  + " waits on another); queued: "
                  + describeQueues());
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Runs one ready command, chosen at random among ready stream heads; false if none is ready. */
  private boolean step() {
    if (running) {
      // A host function is running inside a step; work does not nest.
      return false;
    }
    List<SimStream> ready = new ArrayList<>();
    for (SimStream s : busy) {
      Command head = s.queue.peekFirst();
      if (head != null && head.ready()) {
        ready.add(s);
      }
    }
    if (ready.isEmpty()) {
      return false;
    }
    SimStream chosen = ready.get(random.nextInt(ready.size()));
    Command command = chosen.queue.pollFirst();
    if (chosen.queue.isEmpty()) {
      busy.remove(chosen);
    }
    running = true;
    try {
      executor.run(command);
    } finally {
      running = false;
    }
    return true;
  }

  private String describeQueues() {
    List<String> heads = new ArrayList<>();
    for (SimStream s : busy) {
      heads.add(s + ": " + s.queue.size() + " command(s), head " + s.queue.peekFirst());
    }
    return String.join("; ", heads);
  }

  @Override
  public void shutdown() {
    busy.clear();
  }
}
