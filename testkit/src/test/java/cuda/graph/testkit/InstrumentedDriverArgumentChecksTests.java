// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.ModuleImage;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link InstrumentedDriver} checks the arguments of every call in its one {@code before} hook: for
 * every entry point of {@link CudaDriver} and every parameter that names a driver object (a handle,
 * a device pointer, pinned host memory, an end of a copy), found by reflection, passing one that
 * was destroyed or freed through the instruments is refused with a {@link LifetimeViolation} that
 * names the call and the object, and neither the call nor the object reaches the wrapped driver.
 * The wrapped driver is a {@link RecordingDriver}: these tests are about what reaches it, not about
 * what a driver does.
 */
class InstrumentedDriverArgumentChecksTests {

  /** The {@code long} parameters that hold device pointers. */
  private static final Set<String> POINTERS = Set.of("dst", "src", "destination", "devicePointer");

  /** The {@code long} parameters that are sizes, counts and flags. */
  private static final Set<String> NOT_POINTERS =
      Set.of("bytes", "count", "flags", "height", "pitch", "value", "width");

  /** Device memory from this driver lies apart from the small values of other arguments. */
  private static final long ALLOCATION_STRIDE = 1L << 20;

  /** A recording driver under an instrumented one, as each case starts it. */
  private record Rig(DriverSamples samples, RecordingDriver recording, InstrumentedDriver driver) {}

  /** One case: an argument of an entry point, and how to make a dead one of its kind. */
  private record Case(Method method, int position, String kind, Function<Rig, Object> dead) {

    String name() {
      return method.getName()
          + "("
          + method.getParameters()[position].getName()
          + ": "
          + kind
          + ")";
    }
  }

  @TestFactory
  Stream<DynamicTest> aDestroyedOrFreedArgumentIsRefusedBeforeTheDriverSeesTheCall() {
    List<Case> cases = cases();
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> refused(c)));
  }

  @Test
  void everyArgumentThatNamesADriverObjectHasACase() {
    List<Case> cases = cases();
    // Each handle parameter, device pointer, pinned segment and copy end of the SPI (two cases for
    // a copy end: device and host), counted from the interface as it is today.
    long expected = 0;
    for (Method method : ForwardingCheck.entryPoints()) {
      for (Parameter p : method.getParameters()) {
        expected += kindsOf(p).size();
      }
    }
    assertEquals(expected, cases.size());
    assertTrue(cases.size() > 60, "cases: " + cases.size());
  }

  @Test
  void everyLongParameterIsKnownToBeAPointerOrNot() {
    for (Method method : ForwardingCheck.entryPoints()) {
      for (Parameter p : method.getParameters()) {
        assertTrue(p.isNamePresent(), "the SPI is compiled with -parameters");
        if (p.getType() == long.class) {
          assertTrue(
              POINTERS.contains(p.getName()) || NOT_POINTERS.contains(p.getName()),
              method.getName()
                  + "("
                  + p.getName()
                  + "): a new long parameter; name it a pointer or not here, and in"
                  + " LifetimeChecks.devicePointers if it is one");
        }
      }
    }
  }

  private static void refused(Case c) throws IllegalAccessException {
    Rig rig = rig();
    Method method = c.method();
    Object[] arguments = rig.samples().argumentsOf(method);
    DriverCall call = callOf(rig, method);
    Object dead = c.dead().apply(rig);
    arguments[c.position()] = dead;
    int reached = rig.recording().calls().size();

    LifetimeViolation violation;
    try {
      method.invoke(rig.driver(), arguments);
      fail(c.name() + " was not refused");
      return;
    } catch (InvocationTargetException e) {
      violation = assertInstanceOf(LifetimeViolation.class, e.getCause(), c.name());
    }

    assertEquals(call, violation.call(), "the violation names the call");
    assertTrue(
        violation.getMessage().contains(named(dead)),
        "the violation names " + named(dead) + ": " + violation.getMessage());
    // The instruments may ask the driver about a live stream first (is it capturing?), never about
    // the dead object, and the call itself never reaches it.
    for (RecordingDriver.Call seen :
        rig.recording().calls().subList(reached, rig.recording().calls().size())) {
      assertTrue(
          !seen.method().equals(method) && !Arrays.asList(seen.arguments()).contains(dead),
          "the wrapped driver saw " + seen.method().getName() + " with the dead " + named(dead));
    }
    assertEquals(List.of(violation), rig.driver().violations(), "the violation is kept");
  }

  /**
   * {@return the call {@code method} reports} read from the call log after a call with new
   * arguments, which the instruments pass: nothing in them was destroyed
   */
  private static DriverCall callOf(Rig rig, Method method) throws IllegalAccessException {
    try {
      method.invoke(rig.driver(), rig.samples().argumentsOf(method));
    } catch (InvocationTargetException e) {
      throw new AssertionError(method.getName() + " with new arguments failed", e.getCause());
    }
    return rig.driver().calls().records().getLast().call();
  }

  private static Rig rig() {
    DriverSamples samples = new DriverSamples();
    RecordingDriver recording = new RecordingDriver(samples);
    AtomicLong allocations = new AtomicLong();
    // What the instruments ask the driver of a stream: it is not capturing.
    recording.answer("streamIsCapturing", () -> CaptureStatus.NONE);
    recording.answer(
        "streamGetCaptureInfo", () -> new CaptureInfo(CaptureStatus.NONE, 0, null, List.of()));
    recording.answer("memAlloc", () -> (1 + allocations.getAndIncrement()) * ALLOCATION_STRIDE);
    recording.answer(
        "memAllocAsync", () -> (1 + allocations.getAndIncrement()) * ALLOCATION_STRIDE);
    return new Rig(samples, recording, new InstrumentedDriver(recording.driver()));
  }

  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (Method method : ForwardingCheck.entryPoints()) {
      Parameter[] parameters = method.getParameters();
      for (int i = 0; i < parameters.length; i++) {
        for (String kind : kindsOf(parameters[i])) {
          cases.add(new Case(method, i, kind, deadOf(kind)));
        }
      }
    }
    return cases;
  }

  /** {@return the kinds of dead object a parameter can be given; empty if it names none} */
  private static List<String> kindsOf(Parameter p) {
    Class<?> type = p.getType();
    if (type == CuStream.class
        || type == CuEvent.class
        || type == CuModule.class
        || type == CuFunction.class
        || type == CuGraph.class
        || type == CuGraphExec.class
        || type == CuContext.class) {
      return List.of(type.getSimpleName());
    } else if (type == long.class && POINTERS.contains(p.getName())) {
      return List.of("device pointer");
    } else if (type == MemorySegment.class) {
      return List.of("pinned host memory");
    } else if (type == CopyEndpoint.class) {
      return List.of("device end", "host end");
    }
    // A CuGraphNode is borrowed from its graph, which the ledger follows instead.
    return List.of();
  }

  /** {@return how to make a dead object of a kind, through the instruments} */
  private static Function<Rig, Object> deadOf(String kind) {
    return switch (kind) {
      case "CuStream" ->
          rig -> {
            CuStream s = rig.driver().streamCreate(0);
            rig.driver().streamDestroy(s);
            return s;
          };
      case "CuEvent" ->
          rig -> {
            CuEvent e = rig.driver().eventCreate(0);
            rig.driver().eventDestroy(e);
            return e;
          };
      case "CuModule" ->
          rig -> {
            CuModule m = rig.driver().moduleLoadData(ModuleImage.ptx("// module"));
            rig.driver().moduleUnload(m);
            return m;
          };
      case "CuFunction" ->
          rig -> {
            CuModule m = rig.driver().moduleLoadData(ModuleImage.ptx("// module"));
            CuFunction f = rig.driver().moduleGetFunction(m, "kernel");
            rig.driver().moduleUnload(m);
            return f;
          };
      case "CuGraph" ->
          rig -> {
            CuGraph g = rig.driver().graphCreate(0);
            rig.driver().graphDestroy(g);
            return g;
          };
      case "CuGraphExec" ->
          rig -> {
            CuGraph g = rig.driver().graphCreate(0);
            CuGraphExec e = rig.driver().graphInstantiate(g, 0);
            rig.driver().graphExecDestroy(e);
            rig.driver().graphDestroy(g);
            return e;
          };
      case "CuContext" ->
          rig -> {
            CuContext c = rig.driver().devicePrimaryCtxRetain(0);
            rig.driver().devicePrimaryCtxRelease(0);
            return c;
          };
      case "device pointer" -> InstrumentedDriverArgumentChecksTests::freedDevicePointer;
      case "pinned host memory" -> InstrumentedDriverArgumentChecksTests::freedHostMemory;
      case "device end" -> rig -> new CopyEndpoint.Device(freedDevicePointer(rig));
      case "host end" -> rig -> new CopyEndpoint.Host(freedHostMemory(rig));
      default -> throw new IllegalArgumentException(kind);
    };
  }

  private static long freedDevicePointer(Rig rig) {
    long p = rig.driver().memAlloc(64);
    rig.driver().memFree(p);
    return p;
  }

  private static MemorySegment freedHostMemory(Rig rig) {
    MemorySegment m = rig.driver().memAllocHost(64);
    rig.driver().memFreeHost(m);
    return m;
  }

  /** {@return how a violation names a dead object} */
  private static String named(Object dead) {
    return switch (dead) {
      case Long pointer -> "0x" + Long.toHexString(pointer);
      case MemorySegment host -> "0x" + Long.toHexString(host.address());
      case CopyEndpoint.Device(long address) -> "0x" + Long.toHexString(address);
      case CopyEndpoint.Host(MemorySegment host) -> "0x" + Long.toHexString(host.address());
      default -> dead.toString();
    };
  }
}
