// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaException;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.blas.BlasException;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.CheckedMatmul.Compute;
import cuda.graph.blas.internal.plan.CheckedMatmul.Epilogue;
import cuda.graph.blas.internal.plan.CheckedMatmul.Order;
import cuda.graph.blas.internal.plan.MatmulOperands;
import cuda.graph.blas.internal.plan.MatmulPlan;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every cuBLASLt call the backend makes, failing once wherever the backend makes it (opening,
 * planning, an eager run, a capture, a replay, closing, or the release of the last use by a graph):
 * the failure reaches the caller as a {@link BlasException} naming the call and status (a destroy's
 * is logged instead, and a failure to describe the algorithm only shortens the description), every
 * object cuBLASLt handed out is destroyed exactly once, the driver's ledger is back to zero with no
 * lifetime violation, and the backend (or a new one where none was made) then runs the product with
 * the right numbers.
 *
 * <p>The cases are found, not listed: a run without faults records which entry points each phase
 * calls, so an entry point the backend starts calling is covered where it is called.
 */
class CublasLtFaultTests {

  private static final long LIMIT = 1 << 20;

  /**
   * A product that makes the backend call every entry point: a batch (layout attributes) with a
   * bias (its pointer set on the descriptor before each call), row-major (swapped), in fp32 so the
   * fake computes it: 2 x D[3x2] = A[3x4] B[4x2] + bias.
   */
  private static final int M = 3;

  private static final int N = 2;
  private static final int K = 4;
  private static final int BATCH = 2;
  private static final CheckedMatmul PRODUCT =
      Products.with(
          Order.ROW_MAJOR,
          false,
          false,
          M,
          N,
          K,
          ElementType.F32,
          BATCH,
          Epilogue.BIAS,
          ElementType.F32,
          Compute.F32);

  /** Where the backend calls cuBLASLt, in the order a scenario passes them. */
  enum Phase {
    /** {@code CublasLtBackend.open}. */
    OPEN,
    /** {@code plan}. */
    PLAN,
    /** A node run eagerly. */
    EAGER,
    /** A node captured into a graph. */
    CAPTURE,
    /** The graph replayed. */
    REPLAY,
    /** The graph closed, then the backend: the backend's close lets go of the last use. */
    CLOSE,
    /** The backend closed, then the graph: the graph's release lets go of the last use. */
    RELEASE
  }

  /** What the backend promises when a call fails. */
  enum Promise {
    /** The call's failure is thrown to the caller. */
    THROWN,
    /** Nobody is left to tell: the failure is logged and the backend goes on. */
    LOGGED,
    /** Only the plan's description of its algorithm is shortened. */
    DESCRIBED_WITHOUT
  }

  /**
   * One case.
   *
   * @param phase where the call fails
   * @param fault the call and how it fails
   */
  record Case(Phase phase, FakeCublasLt.Fault fault) {
    @Override
    public String toString() {
      return fault.entry().symbol()
          + (fault.noAlgorithm() ? " finding no algorithm" : " failing")
          + " in "
          + phase;
    }
  }

  /** {@return what the backend promises when {@code entry} fails} */
  static Promise promise(CublasLtEntry entry) {
    if (entry.symbol().endsWith("Destroy")) {
      return Promise.LOGGED;
    }
    if (entry == CublasLtEntry.MATMUL_ALGO_CONFIG_GET_ATTRIBUTE) {
      return Promise.DESCRIBED_WITHOUT;
    }
    return Promise.THROWN;
  }

  static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    CallsByPhase.RECORDED.forEach(
        (phase, entries) -> {
          for (CublasLtEntry entry : entries) {
            cases.add(
                new Case(
                    phase, new FakeCublasLt.Fault(entry, CublasLtStatus.INTERNAL_ERROR, false)));
            if (entry == CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC) {
              cases.add(
                  new Case(phase, new FakeCublasLt.Fault(entry, CublasLtStatus.SUCCESS, true)));
            }
          }
        });
    return cases;
  }

  @Test
  void everyEntryPointReturningAStatusIsCalledSomewhereSoItsFaultIsInjected() {
    Set<CublasLtEntry> called = EnumSet.noneOf(CublasLtEntry.class);
    CallsByPhase.RECORDED.values().forEach(called::addAll);
    Set<CublasLtEntry> statusEntries = EnumSet.noneOf(CublasLtEntry.class);
    for (CublasLtEntry entry : CublasLtEntry.values()) {
      if (entry.descriptor().returnLayout().equals(Optional.of(ValueLayout.JAVA_INT))) {
        statusEntries.add(entry);
      }
    }

    assertEquals(statusEntries, called, "give the scenario a product or a phase that calls it");
    assertEquals(
        Set.of(),
        CallsByPhase.RECORDED.get(Phase.REPLAY),
        "a replay calls no cuBLASLt: the graph replays what the capture recorded");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aFailedCublasLtCallLeaksNothingAndTheProductRunsAfterIt(Case c) {
    CublasLtEntry entry = c.fault().entry();
    int status = c.fault().noAlgorithm() ? CublasLtStatus.NOT_SUPPORTED : c.fault().status();
    InstrumentedDriver driver =
        new InstrumentedDriver(Simulator.builder().reuseHandleValues(true).build());
    FakeCublasLt fake = new FakeCublasLt();
    List<LogRecord> logged;
    try (LogCapture log = new LogCapture()) {
      try (Scenario s = new Scenario(driver, fake)) {
        for (Phase phase : Scenario.phases(c.phase() == Phase.RELEASE)) {
          if (phase != c.phase()) {
            s.step(phase);
            continue;
          }
          if (c.fault().noAlgorithm()) {
            fake.findNoAlgorithmOnce();
          } else {
            fake.failOnce(entry, c.fault().status());
          }
          RuntimeException thrown = s.attempt(phase);
          assertEquals(1, fake.faultsFired(), c + ": the fault fired");
          switch (promise(entry)) {
            case THROWN -> {
              BlasException e = assertInstanceOf(BlasException.class, thrown);
              assertEquals(entry.symbol(), e.function());
              assertEquals(status, e.status());
              assertTrue(
                  e.getMessage()
                      .startsWith(
                          entry.symbol()
                              + " failed: "
                              + CublasLtStatus.name(status)
                              + " ("
                              + status
                              + ")"),
                  e.getMessage());
              // The same backend, or a new one where none was made, does it again.
              s.step(phase);
            }
            case LOGGED -> assertNull(thrown, "a failed destroy is not thrown");
            case DESCRIBED_WITHOUT -> {
              assertNull(thrown, "describing the algorithm is not needed to run it");
              assertTrue(
                  s.plan().algorithm().startsWith("cuBLASLt's heuristic's first algorithm, "),
                  s.plan().algorithm());
            }
          }
        }
        // The platform and cuBLASLt stay usable: a new backend runs the product from the start.
        for (Phase phase : Scenario.phases(false)) {
          s.step(phase);
        }
      }
      logged = log.records();
    }

    if (promise(entry) == Promise.LOGGED) {
      assertEquals(1, logged.size(), () -> "one warning: " + messages(logged));
      LogRecord warning = logged.getFirst();
      assertEquals(Level.WARNING, warning.getLevel());
      assertEquals("cuda.graph.blas", warning.getLoggerName());
      BlasException e = assertInstanceOf(BlasException.class, warning.getThrown());
      assertEquals(entry.symbol(), e.function());
      assertEquals(status, e.status());
    } else {
      assertEquals(List.of(), messages(logged), "nothing logged");
    }
    assertEquals(List.of(), fake.violations(), c + ": cuBLASLt was given only live objects");
    assertEquals(Map.of(), fake.live(), c + ": every object cuBLASLt made was destroyed");
    for (CublasLtEntry create : CublasLtEntry.values()) {
      if (FakeCublasLt.creates(create)) {
        assertEquals(
            fake.created(create),
            fake.destroyed(FakeCublasLt.destroyOf(create)),
            create.symbol() + "'s objects, each destroyed once");
      }
    }
    fake.close();
    assertEquals(
        Map.of(), nonZero(driver.ledger().liveCounts()), c + ": nothing outlives the platform");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }

  /**
   * One failed driver call.
   *
   * @param phase where it fails
   * @param call the entry point
   * @param nth which of its calls in the phase, from 1
   */
  record DriverCase(Phase phase, DriverCall call, int nth) {
    @Override
    public String toString() {
      return call.symbol() + " #" + nth + " failing in " + phase;
    }
  }

  /**
   * The driver calls the backend makes around cuBLASLt's (the op on a stream of its own it makes
   * the library's calls in, when opening and planning) and the launch the library makes in a node.
   * The platform's own calls around a matmul are {@code MatmulFaultTests}'; a destroy call is left
   * out, as a handle whose destroy failed stays the driver's by definition.
   */
  static List<DriverCase> driverCases() {
    List<DriverCase> cases = new ArrayList<>();
    CallsByPhase.DRIVER.forEach(
        (phase, calls) -> {
          Map<DriverCall, Integer> seen = new EnumMap<>(DriverCall.class);
          for (DriverCall call : calls) {
            int nth = seen.merge(call, 1, Integer::sum);
            boolean around =
                switch (phase) {
                  case OPEN, PLAN -> !call.symbol().contains("Destroy");
                  case EAGER, CAPTURE -> call == DriverCall.LAUNCH_KERNEL;
                  case REPLAY, CLOSE, RELEASE -> false;
                };
            if (around) {
              cases.add(new DriverCase(phase, call, nth));
            }
          }
        });
    return cases;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("driverCases")
  void aFailedDriverCallAroundCublasLtLeaksNothingAndTheProductRunsAfterIt(DriverCase c) {
    InstrumentedDriver driver =
        new InstrumentedDriver(Simulator.builder().reuseHandleValues(true).build());
    FakeCublasLt fake = new FakeCublasLt();
    List<LogRecord> logged;
    try (LogCapture log = new LogCapture();
        Scenario s = new Scenario(driver, fake)) {
      for (Phase phase : Scenario.phases(c.phase() == Phase.RELEASE)) {
        if (phase != c.phase()) {
          s.step(phase);
          continue;
        }
        driver.faults().failNth(c.call(), c.nth(), CuResult.UNKNOWN);
        RuntimeException thrown = s.attempt(phase);
        assertEquals(1, driver.faults().fired(), () -> "fired: " + driver.faults().pending());
        if (thrown != null) {
          assertTrue(
              thrown instanceof CudaException || thrown instanceof BlasException,
              () -> "a driver's or cuBLASLt's failure: " + thrown);
          s.step(phase);
        }
      }
      for (Phase phase : Scenario.phases(false)) {
        s.step(phase);
      }
      logged = log.records();
    }
    assertEquals(List.of(), messages(logged), c + ": what was made is undone, and nothing logged");
    assertEquals(List.of(), fake.violations(), c + ": cuBLASLt was given only live objects");
    assertEquals(Map.of(), fake.live(), c + ": every object cuBLASLt made was destroyed");
    fake.close();
    assertEquals(
        Map.of(), nonZero(driver.ledger().liveCounts()), c + ": nothing outlives the platform");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }

  private static List<String> messages(List<LogRecord> records) {
    return records.stream().map(r -> r.getLoggerName() + ": " + r.getMessage()).toList();
  }

  private static Map<HandleKind, Long> nonZero(Map<HandleKind, Long> counts) {
    Map<HandleKind, Long> live = new EnumMap<>(HandleKind.class);
    counts.forEach(
        (kind, n) -> {
          if (n != 0) {
            live.put(kind, n);
          }
        });
    return live;
  }

  /** The entry points each phase calls, recorded once from runs without faults. */
  private static final class CallsByPhase {
    static final Map<Phase, List<DriverCall>> DRIVER = new EnumMap<>(Phase.class);
    static final Map<Phase, Set<CublasLtEntry>> RECORDED = record();

    private static Map<Phase, Set<CublasLtEntry>> record() {
      Map<Phase, Set<CublasLtEntry>> byPhase = new EnumMap<>(Phase.class);
      for (boolean graphLast : new boolean[] {false, true}) {
        InstrumentedDriver driver =
            new InstrumentedDriver(Simulator.builder().reuseHandleValues(true).build());
        FakeCublasLt fake = new FakeCublasLt();
        try (Scenario s = new Scenario(driver, fake)) {
          for (Phase phase : Scenario.phases(graphLast)) {
            int before = fake.calls().size();
            driver.calls().clear();
            s.step(phase);
            DRIVER.put(phase, driver.calls().records().stream().map(LoggedCall::call).toList());
            List<FakeCublasLt.Call> calls = fake.calls();
            Set<CublasLtEntry> entries = EnumSet.noneOf(CublasLtEntry.class);
            calls.subList(before, calls.size()).forEach(call -> entries.add(call.entry()));
            byPhase.put(phase, Collections.unmodifiableSet(entries));
          }
        } finally {
          fake.close();
        }
      }
      return Collections.unmodifiableMap(byPhase);
    }
  }

  /**
   * A platform over {@code driver}, the product's buffers, and the fake computing through the
   * driver; each {@link #step} is one phase of a backend's life, checking the numbers where the
   * product runs.
   */
  private static final class Scenario implements AutoCloseable {
    private final InstrumentedDriver driver;
    private final FakeCublasLt fake;
    private final CudaPlatform platform;
    private final Stream stream;
    private final DeviceBuffer<Float> a;
    private final DeviceBuffer<Float> b;
    private final DeviceBuffer<Float> d;
    private final DeviceBuffer<Float> bias;
    private final DeviceBuffer<Byte> workspace;
    private final CuModule module;
    private final float[] expected;
    private @Nullable CublasLtBackend backend;
    private @Nullable MatmulPlan plan;
    private @Nullable CudaGraph<@Nullable Void> graph;

    Scenario(InstrumentedDriver driver, FakeCublasLt fake) {
      this.driver = driver;
      this.fake = fake;
      platform = CudaPlatform.forDriver(driver, "simulator");
      stream = platform.defaultDevice().newStream();
      float[] aValues = new float[BATCH * M * K];
      float[] bValues = new float[BATCH * K * N];
      for (int i = 0; i < aValues.length; i++) {
        aValues[i] = i % 5 - 2;
      }
      for (int i = 0; i < bValues.length; i++) {
        bValues[i] = i % 3 + 1;
      }
      float[] biasValues = {10, -20};
      expected = new float[BATCH * M * N];
      for (int p = 0; p < BATCH; p++) {
        for (int i = 0; i < M; i++) {
          for (int j = 0; j < N; j++) {
            float sum = 0;
            for (int q = 0; q < K; q++) {
              sum += aValues[p * M * K + i * K + q] * bValues[p * K * N + q * N + j];
            }
            expected[p * M * N + i * N + j] = sum + biasValues[j];
          }
        }
      }
      a = DeviceBuffer.fromArray(aValues).syncOn(stream);
      b = DeviceBuffer.fromArray(bValues).syncOn(stream);
      bias = DeviceBuffer.fromArray(biasValues).syncOn(stream);
      d = DeviceBuffer.zeros(ElementType.F32, BATCH * M * N).syncOn(stream);
      workspace = DeviceBuffer.zeros(ElementType.I8, FakeCublasLt.WORKSPACE_NEED).syncOn(stream);
      Loaded loaded =
          DeviceOp.withRawStream(
                  (s, device) -> {
                    CuModule m = driver.moduleLoadData(FakeCublasLt.kernelImage());
                    return new Loaded(m, driver.moduleGetFunction(m, FakeCublasLt.KERNEL));
                  })
              .syncOn(stream);
      module = loaded.module();
      fake.computeWith(driver, loaded.function());
    }

    private record Loaded(CuModule module, CuFunction function) {}

    /**
     * {@return the phases of a backend's life, ending with the graph or the backend let go last}
     */
    static List<Phase> phases(boolean graphLast) {
      return List.of(
          Phase.OPEN,
          Phase.PLAN,
          Phase.EAGER,
          Phase.CAPTURE,
          Phase.REPLAY,
          graphLast ? Phase.RELEASE : Phase.CLOSE);
    }

    MatmulPlan plan() {
      return Objects.requireNonNull(plan, "planned");
    }

    private CublasLtBackend backend() {
      return Objects.requireNonNull(backend, "opened");
    }

    private CudaGraph<@Nullable Void> graph() {
      return Objects.requireNonNull(graph, "captured");
    }

    /** {@return what {@code phase} threw, or null} */
    @Nullable RuntimeException attempt(Phase phase) {
      try {
        step(phase);
        return null;
      } catch (RuntimeException e) {
        return e;
      }
    }

    void step(Phase phase) {
      switch (phase) {
        case OPEN ->
            // Destroys run where the last use goes, so each phase sees its own.
            backend = CublasLtBackend.open(fake.bind(), platform.defaultDevice(), Runnable::run);
        case PLAN -> plan = backend().plan(PRODUCT, LIMIT);
        case EAGER -> {
          d.fill(0f).syncOn(stream);
          backend().node(plan(), operands()).syncOn(stream);
          assertArrayEquals(expected, d.toFloatArray().syncOn(stream), "eager");
        }
        case CAPTURE -> graph = CudaGraph.capture(stream, backend().node(plan(), operands()));
        case REPLAY -> {
          d.fill(0f).syncOn(stream);
          graph().launch().syncOn(stream);
          assertArrayEquals(expected, d.toFloatArray().syncOn(stream), "replayed");
        }
        case CLOSE -> {
          graph().close();
          backend().close();
          graph = null;
          backend = null;
          plan = null;
        }
        case RELEASE -> {
          backend().close();
          graph().close();
          graph = null;
          backend = null;
          plan = null;
        }
      }
    }

    private MatmulOperands operands() {
      return new MatmulOperands(a, b, null, d, bias, workspace);
    }

    @Override
    public void close() {
      CudaGraph<@Nullable Void> g = graph;
      if (g != null) {
        g.close();
      }
      CublasLtBackend lt = backend;
      if (lt != null) {
        lt.close();
      }
      DeviceOp.withRawStream(
              (s, device) -> {
                driver.moduleUnload(module);
                return null;
              })
          .syncOn(stream);
      workspace.close();
      d.close();
      bias.close();
      b.close();
      a.close();
      stream.close();
      platform.close();
    }
  }

  /** Catches what the library logs (logger {@code cuda.graph} and below) instead of printing it. */
  private static final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("cuda.graph");
    private final boolean parentHandlers;
    private final List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());

    LogCapture() {
      parentHandlers = logger.getUseParentHandlers();
      logger.setUseParentHandlers(false);
      logger.addHandler(this);
    }

    List<LogRecord> records() {
      return List.copyOf(records);
    }

    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
      logger.setUseParentHandlers(parentHandlers);
    }
  }
}
