// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import cuda.graph.CudaEvent;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.HostBuffer;
import cuda.graph.MappedHostBuffer;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link BadInputContract} case works with: the session under test, objects in the states
 * the cases need (open, closed, recorded), and, made on first use, a second platform of the same
 * provider (the "foreign" one, also on device 0) and a platform that is already closed, with
 * objects it made while it was open.
 *
 * <p>Buffers, host buffers and events are owned by their session; graphs are closed by {@link
 * #close()}, which then waits for launches that were made but never executed to be collected, and
 * closes the foreign session (which checks its own ledger). The closed platform's objects were left
 * open on purpose, so its ledger is not checked; only that no call broke a handle's lifetime.
 */
final class BadInputFixture implements AutoCloseable {

  /** The length of the buffers the cases get. */
  static final int LENGTH = 8;

  /** The objects of a platform that was closed after they were made. */
  record ClosedPlatform(
      CudaPlatform platform,
      InstrumentedDriver driver,
      Stream stream,
      DeviceBuffer<Integer> buffer,
      CudaEvent event) {}

  private final ConformanceContract contract;
  private final ConformanceSession session;
  private final List<CudaGraph<?>> graphs = new ArrayList<>();
  private final List<CudaDriver> drivers = new ArrayList<>();
  private @Nullable ConformanceSession foreign;
  private final List<CudaGraph<?>> foreignGraphs = new ArrayList<>();
  private @Nullable ClosedPlatform closed;
  private @Nullable Map<String, String> placeholders;

  BadInputFixture(ConformanceContract contract, ConformanceSession session) {
    this.contract = contract;
    this.session = session;
  }

  // ---- the session under test

  ConformanceSession session() {
    return session;
  }

  CudaPlatform platform() {
    return session.platform();
  }

  Device device() {
    return session.device();
  }

  Stream stream() {
    return session.stream();
  }

  /** {@return the value of a device attribute of device 0} */
  int limit(Device.Attribute attribute) {
    return device().attribute(attribute);
  }

  /** {@return a new zeroed integer buffer of {@value #LENGTH} elements, owned by the session} */
  DeviceBuffer<Integer> ints() {
    return ints(LENGTH);
  }

  DeviceBuffer<Integer> ints(int length) {
    return session.own(DeviceBuffer.zeros(ElementType.I32, length).syncOn(stream()));
  }

  DeviceBuffer<Float> floats() {
    return session.own(DeviceBuffer.zeros(ElementType.F32, LENGTH).syncOn(stream()));
  }

  <T> HostBuffer<T> host(ElementType<T> type, int length) {
    return session.own(device().allocateHost(type, length));
  }

  <T> MappedHostBuffer<T> mapped(ElementType<T> type, int length) {
    return session.own(device().allocateMapped(type, length));
  }

  MappedHostBuffer<Integer> closedMapped() {
    MappedHostBuffer<Integer> buffer = device().allocateMapped(ElementType.I32, LENGTH);
    buffer.close();
    return buffer;
  }

  DeviceBuffer<Integer> closedInts() {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, LENGTH).syncOn(stream());
    buffer.close();
    return buffer;
  }

  HostBuffer<Float> closedHost() {
    HostBuffer<Float> buffer = device().allocateHost(ElementType.F32, LENGTH);
    buffer.close();
    return buffer;
  }

  Stream closedStream() {
    Stream stream = device().newStream();
    stream.close();
    return stream;
  }

  CudaEvent event() {
    return session.own(device().newEvent());
  }

  /** {@return an event recorded on the session's stream, its work done} */
  CudaEvent recordedEvent() {
    CudaEvent event = event();
    event.record().syncOn(stream());
    return event;
  }

  CudaEvent closedEvent() {
    CudaEvent event = device().newEvent();
    event.close();
    return event;
  }

  /** {@return a graph that runs {@code inc} on a new buffer, closed by {@link #close()}} */
  CudaGraph<@Nullable Void> graph() {
    CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream(), ConformanceKernels.inc(ints()));
    graphs.add(graph);
    return graph;
  }

  CudaGraph<@Nullable Void> closedGraph() {
    CudaGraph<@Nullable Void> graph = graph();
    graph.close();
    return graph;
  }

  /** {@return a new, uninitialized driver of the provider, closed by {@link #close()}} */
  CudaDriver freshDriver() {
    CudaDriver driver = contract.openDriver();
    drivers.add(driver);
    return driver;
  }

  // ---- another platform of the same provider, also on device 0

  ConformanceSession foreign() {
    if (foreign == null) {
      foreign = contract.openSession();
    }
    return foreign;
  }

  DeviceBuffer<Integer> foreignInts() {
    ConformanceSession f = foreign();
    return f.own(DeviceBuffer.zeros(ElementType.I32, LENGTH).syncOn(f.stream()));
  }

  HostBuffer<Integer> foreignHostInts() {
    ConformanceSession f = foreign();
    return f.own(f.device().allocateHost(ElementType.I32, LENGTH));
  }

  CudaEvent foreignRecordedEvent() {
    ConformanceSession f = foreign();
    CudaEvent event = f.own(f.device().newEvent());
    event.record().syncOn(f.stream());
    return event;
  }

  CudaGraph<@Nullable Void> foreignGraph() {
    ConformanceSession f = foreign();
    DeviceBuffer<Integer> counter = foreignInts();
    CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(f.stream(), ConformanceKernels.inc(counter));
    foreignGraphs.add(graph);
    return graph;
  }

  // ---- a closed platform

  ClosedPlatform closedPlatform() {
    if (closed == null) {
      InstrumentedDriver driver = new InstrumentedDriver(contract.openDriver());
      CudaPlatform platform = CudaPlatform.forDriver(driver, contract.providerId());
      Device device = platform.defaultDevice();
      Stream stream = device.newStream();
      DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, LENGTH).syncOn(stream);
      CudaEvent event = device.newEvent();
      platform.close();
      closed = new ClosedPlatform(platform, driver, stream, buffer, event);
    }
    return closed;
  }

  // ---- what the messages are checked against

  /**
   * {@return the values {@code {NAME}} placeholders in expected key words stand for}: every {@link
   * Device.Attribute} of device 0, and {@code devices}, the platform's device count
   */
  Map<String, String> placeholders() {
    if (placeholders == null) {
      Map<String, String> values = new LinkedHashMap<>();
      values.put("devices", String.valueOf(platform().devices().size()));
      for (Device.Attribute a : Device.Attribute.values()) {
        try {
          values.put(a.name(), String.valueOf(device().attribute(a)));
        } catch (RuntimeException e) {
          // A provider that does not know the attribute: a key word naming it cannot match.
        }
      }
      placeholders = values;
    }
    return placeholders;
  }

  // ---- after the case

  /**
   * Checks that the session is usable: the lock is free, no stream is capturing, a kernel runs and
   * computes on the session's stream, and {@code sync()} runs through the platform's policy.
   */
  void assertPlatformUsable(String afterWhat) {
    assertFalse(DeviceOp.isExecuting(), "the execution lock must be free " + afterWhat);
    assertEquals(
        Map.of(),
        session.driver().capturingStreams(),
        "no stream may be left capturing " + afterWhat);
    DeviceBuffer<Integer> probe = DeviceBuffer.zeros(ElementType.I32, LENGTH).syncOn(stream());
    try {
      int[] ones = new int[LENGTH];
      Arrays.fill(ones, 1);
      assertArrayEquals(
          ones,
          ConformanceKernels.inc(probe).andThen(probe.toIntArray()).syncOn(stream()),
          "a kernel must run on the session's stream " + afterWhat);
    } finally {
      probe.close();
    }
    assertEquals(
        8,
        platform().callAsCurrent(() -> DeviceOp.value(7).map(x -> x + 1).sync()),
        "sync() must run through the platform's policy " + afterWhat);
  }

  /**
   * Closes the graphs the case made, waits for unexecuted launches to be collected, closes the
   * foreign session (checking its ledger) and the fresh drivers, and checks that the closed
   * platform recorded no lifetime violation.
   */
  @Override
  public void close() {
    Throwable failure = null;
    try {
      closeAndCollect(graphs, session.driver().ledger());
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    ConformanceSession f = foreign;
    if (f != null) {
      try {
        closeAndCollect(foreignGraphs, f.driver().ledger());
      } catch (RuntimeException | Error e) {
        failure = add(failure, e);
      }
      try {
        f.close();
      } catch (RuntimeException | Error e) {
        failure = add(failure, e);
      }
    }
    for (CudaDriver d : drivers) {
      try {
        d.close();
      } catch (RuntimeException e) {
        // Closed already, by a platform a case made from it by mistake.
      }
    }
    ClosedPlatform c = closed;
    if (c != null && !c.driver().violations().isEmpty()) {
      ConformanceViolation v =
          new ConformanceViolation(
              "a closed platform's objects reached its driver: "
                  + c.driver().violations().getFirst().getMessage());
      c.driver().violations().forEach(v::addSuppressed);
      failure = add(failure, v);
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
  }

  private static void closeAndCollect(List<CudaGraph<?>> graphs, HandleLedger ledger) {
    graphs.forEach(CudaGraph::close);
    graphs.clear();
    long deadline = System.nanoTime() + LifetimeRun.COLLECT_TIMEOUT_MILLIS * 1_000_000;
    while (ledger.live(HandleKind.GRAPH_EXEC) != 0 && System.nanoTime() < deadline) {
      System.gc();
      try {
        Thread.sleep(LifetimeRun.POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static Throwable add(@Nullable Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
