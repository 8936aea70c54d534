// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

import cuda.graph.KernelCall;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.collective.CollectiveKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Where the kernels of one simulated communicator's ranks meet. NCCL matches collectives by their
 * order on each rank, and sends with receives by their order between two ranks; so does this. A
 * group's kernel first brings every input of its collectives (a copy, so in-place collectives work)
 * and only then waits for the others' inputs and writes its results, which is what lets a group
 * receive before it sends. Ranks that disagree about a collective, or one that never comes, fail
 * the communicator for good, with a message naming ranks and collectives: real NCCL would hang or
 * corrupt memory.
 */
final class SimulatedClique {

  private final int size;
  private final Duration timeout;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final long[] collectivesBegun;
  private final long[][] sendsBegun;
  private final long[][] recvsBegun;
  private final Map<Long, Meeting> meetings = new HashMap<>();
  private final Map<Mail.Key, Mail> mail = new HashMap<>();
  private @Nullable String failure;

  SimulatedClique(int size, Duration timeout) {
    this.size = size;
    this.timeout = timeout;
    this.collectivesBegun = new long[size];
    this.sendsBegun = new long[size][size];
    this.recvsBegun = new long[size][size];
  }

  int size() {
    return size;
  }

  /** One collective of all ranks: what each brought, and how many have taken their result. */
  private final class Meeting {
    final long sequence;
    final SimulatedCollective[] collectives = new SimulatedCollective[size];
    final byte[][] inputs = new byte[size][];
    int arrived;
    int left;

    Meeting(long sequence) {
      this.sequence = sequence;
    }
  }

  /** One send, waiting for its receive. */
  private record Mail(SimulatedCollective collective, byte[] data) {
    record Key(int from, int to, long sequence) {}
  }

  /** What one collective of a group does on this rank, once its inputs are in. */
  private record Pending(
      SimulatedCollective collective,
      MemorySegment recv,
      @Nullable Meeting meeting,
      Mail.@Nullable Key mailKey) {}

  /** Runs the group whose arguments {@code call} holds (see {@link SimulatedKernels}). */
  void execute(KernelCall call, int groupSize) {
    int rank = call.i32(SimulatedKernels.rankArgument(groupSize));
    List<Pending> pending = new ArrayList<>(groupSize);
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      checkNotFailed();
      for (int i = 0; i < groupSize; i++) {
        int at = SimulatedKernels.firstArgument(i);
        SimulatedCollective c =
            SimulatedCollective.unpack(call.i32(at + 3), call.i64(at + 2), call.i32(at + 4));
        MemorySegment send = call.memory(at, c.sendBytes(size));
        MemorySegment recv = call.memory(at + 1, c.recvBytes(size));
        pending.add(bring(rank, c, send, recv));
      }
      changed.signalAll();
      for (Pending p : pending) {
        take(rank, p, deadline);
      }
    } finally {
      lock.unlock();
    }
  }

  private Pending bring(int rank, SimulatedCollective c, MemorySegment send, MemorySegment recv) {
    byte[] input = send.toArray(ValueLayout.JAVA_BYTE);
    switch (c.kind()) {
      case SEND -> {
        int peer = c.rankArgument();
        Mail.Key key = new Mail.Key(rank, peer, sendsBegun[rank][peer]++);
        mail.put(key, new Mail(c, input));
        return new Pending(c, recv, null, null);
      }
      case RECV -> {
        int peer = c.rankArgument();
        return new Pending(c, recv, null, new Mail.Key(peer, rank, recvsBegun[peer][rank]++));
      }
      default -> {
        long sequence = collectivesBegun[rank]++;
        Meeting meeting = meetings.computeIfAbsent(sequence, Meeting::new);
        for (int other = 0; other < size; other++) {
          SimulatedCollective theirs = meeting.collectives[other];
          if (theirs != null && !theirs.equals(c)) {
            fail(
                "ranks disagree about collective #"
                    + sequence
                    + ": rank "
                    + other
                    + " runs "
                    + theirs.describe()
                    + " but rank "
                    + rank
                    + " runs "
                    + c.describe()
                    + "; every rank must run the same collectives in the same order");
          }
        }
        meeting.collectives[rank] = c;
        meeting.inputs[rank] = input;
        meeting.arrived++;
        return new Pending(c, recv, meeting, null);
      }
    }
  }

  private void take(int rank, Pending p, long deadline) {
    SimulatedCollective c = p.collective();
    if (c.kind() == CollectiveKind.SEND) {
      return; // The send's data was copied when it was brought; the receiver takes it.
    }
    if (p.mailKey() != null) {
      Mail.Key key = p.mailKey();
      while (!mail.containsKey(key)) {
        await(
            deadline,
            () ->
                "rank "
                    + rank
                    + "'s "
                    + c.describe()
                    + " waits for rank "
                    + key.from()
                    + "'s matching ncclSend, which never came");
      }
      Mail sent = Objects.requireNonNull(mail.remove(key));
      if (sent.collective().count() != c.count() || sent.collective().type() != c.type()) {
        fail(
            "rank "
                + key.from()
                + " sent "
                + sent.collective().count()
                + " x "
                + sent.collective().type()
                + " but rank "
                + rank
                + " receives "
                + c.count()
                + " x "
                + c.type()
                + "; a send and its receive must agree on count and type");
      }
      MemorySegment.copy(MemorySegment.ofArray(sent.data()), 0, p.recv(), 0, sent.data().length);
      return;
    }
    Meeting meeting = Objects.requireNonNull(p.meeting());
    while (meeting.arrived < size) {
      await(deadline, () -> missing(meeting, c));
    }
    byte[] result = result(rank, c, meeting.inputs);
    MemorySegment.copy(MemorySegment.ofArray(result), 0, p.recv(), 0, result.length);
    if (++meeting.left == size) {
      meetings.remove(meeting.sequence);
    }
  }

  private byte[] result(int rank, SimulatedCollective c, byte[][] inputs) {
    ReduceOp op = c.op();
    return switch (c.kind()) {
      case ALL_REDUCE ->
          Reductions.reduce(c.type(), Objects.requireNonNull(op), inputs, 0, c.count());
      case REDUCE_SCATTER ->
          Reductions.reduce(
              c.type(), Objects.requireNonNull(op), inputs, rank * c.count(), c.count());
      case ALL_GATHER -> {
        int part = inputs[0].length;
        byte[] all = new byte[part * size];
        for (int r = 0; r < size; r++) {
          System.arraycopy(inputs[r], 0, all, r * part, part);
        }
        yield all;
      }
      case BROADCAST -> inputs[c.rankArgument()];
      case SEND, RECV -> throw new IllegalStateException("not a collective of every rank");
    };
  }

  private String missing(Meeting meeting, SimulatedCollective c) {
    List<Integer> absent = new ArrayList<>();
    for (int r = 0; r < size; r++) {
      if (meeting.collectives[r] == null) {
        absent.add(r);
      }
    }
    return c.describe()
        + " (collective #"
        + meeting.sequence
        + ") waits for rank(s) "
        + absent
        + ", which never reached it; every rank must run it, concurrently (Communicators.run and"
        + " capture do)";
  }

  private void await(long deadline, java.util.function.Supplier<String> what) {
    checkNotFailed();
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      fail(what.get() + " (gave up after " + timeout.toMillis() + " ms, where NCCL would hang)");
    }
    try {
      changed.await(left, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted while waiting: " + what.get());
    }
    checkNotFailed();
  }

  private void fail(String message) {
    if (failure == null) {
      failure = message;
    }
    changed.signalAll();
    throw new SimulatedCollectiveFailure("simulated NCCL: " + message);
  }

  private void checkNotFailed() {
    if (failure != null) {
      throw new SimulatedCollectiveFailure(
          "simulated NCCL: the communicator failed earlier and is unusable: " + failure);
    }
  }
}
