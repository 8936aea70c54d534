package cuda.graph;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the stream on which {@link DeviceOp#sync()} and {@link DeviceOp#async()} run an op.
 *
 * <p>Only the choice of stream is the policy's: ordering holds within a stream, never across
 * streams, so ops that depend on each other's results must be composed into one op (or run on one
 * stream). Implementations must be thread-safe.
 */
@FunctionalInterface
public interface SchedulingPolicy {

  /** {@return the stream for the next op on {@code device}} */
  Stream nextStream(Device device);

  /**
   * {@return a policy that cycles through {@code streamsPerDevice} streams of each device, created
   * on first use and kept for the life of the platform}
   */
  static SchedulingPolicy roundRobin(int streamsPerDevice) {
    if (streamsPerDevice < 1) {
      throw new IllegalArgumentException("a round-robin policy needs at least one stream per device, got " + streamsPerDevice);
    }
    return new RoundRobin(streamsPerDevice);
  }

  /** Round robin over a fixed pool of streams per device; {@link #close()} closes the streams. */
  final class RoundRobin implements SchedulingPolicy, AutoCloseable {
    private final int size;
    private final Map<Device, Stream[]> pools = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    private RoundRobin(int size) {
      this.size = size;
    }

    @Override
    public Stream nextStream(Device device) {
      Stream[] pool = pools.computeIfAbsent(device, d -> {
        Stream[] streams = new Stream[size];
        for (int i = 0; i < size; i++) {
          streams[i] = d.newStream();
        }
        return streams;
      });
      return pool[Math.floorMod(next.getAndIncrement(), size)];
    }

    /** Closes every stream this policy created; queued work still completes. */
    @Override
    public void close() {
      pools.values().forEach(streams -> {
        for (Stream s : streams) {
          s.close();
        }
      });
      pools.clear();
    }

    @Override
    public String toString() {
      return "SchedulingPolicy.roundRobin(" + size + ")";
    }
  }
}
