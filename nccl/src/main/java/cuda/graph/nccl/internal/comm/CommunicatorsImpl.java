// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.CudaGraph;
import cuda.graph.Device;
import cuda.graph.DeviceOp;
import cuda.graph.nccl.CapturedStep;
import cuda.graph.nccl.Communicator;
import cuda.graph.nccl.Communicators;
import cuda.graph.nccl.internal.collective.Backend;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The ranks of one process's communicator, one thread per rank for the steps, and the one reference
 * count that keeps the native communicators alive while any rank's execution or graph uses them.
 */
public final class CommunicatorsImpl implements Communicators {

  private final List<CommunicatorImpl> ranks;
  private final Uses uses;

  /**
   * One thread per rank, each running only its rank's work: a pool shared by the ranks would hand a
   * rank's second phase (running the ops made in the first) to whichever thread is idle.
   */
  private final List<ExecutorService> rankThreads;

  private CommunicatorsImpl(List<CommunicatorImpl> ranks, Uses uses) {
    this.ranks = ranks;
    this.uses = uses;
    List<ExecutorService> threads = new ArrayList<>(ranks.size());
    for (int r = 0; r < ranks.size(); r++) {
      threads.add(
          Executors.newSingleThreadExecutor(
              Thread.ofPlatform().daemon().name("cuda-graph-nccl rank " + r).factory()));
    }
    this.rankThreads = List.copyOf(threads);
  }

  /** Opens one rank per device; see {@code Nccl.open}. */
  public static Communicators open(List<Device> devices) {
    if (devices.isEmpty()) {
      throw new IllegalArgumentException("a communicator needs at least one device");
    }
    return open(devices, Backends.of(devices.getFirst().platform()));
  }

  /** Opens one rank per device with {@code backend}. */
  static Communicators open(List<Device> devices, Backend backend) {
    if (devices.isEmpty()) {
      throw new IllegalArgumentException("a communicator needs at least one device");
    }
    if (new HashSet<>(devices).size() != devices.size()) {
      throw new IllegalArgumentException(
          "each device may be one rank only, but the list repeats one: " + ordinals(devices));
    }
    var platform = devices.getFirst().platform();
    for (Device device : devices) {
      if (device.platform() != platform) {
        throw new IllegalArgumentException(
            "the devices belong to different platforms; a communicator spans one platform's"
                + " devices");
      }
    }
    List<Backend.Endpoint> endpoints = backend.openAll(devices);
    int size = devices.size();
    Uses uses =
        new Uses(
            "the communicator of " + size + " ranks on devices " + ordinals(devices),
            () -> Destroyer.destroy(backend, endpoints));
    List<CommunicatorImpl> ranks = new ArrayList<>(size);
    try {
      for (int r = 0; r < size; r++) {
        ranks.add(new CommunicatorImpl(r, size, devices.get(r), endpoints.get(r), uses, false));
      }
    } catch (RuntimeException e) {
      ranks.forEach(CommunicatorImpl::closeRank);
      uses.closeOwner();
      throw e;
    }
    return new CommunicatorsImpl(List.copyOf(ranks), uses);
  }

  private static String ordinals(List<Device> devices) {
    return devices.stream().map(d -> String.valueOf(d.ordinal())).toList().toString();
  }

  @Override
  public int size() {
    return ranks.size();
  }

  @Override
  public List<Communicator> ranks() {
    return List.copyOf(ranks);
  }

  @Override
  public Communicator rank(int rank) {
    Objects.checkIndex(rank, ranks.size());
    return ranks.get(rank);
  }

  @Override
  public <T> List<T> run(Function<? super Communicator, ? extends DeviceOp<T>> step) {
    Objects.requireNonNull(step, "step");
    List<DeviceOp<T>> ops = makeOnEveryRank(step);
    return onEveryRank(rank -> ops.get(rank.rank()).syncOn(rank.stream()));
  }

  @Override
  public <T> CapturedStep<T> capture(Function<? super Communicator, ? extends DeviceOp<T>> step) {
    Objects.requireNonNull(step, "step");
    List<DeviceOp<T>> ops = makeOnEveryRank(step);
    List<CudaGraph<T>> graphs =
        onEveryRank(rank -> CudaGraph.capture(rank.stream(), ops.get(rank.rank())));
    return new CapturedStepImpl<>(graphs);
  }

  /**
   * Makes every rank's op, each on its rank's thread, and returns only once all are made: a rank
   * whose op is refused (a collective's checks, the step's own failure) must stop the step on every
   * rank, since the others' collectives would otherwise wait for it for ever. An op that was made
   * but never runs holds nothing (leases are taken when it executes).
   */
  private <T> List<DeviceOp<T>> makeOnEveryRank(
      Function<? super Communicator, ? extends DeviceOp<T>> step) {
    return onEveryRank(
        rank ->
            Objects.requireNonNull(
                step.apply(rank),
                () -> "the step returned null for " + rank + "; it must return the rank's op"));
  }

  /**
   * Runs {@code work} for every rank at once, each on its rank's thread, and waits for all. A rank
   * whose work succeeds while another fails still returns its result to be cleaned up: graphs made
   * by the ranks that succeeded are closed when any rank fails.
   */
  private <R> List<R> onEveryRank(Function<CommunicatorImpl, R> work) {
    List<Future<R>> futures = new ArrayList<>(ranks.size());
    for (int r = 0; r < ranks.size(); r++) {
      CommunicatorImpl rank = ranks.get(r);
      futures.add(rankThreads.get(r).submit(() -> work.apply(rank)));
    }
    List<R> results = new ArrayList<>(ranks.size());
    RuntimeException failure = null;
    for (Future<R> future : futures) {
      try {
        results.add(getUninterruptibly(future));
      } catch (ExecutionException e) {
        failure = Failures.add(failure, asRuntime(e.getCause()));
      }
    }
    if (failure != null) {
      for (R result : results) {
        if (result instanceof CudaGraph<?> graph) {
          graph.close();
        }
      }
      throw failure;
    }
    return results;
  }

  private static <R> R getUninterruptibly(Future<R> future) throws ExecutionException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static RuntimeException asRuntime(Throwable cause) {
    return switch (cause) {
      case RuntimeException r -> r;
      case Error error -> throw error;
      default -> new IllegalStateException(cause);
    };
  }

  @Override
  public void close() {
    if (uses.isClosed()) {
      return;
    }
    rankThreads.forEach(ExecutorService::shutdown);
    ranks.forEach(CommunicatorImpl::closeRank);
    uses.closeOwner();
  }

  @Override
  public String toString() {
    return "communicators of " + ranks.size() + " ranks";
  }
}
