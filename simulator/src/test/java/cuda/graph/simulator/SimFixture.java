// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.KernelInvocation;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.StreamFlags;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.function.Executable;

/**
 * An initialized simulator with a current primary context, a non-blocking stream and a module of
 * small test kernels. Close it after each test. An {@link #instrumented()} fixture makes every call
 * through an {@link InstrumentedDriver}, for the tests of the shared instruments.
 *
 * <p>Kernels (all run once per launch, for the whole grid):
 *
 * <ul>
 *   <li>{@code inc(int* p)}: {@code *p += 1}
 *   <li>{@code store(int* p, int v)}: {@code *p = v}
 *   <li>{@code storeTwice(int* p, int v)}: {@code *p = 2 * v}
 *   <li>{@code appendDigit(int* p, int d)}: {@code *p = *p * 10 + d} (order-sensitive)
 *   <li>{@code copyInt(int* dst, int* src)}: {@code *dst = *src}
 *   <li>{@code storeGridX(int* p)}: {@code *p = gridDim.x}
 *   <li>{@code poke(int* p)}: {@code *p = 1}, for any address (used to fault)
 *   <li>{@code pokeRange(char* p, long n)}: touches bytes {@code [p, p+n)}
 *   <li>{@code probe()}: records its invocation in {@link #probes} and {@link #lastProbe}
 *   <li>{@code ptxOnly}: declared in the PTX but without a Java implementation
 * </ul>
 */
final class SimFixture implements AutoCloseable {

  static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

  static final String[] KERNELS = {
    "inc",
    "store",
    "storeTwice",
    "appendDigit",
    "copyInt",
    "storeGridX",
    "poke",
    "pokeRange",
    "probe",
    "ptxOnly"
  };

  /** What the {@code probe} kernel saw. */
  record Probe(
      String grid, String block, int sharedMemoryBytes, int argumentCount, String thread) {}

  /** What the test calls: the simulator, or the decorator over it when instrumented. */
  final CudaDriver driver;

  /** The simulator itself: calls made on it bypass the instruments. */
  final SimulatedDriver simulator;

  private final @Nullable InstrumentedDriver instruments;
  final CuContext context;
  final CuStream stream;
  final CuModule module;
  final Arena arena = Arena.ofAuto();
  final AtomicInteger probes = new AtomicInteger();
  final AtomicReference<Probe> lastProbe = new AtomicReference<>();
  final AtomicInteger gateTimeouts = new AtomicInteger();
  private final Map<String, CuFunction> functions = new HashMap<>();
  private final List<CountDownLatch> gates = new ArrayList<>();

  static SimFixture start() {
    return start(Simulator.builder());
  }

  static SimFixture start(Simulator.Builder builder) {
    SimulatedDriver simulator = builder.build();
    return new SimFixture(simulator, simulator, null);
  }

  /** A fixture whose every call, its own setup included, goes through an instrumented driver. */
  static SimFixture instrumented() {
    return instrumented(Simulator.builder());
  }

  static SimFixture instrumented(Simulator.Builder builder) {
    SimulatedDriver simulator = builder.build();
    InstrumentedDriver instruments = new InstrumentedDriver(simulator);
    return new SimFixture(instruments, simulator, instruments);
  }

  private SimFixture(
      CudaDriver driver, SimulatedDriver simulator, @Nullable InstrumentedDriver instruments) {
    this.driver = driver;
    this.simulator = simulator;
    this.instruments = instruments;
    driver.init(0);
    this.context = driver.devicePrimaryCtxRetain(0);
    driver.ctxSetCurrent(context);
    this.stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    this.module = driver.moduleLoadData(testKernels());
    for (String name : KERNELS) {
      fn(name); // resolve every function now, so that no test loads lazily inside a capture
    }
  }

  /** {@return the ledger, call log and fault plan of an {@link #instrumented()} fixture} */
  InstrumentedDriver instruments() {
    if (instruments == null) {
      throw new IllegalStateException("start the fixture with SimFixture.instrumented()");
    }
    return instruments;
  }

  // ---- PTX and module images

  /** A minimal valid PTX text declaring one {@code .visible .entry} per name. */
  static String ptx(String... entries) {
    StringBuilder text = new StringBuilder(".version 8.0\n.target sm_90\n.address_size 64\n");
    for (String entry : entries) {
      text.append(".visible .entry ").append(entry).append("(.param .u64 p)\n{\n ret;\n}\n");
    }
    return text.toString();
  }

  static MemorySegment at(KernelInvocation launch, int pointerArgument) {
    return launch.deviceMemory(launch.pointer(pointerArgument), 4);
  }

  ModuleImage testKernels() {
    return ModuleImage.ptx(ptx(KERNELS))
        .withJavaKernel(
            "inc",
            l -> {
              MemorySegment m = at(l, 0);
              m.set(INT, 0, m.get(INT, 0) + 1);
            })
        .withJavaKernel("store", l -> at(l, 0).set(INT, 0, l.i32(1)))
        .withJavaKernel("storeTwice", l -> at(l, 0).set(INT, 0, 2 * l.i32(1)))
        .withJavaKernel(
            "appendDigit",
            l -> {
              MemorySegment m = at(l, 0);
              m.set(INT, 0, m.get(INT, 0) * 10 + l.i32(1));
            })
        .withJavaKernel("copyInt", l -> at(l, 0).set(INT, 0, at(l, 1).get(INT, 0)))
        .withJavaKernel("storeGridX", l -> at(l, 0).set(INT, 0, l.grid().x()))
        .withJavaKernel("poke", l -> at(l, 0).set(INT, 0, 1))
        .withJavaKernel("pokeRange", l -> l.deviceMemory(l.pointer(0), l.i64(1)).fill((byte) 1))
        .withJavaKernel(
            "probe",
            l -> {
              lastProbe.set(
                  new Probe(
                      l.grid().toString(),
                      l.block().toString(),
                      l.sharedMemoryBytes(),
                      l.argumentCount(),
                      Thread.currentThread().getName()));
              probes.incrementAndGet();
            });
  }

  CuFunction fn(String name) {
    return functions.computeIfAbsent(name, n -> driver.moduleGetFunction(module, n));
  }

  // ---- argument blocks and launches

  KernelArguments noArgs() {
    return KernelArguments.allocate(arena);
  }

  KernelArguments ptrArg(long pointer) {
    KernelArguments args = KernelArguments.allocate(arena, 8);
    args.setI64(0, pointer);
    return args;
  }

  KernelArguments ptrIntArgs(long pointer, int value) {
    KernelArguments args = KernelArguments.allocate(arena, 8, 4);
    args.setI64(0, pointer);
    args.setI32(1, value);
    return args;
  }

  KernelArguments ptrPtrArgs(long first, long second) {
    KernelArguments args = KernelArguments.allocate(arena, 8, 8);
    args.setI64(0, first);
    args.setI64(1, second);
    return args;
  }

  KernelArguments ptrLongArgs(long pointer, long value) {
    KernelArguments args = KernelArguments.allocate(arena, 8, 8);
    args.setI64(0, pointer);
    args.setI64(1, value);
    return args;
  }

  void launch(String kernel, CuStream s, KernelArguments args) {
    driver.launchKernel(fn(kernel), 1, 1, 1, 1, 1, 1, 0, s, args);
  }

  void inc(CuStream s, long p) {
    launch("inc", s, ptrArg(p));
  }

  void store(CuStream s, long p, int value) {
    launch("store", s, ptrIntArgs(p, value));
  }

  void appendDigit(CuStream s, long p, int digit) {
    launch("appendDigit", s, ptrIntArgs(p, digit));
  }

  void probe(CuStream s) {
    launch("probe", s, noArgs());
  }

  // ---- memory

  /** Allocates device memory and zeroes it with a synchronous copy. */
  long allocZeroed(long bytes) {
    long p = driver.memAlloc(bytes);
    MemorySegment zeros = arena.allocate(bytes);
    driver.memcpyHtoD(p, zeros, bytes);
    return p;
  }

  /** Device memory for one int, set to 0. */
  long allocInt() {
    return allocZeroed(256);
  }

  /**
   * Reads an int with a synchronous DtoH copy (the caller synchronizes the writing stream first).
   */
  int readInt(long p) {
    MemorySegment host = arena.allocate(4);
    driver.memcpyDtoH(host, p, 4);
    return host.get(INT, 0);
  }

  void writeInt(long p, int value) {
    MemorySegment host = arena.allocate(4);
    host.set(INT, 0, value);
    driver.memcpyHtoD(p, host, 4);
  }

  /** Native host memory holding one int. */
  MemorySegment hostInt(int value) {
    MemorySegment host = arena.allocate(4, 4);
    host.set(INT, 0, value);
    return host;
  }

  // ---- streams and gates

  CuStream newStream() {
    return driver.streamCreate(StreamFlags.NON_BLOCKING);
  }

  /** A latch the fixture opens when it closes, so that no test leaves a stream blocked. */
  CountDownLatch gate() {
    CountDownLatch gate = new CountDownLatch(1);
    gates.add(gate);
    return gate;
  }

  /**
   * Enqueues a host function that blocks {@code s} until {@code gate} opens. It gives up after 5 s
   * and counts that in {@link #gateTimeouts}, which {@link #close()} reports as a failure: a gate
   * that times out means a call waited for work it should not have waited for.
   */
  void block(CuStream s, CountDownLatch gate) {
    driver.launchHostFunc(
        s,
        () -> {
          if (!await(gate)) {
            gateTimeouts.incrementAndGet();
          }
        });
  }

  /** Waits at most 5 s; returns whether the latch opened. */
  static boolean await(CountDownLatch latch) {
    try {
      return latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Polls until the condition holds; fails after 5 s. */
  static void waitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting until " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting until " + what);
      }
    }
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- threads

  /**
   * Runs {@code action} on a new platform thread named {@code name} whose current context is this
   * fixture's, and returns its result; an exception it throws is rethrown here unchanged.
   */
  <T> T onNewThread(String name, Callable<T> action) {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        Thread.ofPlatform()
            .name(name)
            .start(
                () -> {
                  try {
                    driver.ctxSetCurrent(context);
                    result.set(action.call());
                  } catch (Throwable t) {
                    failure.set(t);
                  }
                });
    try {
      if (!thread.join(java.time.Duration.ofSeconds(10))) {
        fail("thread " + name + " did not finish");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted");
    }
    Throwable t = failure.get();
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    if (t != null) {
      throw new AssertionError(t);
    }
    return result.get();
  }

  <T> T onNewThread(Callable<T> action) {
    return onNewThread("sim-test-helper", action);
  }

  void onNewThread(Runnable action) {
    onNewThread(
        () -> {
          action.run();
          return null;
        });
  }

  // ---- capture and graphs

  /** Begins a capture on {@code s}, runs {@code work}, ends the capture and returns the graph. */
  CuGraph capture(CuStream s, CaptureMode mode, Runnable work) {
    driver.streamBeginCapture(s, mode);
    work.run();
    CuGraph graph = driver.streamEndCapture(s);
    if (graph == null) {
      fail("streamEndCapture returned no graph");
    }
    return graph;
  }

  CuGraph capture(Runnable work) {
    return capture(stream, CaptureMode.GLOBAL, work);
  }

  List<GraphNodeType> nodeTypes(CuGraph graph) {
    return driver.graphGetNodes(graph).stream().map(driver::graphNodeGetType).toList();
  }

  CaptureStatus status(CuStream s) {
    return driver.streamIsCapturing(s);
  }

  // ---- assertions

  /** Asserts that {@code call} throws a {@link CudaDriverException} with {@code status}. */
  static CudaDriverException assertStatus(int status, Executable call) {
    CudaDriverException e = assertThrows(CudaDriverException.class, call);
    assertEquals(status, e.status(), () -> "status of " + e.getMessage());
    return e;
  }

  @Override
  public void close() {
    for (CountDownLatch gate : gates) {
      gate.countDown();
    }
    driver.close();
    assertEquals(
        0,
        gateTimeouts.get(),
        "a host function waited 5 s for its gate: some call blocked on work it should not wait"
            + " for");
  }
}
