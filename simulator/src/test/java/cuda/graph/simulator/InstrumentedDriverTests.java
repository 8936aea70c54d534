// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.StreamFlags;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LifetimeViolation;
import cuda.graph.testkit.LoggedCall;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The instruments of {@link InstrumentedDriver} over the simulator, checked against a second
 * instrumented driver between the two, which sees exactly what reaches the simulator.
 */
class InstrumentedDriverTests {

  private SimulatedDriver simulator;
  private InstrumentedDriver provider;
  private InstrumentedDriver driver;
  private int device;
  private CuContext context;

  @BeforeEach
  void open() {
    simulator = Simulator.create();
    provider = new InstrumentedDriver(simulator);
    driver = new InstrumentedDriver(provider);
    driver.init(0);
    device = driver.deviceGet(0);
    context = driver.devicePrimaryCtxRetain(device);
    driver.ctxSetCurrent(context);
  }

  @AfterEach
  void close() {
    driver.close();
  }

  @Test
  void createdAndDestroyedHandlesAreCountedPerKindAsTheProviderSeesThem() {
    CuStream kept = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CuStream gone = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.streamDestroy(gone);
    CuEvent event = driver.eventCreate(EventFlags.DEFAULT);
    driver.eventDestroy(event);
    long memory = driver.memAlloc(1024);
    MemorySegment pinned = driver.memAllocHost(64);

    HandleLedger ledger = driver.ledger();
    assertEquals(2, ledger.created(HandleKind.STREAM));
    assertEquals(1, ledger.destroyed(HandleKind.STREAM));
    assertEquals(List.of(kept), ledger.liveHandles(HandleKind.STREAM));
    assertEquals(
        Map.of(
            HandleKind.CONTEXT,
            1L,
            HandleKind.STREAM,
            1L,
            HandleKind.DEVICE_MEMORY,
            1L,
            HandleKind.HOST_MEMORY,
            1L),
        ledger.liveCounts());
    for (HandleKind kind :
        List.of(
            HandleKind.STREAM,
            HandleKind.EVENT,
            HandleKind.DEVICE_MEMORY,
            HandleKind.HOST_MEMORY)) {
      assertEquals(
          provider.ledger().live(kind),
          ledger.live(kind),
          kind + ": the wrapper and the provider agree");
    }

    driver.memFree(memory);
    driver.memFreeHost(pinned);
    driver.streamDestroy(kept);
    driver.devicePrimaryCtxRelease(device);
    assertEquals(Map.of(), ledger.liveCounts());
  }

  @Test
  void aDestroyedStreamIsRefusedBeforeTheProviderSeesIt() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.streamDestroy(stream);

    LifetimeViolation v =
        assertThrows(LifetimeViolation.class, () -> driver.streamSynchronize(stream));

    assertEquals(DriverCall.STREAM_SYNCHRONIZE, v.call());
    assertTrue(v.getMessage().contains("was destroyed by cuStreamDestroy_v2"), v.getMessage());
    assertEquals(
        0,
        provider.calls().count(DriverCall.STREAM_SYNCHRONIZE),
        "the provider must never see the call");
    assertEquals(List.of(v), driver.violations());
    assertEquals(
        1, driver.calls().count(DriverCall.STREAM_SYNCHRONIZE, LoggedCall.Outcome.REFUSED));
  }

  @Test
  void destroyingAGraphTwiceIsRefusedAndCountedOnce() {
    CuGraph graph = driver.graphCreate(0);
    driver.graphDestroy(graph);

    assertThrows(LifetimeViolation.class, () -> driver.graphDestroy(graph));

    assertEquals(
        1,
        provider.ledger().destroyed(HandleKind.GRAPH),
        "the second destroy never reached the provider");
    assertEquals(1, driver.ledger().destroyed(HandleKind.GRAPH));
  }

  @Test
  void freeingDeviceMemoryTwiceOrWritingIntoItAfterwardsIsRefused() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    long memory = driver.memAllocAsync(4096, stream);
    driver.memFreeAsync(memory, stream);

    assertThrows(LifetimeViolation.class, () -> driver.memFreeAsync(memory, stream));
    assertThrows(
        LifetimeViolation.class,
        () -> driver.memsetD32Async(memory + 64, 7, 4, stream),
        "a pointer into the middle of freed memory");

    assertEquals(0, provider.calls().count(DriverCall.MEMSET_D32_ASYNC));
    assertEquals(2, driver.violations().size());
    driver.streamSynchronize(stream);
    driver.streamDestroy(stream);
  }

  @Test
  void aDestroyThatFailsLeavesTheHandleLive() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.faults().failNth(DriverCall.STREAM_DESTROY, 1, CuResult.INVALID_HANDLE);

    assertThrows(CudaDriverException.class, () -> driver.streamDestroy(stream));
    assertEquals(1, driver.ledger().live(HandleKind.STREAM));

    driver.streamDestroy(stream);
    assertEquals(0, driver.ledger().live(HandleKind.STREAM));
  }

  @Test
  void failNthFailsOnlyTheNthCallAndNeverDelegatesIt() {
    driver.faults().failNth(DriverCall.STREAM_CREATE, 2, CuResult.OUT_OF_MEMORY);

    CuStream first = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CudaDriverException e =
        assertThrows(
            CudaDriverException.class, () -> driver.streamCreate(StreamFlags.NON_BLOCKING));
    CuStream third = driver.streamCreate(StreamFlags.NON_BLOCKING);

    assertEquals(CuResult.OUT_OF_MEMORY, e.status());
    assertEquals(DriverCall.STREAM_CREATE, e.call());
    assertEquals(
        2,
        provider.calls().count(DriverCall.STREAM_CREATE),
        "the failed call never reached the provider");
    assertEquals(List.of(), driver.faults().pending());
    assertEquals(1, driver.faults().fired());
    assertEquals(
        List.of(
            LoggedCall.Outcome.SUCCEEDED,
            LoggedCall.Outcome.INJECTED,
            LoggedCall.Outcome.SUCCEEDED),
        driver.calls().records().stream()
            .filter(r -> r.call() == DriverCall.STREAM_CREATE)
            .map(LoggedCall::outcome)
            .toList());
    driver.streamDestroy(first);
    driver.streamDestroy(third);
  }

  @Test
  void failAlwaysFailsEveryCallUntilCleared() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.faults().failAlways(DriverCall.STREAM_QUERY, CuResult.UNKNOWN);

    assertThrows(CudaDriverException.class, () -> driver.streamQuery(stream));
    assertThrows(CudaDriverException.class, () -> driver.streamQuery(stream));
    assertEquals(1, driver.faults().pending().size(), "failAlways stays pending");
    driver.faults().clear();

    assertTrue(driver.streamQuery(stream));
    assertEquals(2, driver.faults().fired());
    driver.streamDestroy(stream);
  }

  @Test
  void endCaptureReturnsNoGraphEndsTheCaptureAndDestroysTheGraphItWithholds() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.streamBeginCapture(stream, CaptureMode.RELAXED);
    driver.faults().endCaptureReturnsNoGraph();

    assertNull(driver.streamEndCapture(stream));

    assertEquals(
        CaptureStatus.NONE, simulator.streamIsCapturing(stream), "the capture really ended");
    assertEquals(0, provider.ledger().live(HandleKind.GRAPH), "and its graph was destroyed");
    assertEquals(
        0,
        driver.ledger().created(HandleKind.GRAPH),
        "a graph the caller never saw is not counted");
    assertEquals(Map.of(), driver.capturingStreams());
    driver.streamDestroy(stream);
  }

  @Test
  void capturingStreamsListsAStreamLeftInCapture() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.streamBeginCapture(stream, CaptureMode.RELAXED);

    assertEquals(Map.of(stream, CaptureStatus.ACTIVE), driver.capturingStreams());

    driver.graphDestroy(driver.streamEndCapture(stream));
    assertEquals(Map.of(), driver.capturingStreams());
    driver.streamDestroy(stream);
  }

  @Test
  void memoryAllocatedDuringACaptureBelongsToTheGraphNotTheCaller() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.streamBeginCapture(stream, CaptureMode.RELAXED);

    long memory = driver.memAllocAsync(256, stream);
    driver.memFreeAsync(memory, stream);
    CuGraph graph = driver.streamEndCapture(stream);

    assertEquals(0, driver.ledger().created(HandleKind.DEVICE_MEMORY));
    assertEquals(0, driver.ledger().destroyed(HandleKind.DEVICE_MEMORY));
    driver.graphDestroy(graph);
    driver.streamDestroy(stream);
  }

  @Test
  void handlesLeftToTheirContextStayCountedAndCannotBeUsedAfterIt() {
    CuStream leaked = driver.streamCreate(StreamFlags.NON_BLOCKING);
    driver.ctxSetCurrent(null);
    driver.devicePrimaryCtxRelease(device);

    assertEquals(1, driver.ledger().live(HandleKind.STREAM), "never destroyed: still a leak");
    assertEquals(1, driver.ledger().reclaimedWithContext(HandleKind.STREAM));
    CuContext again = driver.devicePrimaryCtxRetain(device);
    driver.ctxSetCurrent(again);
    LifetimeViolation v =
        assertThrows(LifetimeViolation.class, () -> driver.streamSynchronize(leaked));
    assertTrue(v.getMessage().contains("destroyed with its context"), v.getMessage());
  }

  @Test
  void releasingAPrimaryContextMoreOftenThanItWasRetainedIsRefused() {
    driver.devicePrimaryCtxRelease(device);

    assertThrows(LifetimeViolation.class, () -> driver.devicePrimaryCtxRelease(device));
    assertEquals(1, provider.calls().count(DriverCall.DEVICE_PRIMARY_CTX_RELEASE));
    driver.devicePrimaryCtxRetain(device); // balances open(); close() just closes the driver
  }

  @Test
  void aViolationOnAnotherThreadIsKeptForTheTest() throws InterruptedException {
    CuEvent event = driver.eventCreate(EventFlags.DEFAULT);
    driver.eventDestroy(event);
    AtomicReference<Throwable> seen = new AtomicReference<>();

    Thread thread =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    driver.eventQuery(event);
                  } catch (Throwable t) {
                    seen.set(t);
                  }
                });
    thread.join();

    assertSame(
        seen.get(), driver.violations().getFirst(), "the violation thrown on the other thread");
  }

  @Test
  void aProviderThatHandsOutALiveHandleAgainIsCaught() {
    CuStream reused = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CudaDriver repeating =
        (CudaDriver)
            Proxy.newProxyInstance(
                CudaDriver.class.getClassLoader(),
                new Class<?>[] {CudaDriver.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("streamCreate")) {
                    return reused;
                  }
                  try {
                    return method.invoke(simulator, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    InstrumentedDriver wrapper = new InstrumentedDriver(repeating);
    wrapper.streamCreate(StreamFlags.NON_BLOCKING);

    LifetimeViolation v =
        assertThrows(LifetimeViolation.class, () -> wrapper.streamCreate(StreamFlags.NON_BLOCKING));

    assertTrue(v.getMessage().contains("still live"), v.getMessage());
    driver.streamDestroy(reused);
  }
}
