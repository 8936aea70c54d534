// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.CudaDriver;
import cuda.graph.testkit.GraphCallOverlaps;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LifetimeViolation;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One test's view of a provider: the provider's driver wrapped in a {@link GraphCallOverlaps} and
 * an {@link InstrumentedDriver}, a {@link CudaPlatform} over them, device 0 with the conformance
 * kernels loaded, and a stream.
 *
 * <p>{@link #close()} closes what the test handed to {@link #own}, the stream and the platform
 * (which closes the driver), then proves the test left nothing behind: it throws {@link
 * ConformanceViolation} if any lifetime violation was recorded during the session, if the ledger
 * still shows a live handle of any kind, or if two calls on one graph object ever overlapped. Use
 * it with try-with-resources, so that a leak found while a test is already failing is attached to
 * that failure as suppressed. Not thread-safe, except {@link #own}, which any thread may call.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ConformanceSession implements AutoCloseable {

  private final InstrumentedDriver driver;
  private final GraphCallOverlaps overlaps;
  private final CudaPlatform platform;
  private final Device device;
  private final Stream stream;
  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private boolean closed;

  private ConformanceSession(
      InstrumentedDriver driver, GraphCallOverlaps overlaps, CudaPlatform platform) {
    this.driver = driver;
    this.overlaps = overlaps;
    this.platform = platform;
    this.device = platform.defaultDevice();
    this.stream = device.newStream();
    ConformanceKernels.load(device);
  }

  /**
   * Opens a session over a new, uninitialized driver of the provider under test; the session owns
   * it. {@code providerId} is what the platform reports as its provider.
   *
   * @param driver the driver under test; wrapped, initialized, and closed with the session
   * @param providerId what {@link CudaPlatform#providerId()} reports
   * @return an open session over device 0, with the conformance kernels loaded
   */
  public static ConformanceSession open(CudaDriver driver, String providerId) {
    GraphCallOverlaps overlaps = new GraphCallOverlaps(Objects.requireNonNull(driver, "driver"));
    InstrumentedDriver instrumented = new InstrumentedDriver(overlaps);
    CudaPlatform platform = CudaPlatform.forDriver(instrumented, providerId);
    try {
      return new ConformanceSession(instrumented, overlaps, platform);
    } catch (RuntimeException | Error e) {
      platform.close();
      throw e;
    }
  }

  /** {@return the instrumented driver under the platform} */
  public InstrumentedDriver driver() {
    return driver;
  }

  /** {@return the count of calls on one graph object that overlapped, under the instruments} */
  public GraphCallOverlaps overlaps() {
    return overlaps;
  }

  /** {@return the platform over the instrumented driver} */
  public CudaPlatform platform() {
    return platform;
  }

  /** {@return device 0, with {@link ConformanceKernels} loaded} */
  public Device device() {
    return device;
  }

  /** {@return the session's stream, closed by {@link #close()}} */
  public Stream stream() {
    return stream;
  }

  /**
   * {@return {@code resource}, which the session closes when it closes} Owned resources are closed
   * newest first, before the stream and the platform.
   *
   * @param <T> the resource's type
   * @param resource closed by {@link #close()}; a failure to close it is reported there
   */
  public <T extends AutoCloseable> T own(T resource) {
    synchronized (owned) {
      owned.push(Objects.requireNonNull(resource, "resource"));
    }
    return resource;
  }

  /**
   * Opens a new stream of device 0 that the session closes.
   *
   * @return a new non-blocking stream, owned by the session
   */
  public Stream newStream() {
    return own(device.newStream());
  }

  /**
   * Fails unless the ledger shows no live handle, no violation was recorded and no two calls on one
   * graph object overlapped: the check {@link #close()} makes at the end, also useful midway once a
   * test has closed everything it made.
   *
   * @param when completes the failure's message, e.g. {@code "after the graph was closed"}
   * @throws ConformanceViolation listing each live handle and how it was made
   */
  public void assertNothingLeaked(String when) {
    List<LifetimeViolation> violations = driver.violations();
    if (!violations.isEmpty()) {
      ConformanceViolation first =
          new ConformanceViolation(
              violations.size()
                  + " driver contract violation(s) "
                  + when
                  + "; the first: "
                  + violations.getFirst().getMessage());
      violations.forEach(first::addSuppressed);
      throw first;
    }
    if (overlaps.overlaps() > 0) {
      throw new ConformanceViolation(
          overlaps.overlaps()
              + " call(s) on a graph object overlapped another call on it "
              + when
              + " (CUDA requires such calls to be serialized); the first: "
              + overlaps.firstOverlaps());
    }
    Map<?, Long> live = driver.ledger().liveCounts();
    if (!live.isEmpty()) {
      throw new ConformanceViolation(
          "live handles "
              + when
              + ": "
              + live
              + "\n  "
              + String.join("\n  ", driver.ledger().describeLive()));
    }
  }

  /**
   * Closes what the session owns, then the stream and the platform, and checks that nothing leaked.
   * Idempotent.
   *
   * @throws ConformanceViolation if a handle is left alive or a violation was recorded
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    Throwable failure = null;
    while (true) {
      AutoCloseable next;
      synchronized (owned) {
        next = owned.poll();
      }
      if (next == null) {
        break;
      }
      try {
        next.close();
      } catch (Exception | Error e) {
        failure = addTo(failure, e);
      }
    }
    try {
      stream.close();
    } catch (RuntimeException | Error e) {
      failure = addTo(failure, e);
    }
    try {
      platform.close();
    } catch (RuntimeException | Error e) {
      failure = addTo(failure, e);
    }
    try {
      assertNothingLeaked("after the platform was closed");
    } catch (ConformanceViolation v) {
      failure = addTo(failure, v);
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException("closing a resource of the session failed", failure);
    }
  }

  private static Throwable addTo(
      @org.jspecify.annotations.Nullable Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  @Override
  public String toString() {
    return "ConformanceSession[" + platform + " over " + driver + "]";
  }
}
