// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.StreamFlags;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.jspecify.annotations.Nullable;

/**
 * The auxiliary streams of one device that parallel branches and conditional bodies run on, each
 * with the two events that order it after its origin (fork) and its origin after it (join). The
 * library owns them: created on first need, reused by later ops, destroyed once when the device
 * closes. A lane is borrowed by one execution at a time; lanes that took part in a capture go back
 * only when that capture has ended, so no other work is ever captured through them.
 */
public final class AuxLanes {

  /** One auxiliary stream and its fork and join events. */
  public record Lane(StreamImpl stream, CuEvent fork, CuEvent join) {}

  private final DeviceImpl device;
  private final ConcurrentLinkedDeque<Lane> idle = new ConcurrentLinkedDeque<>();
  private final List<Lane> created = new ArrayList<>();

  AuxLanes(DeviceImpl device) {
    this.device = device;
  }

  /** {@return an idle lane, created if none is}; the device's context is current. */
  public Lane borrow() {
    Lane lane = idle.pollFirst();
    return lane != null ? lane : create();
  }

  /** Makes {@code lane} available again; its enqueued work orders only through its events. */
  public void giveBack(Lane lane) {
    idle.addFirst(lane);
  }

  private Lane create() {
    TranslatingDriver driver = device.platform().driver();
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    @Nullable CuEvent fork = null;
    try {
      fork = driver.eventCreate(EventFlags.DISABLE_TIMING);
      CuEvent join = driver.eventCreate(EventFlags.DISABLE_TIMING);
      Lane lane = new Lane(new StreamImpl(device, stream, this), fork, join);
      synchronized (created) {
        created.add(lane);
      }
      return lane;
    } catch (RuntimeException | Error e) {
      try {
        if (fork != null) {
          driver.eventDestroy(fork);
        }
        driver.streamDestroy(stream);
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /**
   * Destroys every lane, each handle once, after waiting for its work; the device's context is
   * current and nothing executes any more. {@return the first failure, others suppressed in it}
   */
  @Nullable RuntimeException close(TranslatingDriver driver) {
    List<Lane> lanes;
    synchronized (created) {
      lanes = List.copyOf(created);
      created.clear();
    }
    idle.clear();
    @Nullable RuntimeException failure = null;
    for (Lane lane : lanes) {
      try {
        driver.streamSynchronize(lane.stream().handle());
      } catch (RuntimeException e) {
        // A sticky error: nothing runs any more, and the handles can still be destroyed.
      }
      failure = attempt(failure, () -> driver.streamDestroy(lane.stream().handle()));
      failure = attempt(failure, () -> driver.eventDestroy(lane.fork()));
      failure = attempt(failure, () -> driver.eventDestroy(lane.join()));
    }
    return failure;
  }

  private static @Nullable RuntimeException attempt(
      @Nullable RuntimeException failure, Runnable release) {
    try {
      release.run();
    } catch (RuntimeException e) {
      if (failure == null) {
        return e;
      }
      failure.addSuppressed(e);
    }
    return failure;
  }
}
