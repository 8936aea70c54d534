// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.Device;
import cuda.graph.SchedulingPolicy;
import cuda.graph.Stream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Round robin over a fixed pool of streams per device; {@link #close()} closes the streams. */
public final class RoundRobinPolicy implements SchedulingPolicy, AutoCloseable {
  private final int size;
  private final Map<Device, Stream[]> pools = new ConcurrentHashMap<>();
  private final AtomicInteger next = new AtomicInteger();

  public RoundRobinPolicy(int size) {
    this.size = size;
  }

  @Override
  public Stream nextStream(Device device) {
    Stream[] pool =
        pools.computeIfAbsent(
            device,
            d -> {
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
    pools
        .values()
        .forEach(
            streams -> {
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
