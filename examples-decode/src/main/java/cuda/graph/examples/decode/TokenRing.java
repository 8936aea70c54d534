// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.MappedHostBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

/**
 * The ring through which the stream loop's kernel ({@code finish_stream} in decode_kernels.cu)
 * hands each token to the host while the loop runs: host memory mapped into the device's address
 * space, {@code long} words.
 *
 * <pre>
 * [0]  PUBLISHED  tokens published so far (device: a volatile store after __threadfence_system())
 * [1]  TIMED_OUT  1 once the device gave up waiting for a free slot (device)
 * [8]  CONSUMED   tokens the host has read (host: setLongRelease), on a cache line of its own
 * [16 + 2s]       slot s: the token
 * [17 + 2s]       slot s: the device's %globaltimer (ns) when it wrote the token
 * </pre>
 *
 * The {@code i}-th token of a decode (the token at position {@code i + 1}, {@code i} from 0) goes
 * to slot {@code i % capacity}. Before it overwrites a slot (from {@code i = capacity} on), the
 * kernel waits until the host has consumed the token that was there ({@code CONSUMED >= i -
 * capacity + 1}), for at most the timeout, after which it sets {@code TIMED_OUT}, ends the loop and
 * publishes nothing more. A ring of {@code capacity >= steps} never makes the kernel read host
 * memory, so the engine's default is one slot per position of the KV cache (every decode fits); a
 * smaller ring costs one read across the bus per token once it wraps, and holds the device back
 * when the host consumes slowly, instead of losing tokens.
 *
 * <p>The ring belongs to one engine: one streamed decode at a time. Closing it frees the memory
 * once the graphs that captured its view are gone.
 */
final class TokenRing implements AutoCloseable {

  static final int PUBLISHED = 0, TIMED_OUT = 1, CONSUMED = 8, HEADER = 16;

  /** The calibration block: [0] the host's round, [1] the device's round, [2] its timer, [3]. */
  static final int HOST_ROUND = 0, DEVICE_ROUND = 1, DEVICE_TIME = 2, SYNC_TIMED_OUT = 3;

  static final int SYNC_LENGTH = 8;

  private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

  final int capacity;
  final Duration timeout;
  private final MappedHostBuffer<Long> memory;

  /** Receives the tokens of a streamed decode, in order, on the thread that drains the ring. */
  @FunctionalInterface
  interface TokenSink {
    /**
     * @param index the token's index in the decode, from 0 (the token at position {@code index +
     *     1})
     * @param token the token
     * @param deviceNanos the device's global timer when it wrote the token
     * @param seenNanos {@link System#nanoTime()} when the host saw it published
     */
    void accept(int index, int token, long deviceNanos, long seenNanos);
  }

  /**
   * The offset of the device's global timer from {@link System#nanoTime()}: a device time {@code d}
   * is the host time {@code d - offsetNanos}, within {@code errorNanos}.
   */
  record ClockOffset(long offsetNanos, long errorNanos, int rounds) {
    long toHostNanos(long deviceNanos) {
      return deviceNanos - offsetNanos;
    }
  }

  /**
   * Allocates a ring of {@code capacity} slots on {@code device}.
   *
   * @param timeout how long the device waits for a slot before it gives up
   */
  TokenRing(Device device, int capacity, Duration timeout) {
    if (capacity < 1) {
      throw new IllegalArgumentException("a ring needs at least one slot, not " + capacity);
    }
    this.capacity = capacity;
    this.timeout = timeout;
    this.memory = device.allocateMapped(ElementType.I64, length(capacity));
  }

  static long length(int capacity) {
    return HEADER + 2L * capacity;
  }

  /** {@return the view kernels write through} */
  DeviceBuffer<Long> deviceView() {
    return memory.deviceView();
  }

  /** {@return the tokens published so far (an acquire read)} */
  long published() {
    return memory.getLongAcquire(PUBLISHED);
  }

  boolean isClosed() {
    return memory.isClosed();
  }

  /** Empties the ring for the next decode; only while no kernel writes it. */
  void clear() {
    memory.setLongRelease(TIMED_OUT, 0);
    memory.setLongRelease(CONSUMED, 0);
    memory.setLongRelease(PUBLISHED, 0);
  }

  /**
   * How the draining thread waits for the next token. {@link #SPIN} reads the published count in a
   * loop ({@link Thread#onSpinWait()}): the lowest latency, a core busy for the whole decode.
   * {@link #PACED} learns the interval between tokens (the shortest of the last {@value
   * #PACE_WINDOW}) and, where it is longer than {@link #PACE_FROM_NANOS}, parks the thread until
   * {@link #PACE_GUARD_NANOS} before the next token is due, then spins: the core is free most of a
   * long step, at the cost of a token that comes early waiting for the park to end.
   */
  enum Wait {
    SPIN,
    PACED
  }

  /** The tokens whose intervals {@link Wait#PACED} learns from. */
  static final int PACE_WINDOW = 8;

  /** The shortest interval between tokens for which {@link Wait#PACED} parks at all. */
  static final long PACE_FROM_NANOS = 300_000;

  /**
   * How long before a token is due a {@link Wait#PACED} park ends: a park overshoots by tens of
   * microseconds on Linux (its timer slack is 50 us).
   */
  static final long PACE_GUARD_NANOS = 150_000;

  /** A streamed decode: its launch, and the ring it drains. */
  final class StreamingDecode {
    private final CompletableFuture<?> launch;
    private final int steps;

    StreamingDecode(CompletableFuture<?> launch, int steps) {
      this.launch = launch;
      this.steps = steps;
    }

    /**
     * {@return how long to park, {@code elapsed} after the last token, for the next one not to be
     * missed by more than the park's overshoot: until {@link #PACE_GUARD_NANOS} before the shortest
     * recent interval is over; 0 (spin) where the interval is shorter than {@link #PACE_FROM_NANOS}
     * or that moment has passed}
     */
    private static long parkFor(long[] intervals, long elapsed) {
      long shortest = Long.MAX_VALUE;
      for (long i : intervals) {
        shortest = Math.min(shortest, i);
      }
      if (shortest < PACE_FROM_NANOS) {
        return 0;
      }
      return Math.max(0, shortest - PACE_GUARD_NANOS - elapsed);
    }

    /** {@return the launch of the loop} */
    CompletableFuture<?> launch() {
      return launch;
    }

    /**
     * Delivers the decode's tokens to {@code sink} as the device publishes them, in order, each
     * once, spinning on the published count ({@link Thread#onSpinWait()}) between them; then waits
     * for the launch. If {@code sink} throws, the ring is still consumed (not delivered) until the
     * launch ends, so that the device is never left waiting, and then the exception is thrown.
     *
     * @return the number of tokens delivered: {@code steps}
     * @throws IllegalStateException if the device gave up waiting for the host, or the launch ended
     *     before it published {@code steps} tokens
     * @throws CompletionException if the launch failed
     */
    int drainTo(TokenSink sink) {
      return drainTo(sink, Wait.SPIN);
    }

    /**
     * As {@link #drainTo(TokenSink)}, waiting for each token as {@code wait} says.
     *
     * @return the number of tokens delivered: {@code steps}
     */
    int drainTo(TokenSink sink, Wait wait) {
      int delivered = 0;
      RuntimeException failed = null;
      Error error = null;
      long[] intervals = new long[PACE_WINDOW];
      long lastSeen = 0;
      while (delivered < steps) {
        long published = memory.getLongAcquire(PUBLISHED);
        if (published == delivered) {
          if (!launch.isDone()) {
            long park =
                wait == Wait.PACED && delivered > PACE_WINDOW
                    ? parkFor(intervals, System.nanoTime() - lastSeen)
                    : 0;
            if (park > 0) {
              java.util.concurrent.locks.LockSupport.parkNanos(park);
            } else {
              Thread.onSpinWait();
            }
            continue;
          }
          published = memory.getLongAcquire(PUBLISHED); // what the launch published last
          if (published == delivered) {
            break;
          }
        }
        long seen = System.nanoTime();
        if (delivered > 0) {
          intervals[delivered % PACE_WINDOW] = (seen - lastSeen) / (published - delivered);
        }
        lastSeen = seen;
        for (; delivered < published; delivered++) {
          long word = HEADER + 2L * (delivered % capacity);
          int token = (int) memory.getLongAcquire(word);
          long deviceNanos = memory.getLongAcquire(word + 1);
          memory.setLongRelease(CONSUMED, delivered + 1L); // the slot is free again
          if (failed == null && error == null) {
            try {
              sink.accept(delivered, token, deviceNanos, seen);
            } catch (RuntimeException e) {
              failed = e;
            } catch (Error e) {
              error = e;
            }
          }
        }
      }
      try {
        launch.join();
      } catch (CompletionException e) {
        if (failed == null && error == null) {
          throw e;
        }
        (error != null ? error : failed).addSuppressed(e);
      }
      if (error != null) {
        throw error;
      }
      if (failed != null) {
        throw failed;
      }
      if (memory.getLongAcquire(TIMED_OUT) != 0) {
        throw new IllegalStateException(
            "the device gave up after waiting "
                + timeout
                + " for the host to consume token "
                + (delivered - capacity)
                + " (ring of "
                + capacity
                + " slots); "
                + delivered
                + " of "
                + steps
                + " tokens were delivered");
      }
      if (delivered < steps) {
        throw new IllegalStateException(
            "the launch ended after publishing "
                + delivered
                + " of "
                + steps
                + " tokens: was the engine reset for "
                + steps
                + " steps?");
      }
      return delivered;
    }
  }

  /**
   * {@return the clock offset measured with {@code rounds} round trips through {@code sync}} while
   * {@code launch}, a launch of {@code clock_sync} over it, runs: for round {@code r} the host
   * stores {@code r} (at {@code t0}), the kernel sees it, reads its timer {@code g} and answers
   * {@code r}, which the host sees at {@code t1}. So {@code g} was read between {@code t0} and
   * {@code t1}: offset {@code g - (t0 + t1) / 2} within {@code (t1 - t0) / 2}; the round with the
   * shortest round trip is kept.
   */
  static ClockOffset calibrate(
      MappedHostBuffer<Long> sync, CompletableFuture<?> launch, int rounds) {
    long bestTrip = Long.MAX_VALUE, offset = 0;
    for (int r = 1; r <= rounds; r++) {
      long t0 = System.nanoTime();
      sync.setLongRelease(HOST_ROUND, r);
      while (sync.getLongAcquire(DEVICE_ROUND) < r) {
        if (launch.isDone() && sync.getLongAcquire(DEVICE_ROUND) < r) {
          launch.join();
          throw new IllegalStateException(
              "the clock calibration kernel stopped before round "
                  + r
                  + (sync.getLongAcquire(SYNC_TIMED_OUT) != 0 ? ": it timed out" : ""));
        }
        Thread.onSpinWait();
      }
      long t1 = System.nanoTime();
      long g = sync.getLongAcquire(DEVICE_TIME);
      if (t1 - t0 < bestTrip) {
        bestTrip = t1 - t0;
        offset = g - (t0 + bestTrip / 2);
      }
    }
    launch.join();
    return new ClockOffset(offset, (bestTrip + 1) / 2, rounds);
  }

  @Override
  public void close() {
    memory.close();
  }

  // ---- the kernels' side, for their Java references

  /**
   * {@code finish_stream}'s publication in Java: waits (at most {@code timeoutNanos}) for the slot
   * of token {@code index} to be free, writes the token and the "device" time ({@link
   * System#nanoTime()} on the simulator), fences as {@code __threadfence_system()} does, then
   * publishes the count with a release store. {@return false if it gave up waiting, having set
   * TIMED_OUT}
   */
  static boolean publish(
      MemorySegment ring, int capacity, int index, int token, long timeoutNanos) {
    if (index >= capacity) {
      long need = (long) index - capacity + 1, deadline = System.nanoTime() + timeoutNanos;
      while ((long) LONG.getAcquire(ring, 8L * CONSUMED) < need) {
        if (System.nanoTime() > deadline) {
          LONG.setRelease(ring, 8L * TIMED_OUT, 1L);
          return false;
        }
        Thread.onSpinWait();
      }
    }
    long word = HEADER + 2L * (index % capacity);
    ring.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, word, token);
    ring.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, word + 1, System.nanoTime());
    VarHandle.fullFence();
    LONG.setRelease(ring, 8L * PUBLISHED, index + 1L);
    return true;
  }

  /** {@code clock_sync} in Java: {@code clock} is the device's timer. */
  static void answerRounds(MemorySegment sync, int rounds, long timeoutNanos, LongSupplier clock) {
    for (int r = 1; r <= rounds; r++) {
      long deadline = System.nanoTime() + timeoutNanos;
      while ((long) LONG.getAcquire(sync, 8L * HOST_ROUND) < r) {
        if (System.nanoTime() > deadline) {
          LONG.setRelease(sync, 8L * SYNC_TIMED_OUT, 1L);
          return;
        }
        Thread.onSpinWait();
      }
      sync.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, DEVICE_TIME, clock.getAsLong());
      VarHandle.fullFence();
      LONG.setRelease(sync, 8L * DEVICE_ROUND, (long) r);
    }
  }
}
