// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GraphCallOverlaps} on its own (issue 36, item 11): every entry point that takes a graph or
 * an exec marks it busy for the call, so a second call on the same object while the first is inside
 * the driver is counted and described, whichever of its graph arguments it shares; calls on other
 * objects, and calls one after the other, are not. Over a driver that answers every call with a
 * sample and can hold one call inside until the test lets it go.
 */
class GraphCallOverlapsTests {

  /** Destroys are not marked busy (the value may be handed out again at once): tested apart. */
  private static final Set<String> DESTROYS = Set.of("graphDestroy", "graphExecDestroy");

  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  /**
   * A driver that answers each call with a new sample value and holds the first call of {@link
   * #holdNext} inside until {@link #release} is counted down.
   */
  private static final class HoldingDriver {
    final DriverSamples samples = new DriverSamples();
    final CountDownLatch inside = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile @Nullable Method holdNext;
    final CudaDriver driver =
        (CudaDriver)
            Proxy.newProxyInstance(
                CudaDriver.class.getClassLoader(),
                new Class<?>[] {CudaDriver.class},
                (proxy, method, arguments) -> called(method));

    void hold(Method method) {
      holdNext = method;
      armed.set(true);
    }

    private @Nullable Object called(Method method) throws InterruptedException {
      switch (method.getName()) {
        case "toString" -> {
          return "HoldingDriver";
        }
        case "hashCode" -> {
          return System.identityHashCode(this);
        }
        case "equals" -> {
          return false;
        }
        default -> {}
      }
      if (method.equals(holdNext) && armed.compareAndSet(true, false)) {
        inside.countDown();
        if (!release.await(10, TimeUnit.SECONDS)) {
          throw new AssertionError("the test never let " + method.getName() + " go");
        }
      }
      synchronized (samples) {
        return method.getReturnType() == void.class ? null : samples.of(method.getReturnType());
      }
    }
  }

  private static boolean isGraphObject(Class<?> type) {
    return type == CuGraph.class || type == CuGraphExec.class;
  }

  /** {@return the entry points that take a graph or an exec, destroys aside} */
  private static List<Method> graphCalls() {
    return ForwardingCheck.entryPoints().stream()
        .filter(m -> !DESTROYS.contains(m.getName()))
        .filter(m -> List.of(m.getParameterTypes()).stream().anyMatch(t -> isGraphObject(t)))
        .toList();
  }

  private static void invoke(CudaDriver driver, Method method, Object[] arguments) {
    try {
      method.invoke(driver, arguments);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    } catch (InvocationTargetException e) {
      throw new AssertionError(method.getName() + " threw", e.getCause());
    }
  }

  /**
   * Holds {@code held} inside the driver on another thread, runs {@code second} through the same
   * decorator meanwhile, lets the held call go, and returns the decorator to read.
   */
  private GraphCallOverlaps overlap(
      HoldingDriver holding,
      Method held,
      Object[] heldArguments,
      Consumer<GraphCallOverlaps> second)
      throws Exception {
    GraphCallOverlaps overlaps = new GraphCallOverlaps(holding.driver);
    holding.hold(held);
    Future<?> first = threads.submit(() -> invoke(overlaps, held, heldArguments));
    assertTrue(holding.inside.await(10, TimeUnit.SECONDS), held.getName() + " never ran");
    try {
      second.accept(overlaps);
    } finally {
      holding.release.countDown();
    }
    first.get(10, TimeUnit.SECONDS);
    return overlaps;
  }

  private static Method entryPoint(String name) {
    return ForwardingCheck.entryPoints().stream()
        .filter(m -> m.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no entry point " + name));
  }

  @Test
  void everyCallThatTakesAGraphOrAnExecIsCountedWhenItOverlapsAnotherOnTheSameObject()
      throws Exception {
    List<String> missed = new ArrayList<>();
    List<Method> calls = graphCalls();
    assertTrue(
        calls.stream().anyMatch(m -> m.getName().equals("streamBeginCaptureToGraph")),
        () -> "the entry points found: " + calls);
    for (Method method : calls) {
      Class<?>[] types = method.getParameterTypes();
      for (int shared = 0; shared < types.length; shared++) {
        if (!isGraphObject(types[shared])) {
          continue;
        }
        HoldingDriver holding = new HoldingDriver();
        Object[] first = holding.samples.argumentsOf(method);
        Object[] second = holding.samples.argumentsOf(method);
        second[shared] = first[shared]; // the one object the two calls share
        GraphCallOverlaps overlaps =
            overlap(holding, method, first, decorator -> invoke(decorator, method, second));
        if (overlaps.overlaps() != 1) {
          missed.add(method.getName() + " sharing argument " + shared);
          continue;
        }
        String symbol = ForwardingCheck.expectedCall(method).symbol().replaceFirst("_v[0-9]+$", "");
        String description = overlaps.firstOverlaps().getFirst();
        if (!description.startsWith(symbol) || !description.contains(" on " + first[shared])) {
          missed.add(method.getName() + " described as: " + description);
        }
      }
    }
    assertEquals(List.of(), missed, "calls on one graph object that overlapped unseen");
  }

  @Test
  void callsOnOtherObjectsAtTheSameTimeAndCallsOneAfterTheOtherAreNoOverlap() throws Exception {
    Method launch = entryPoint("graphLaunch");
    HoldingDriver holding = new HoldingDriver();
    Object[] held = holding.samples.argumentsOf(launch);
    Object[] other = holding.samples.argumentsOf(launch);
    GraphCallOverlaps overlaps =
        overlap(holding, launch, held, decorator -> invoke(decorator, launch, other));
    assertEquals(0, overlaps.overlaps(), () -> overlaps.firstOverlaps().toString());

    invoke(overlaps, launch, held);
    invoke(overlaps, launch, held);
    assertEquals(0, overlaps.overlaps(), "one after the other on one exec");
    assertEquals(List.of(), overlaps.firstOverlaps());
  }

  @Test
  void aDestroyWhileAnotherCallOnTheObjectRunsIsAnOverlap() throws Exception {
    Method getNodes = entryPoint("graphGetNodes");
    HoldingDriver holding = new HoldingDriver();
    CuGraph graph = (CuGraph) holding.samples.of(CuGraph.class);
    GraphCallOverlaps overlaps =
        overlap(
            holding, getNodes, new Object[] {graph}, decorator -> decorator.graphDestroy(graph));

    assertEquals(1, overlaps.overlaps());
    assertTrue(
        overlaps.firstOverlaps().getFirst().startsWith("cuGraphDestroy on " + graph),
        overlaps.firstOverlaps()::toString);
  }

  @Test
  void aCallOnAValueWhileItsDestroyRunsIsNoOverlapBecauseTheValueMayNameANewObject()
      throws Exception {
    Method destroy = entryPoint("graphExecDestroy");
    HoldingDriver holding = new HoldingDriver();
    CuGraphExec exec = (CuGraphExec) holding.samples.of(CuGraphExec.class);
    CuStream stream = (CuStream) holding.samples.of(CuStream.class);
    GraphCallOverlaps overlaps =
        overlap(
            holding,
            destroy,
            new Object[] {exec},
            decorator -> decorator.graphLaunch(exec, stream));

    assertEquals(0, overlaps.overlaps(), () -> overlaps.firstOverlaps().toString());
  }
}
