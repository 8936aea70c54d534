// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCaptureException;
import cuda.graph.GraphNode;
import cuda.graph.HostBuffer;
import cuda.graph.InputBinding;
import cuda.graph.Module;
import cuda.graph.Stream;
import cuda.graph.conformance.arbitraries.CaptureFault;
import cuda.graph.conformance.arbitraries.OpSequence;
import cuda.graph.conformance.arbitraries.OpStep;
import cuda.graph.conformance.arbitraries.SoakFault;
import cuda.graph.conformance.arbitraries.SoakTry;
import cuda.graph.conformance.arbitraries.SoakTry.Target;
import cuda.graph.conformance.arbitraries.Workspace;
import cuda.graph.conformance.arbitraries.WorkspaceState;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.FaultPlan;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import cuda.graph.testkit.LoggedCall.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Runs one try of {@link FaultSoakContract}: arms its fault, runs its capture, scope or module in a
 * new session, and checks what the contract promises. A broken promise is thrown as an {@link
 * AssertionError} whose message names the try.
 */
final class SoakRun {

  /** The integer buffer a module's input is copied into. */
  private static final int INPUT = 0;

  /** The integer buffer a module copies out after each replay. */
  private static final int OUTPUT = Workspace.INT_BUFFERS - 1;

  /** Entry points a fault at a random call never hits: a failed release cannot be undone. */
  private static final Set<DriverCall> RELEASES = releases();

  /** How a try's fault played out, for the soak's summary. */
  enum Injection {
    /** The try injects nothing. */
    NONE,
    /** A driver fault fired on the calling thread. */
    ON_CALLER,
    /** A driver fault fired on another thread (a completion or cleaner thread). */
    ELSEWHERE,
    /** The fault's call was never made (a fault-free run took another path). */
    NOT_REACHED,
    /** A function the try passed to the API threw. */
    THROWN_BY_LAMBDA,
    /** A host callback threw, and the driver dropped it. */
    DROPPED_BY_DRIVER
  }

  /**
   * What one try did.
   *
   * @param kind the kind of fault, e.g. {@code AtCall cuGraphLaunch}
   * @param injection how it played out
   */
  record Result(String kind, Injection injection) {}

  private SoakRun() {}

  /** One driver fault to arm: the {@code nth} call of {@code call} from now fails. */
  private record Rule(DriverCall call, int nth, int status) {}

  /** Where a try's function throws. */
  private enum HostThrow {
    NOWHERE,
    MAP,
    THEN_NODE,
    CALLBACK,
    BODY,
    BINDING,
    OUTPUT
  }

  /** What one try arms and throws. */
  private static final class Plan {
    final List<Rule> rules = new ArrayList<>();
    boolean noGraph;
    HostThrow where = HostThrow.NOWHERE;
    int index = -1;
    @Nullable Throwable failure;
    final AtomicBoolean thrown = new AtomicBoolean();

    /** Throws the try's failure (recording that it was thrown); never returns. */
    RuntimeException fail() {
      thrown.set(true);
      throw SoakRun.<RuntimeException>sneaky(java.util.Objects.requireNonNull(failure));
    }

    boolean at(HostThrow w, int i) {
      return where == w && index == i;
    }

    void hostFailure(HostThrow w, int i, boolean error, String what) {
      where = w;
      index = i;
      failure = error ? new InjectedError(what) : new InjectedException(what);
    }
  }

  // ---- one try

  /**
   * Runs {@code t} against the provider of {@code contract} and checks it.
   *
   * @return how the try's fault played out
   * @throws AssertionError naming the try, if a promise was broken
   */
  static Result run(ConformanceContract contract, SoakTry t) {
    try {
      return check(contract, t);
    } catch (AssertionError e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("soak try " + t + ": " + e, e);
    }
  }

  private static Result check(ConformanceContract contract, SoakTry t) {
    int size = t.sequence().size();
    Plan plan = new Plan();
    String kind;
    switch (t.fault()) {
      case SoakFault.None none -> kind = "None";
      case SoakFault.Matrix m -> {
        armMatrix(plan, t, m.fault());
        kind =
            "Matrix "
                + m.fault().point()
                + (m.fault().end() == CaptureFault.EndCapture.SUCCEEDS
                    ? ""
                    : " + end " + m.fault().end());
      }
      case SoakFault.AtCall a -> {
        List<Rule> candidates = dryRun(contract, t);
        if (candidates.isEmpty()) {
          kind = "AtCall (no candidate)";
        } else {
          Rule chosen = choose(candidates, a.pick());
          plan.rules.add(new Rule(chosen.call(), chosen.nth(), a.status()));
          kind = "AtCall " + chosen.call().symbol();
        }
      }
      case SoakFault.HostCallbackThrows h -> {
        plan.hostFailure(
            HostThrow.CALLBACK, h.step() % size, h.error(), "thrown by a host callback of " + t);
        kind = "HostCallbackThrows";
      }
      case SoakFault.LambdaThrows l -> {
        HostThrow where =
            switch (l.where()) {
              case THEN_NODE -> HostThrow.THEN_NODE;
              case SCOPE_BODY -> HostThrow.BODY;
              case INPUT_BINDING -> HostThrow.BINDING;
              case OUTPUT_FUNCTION -> HostThrow.OUTPUT;
            };
        int index =
            where == HostThrow.BINDING || where == HostThrow.OUTPUT
                ? l.step() % 2
                : l.step() % size;
        plan.hostFailure(where, index, l.error(), "thrown by the " + l.where() + " of " + t);
        kind = "LambdaThrows " + l.where();
      }
    }
    try {
      return new Result(kind, faultedRun(contract, t, plan));
    } catch (AssertionError e) {
      String m = String.valueOf(e.getMessage());
      AssertionError named =
          new AssertionError(
              (m.startsWith("soak try ") ? m : "soak try " + t + ": " + m)
                  + "\n  fault: "
                  + kind
                  + (plan.rules.isEmpty() ? "" : ", armed " + plan.rules)
                  + (plan.noGraph ? ", an end of capture without a graph" : "")
                  + (plan.where == HostThrow.NOWHERE
                      ? ""
                      : ", thrown at " + plan.where + " " + plan.index),
              e.getCause() == null ? e : e.getCause());
      if (e.getCause() != null) {
        named.addSuppressed(e);
      }
      throw named;
    }
  }

  /**
   * {@return the candidate {@code pick} chooses}: an entry point, uniformly among those called
   * (whatever their number of calls), then one of its calls
   */
  private static Rule choose(List<Rule> candidates, int pick) {
    List<DriverCall> kinds = candidates.stream().map(Rule::call).distinct().toList();
    DriverCall kind = kinds.get(Math.floorMod(pick, kinds.size()));
    List<Rule> calls = candidates.stream().filter(r -> r.call() == kind).toList();
    return calls.get(Math.floorMod(pick / kinds.size(), calls.size()));
  }

  private static void armMatrix(Plan plan, SoakTry t, CaptureFault fault) {
    OpSequence sequence = t.sequence();
    int step = fault.step() % sequence.size();
    int status = fault.status();
    switch (fault.point()) {
      case OP_DRIVER_ERROR ->
          plan.rules.add(
              new Rule(
                  sequence.steps().get(step).driverCall(), sequence.callOrdinal(step), status));
      case OP_RUNTIME_EXCEPTION, OP_ERROR ->
          plan.hostFailure(
              t.target() == Target.SCOPE ? HostThrow.BODY : HostThrow.MAP,
              step,
              fault.point() == CaptureFault.Point.OP_ERROR,
              "thrown by the op after step " + step + " of " + t);
      case BEGIN_CAPTURE -> plan.rules.add(new Rule(DriverCall.STREAM_BEGIN_CAPTURE, 1, status));
      case END_CAPTURE -> plan.rules.add(new Rule(DriverCall.STREAM_END_CAPTURE, 1, status));
      case END_CAPTURE_NO_GRAPH -> plan.noGraph = true;
      case INSTANTIATE -> plan.rules.add(new Rule(DriverCall.GRAPH_INSTANTIATE, 1, status));
      case UPLOAD -> plan.rules.add(new Rule(DriverCall.GRAPH_UPLOAD, 1, status));
      case SYNCHRONIZE -> plan.rules.add(new Rule(DriverCall.STREAM_SYNCHRONIZE, 1, status));
    }
    switch (fault.end()) {
      case SUCCEEDS -> {}
      case FAILS ->
          plan.rules.add(
              new Rule(DriverCall.STREAM_END_CAPTURE, 1, CaptureFault.END_CAPTURE_STATUS));
      case RETURNS_NO_GRAPH -> plan.noGraph = true;
    }
  }

  /**
   * Runs {@code t} without a fault and returns the driver calls it made on this thread, each as the
   * rule that fails it; checks, on the way, that the fault-free run computes the model.
   */
  private static List<Rule> dryRun(ConformanceContract contract, SoakTry t) {
    String caller = Thread.currentThread().getName();
    List<LoggedCall> records;
    try (ConformanceSession session = contract.openSession()) {
      Scenario scenario = new Scenario(session, t);
      session.driver().calls().clear();
      List<int[]> outputs;
      try {
        outputs = scenario.run(new Plan());
      } catch (RuntimeException | Error e) {
        throw new AssertionError("soak try " + t + ": its fault-free run failed: " + e, e);
      }
      records = session.driver().calls().records();
      scenario.assertModel(outputs, "its fault-free run");
    }
    Set<DriverCall> elsewhere = EnumSet.noneOf(DriverCall.class);
    for (LoggedCall r : records) {
      if (!r.thread().equals(caller)) {
        elsewhere.add(r.call());
      }
    }
    List<Rule> candidates = new ArrayList<>();
    Map<DriverCall, Integer> counts = new java.util.EnumMap<>(DriverCall.class);
    for (LoggedCall r : records) {
      if (!r.thread().equals(caller)) {
        continue;
      }
      int nth = counts.merge(r.call(), 1, Integer::sum);
      if (!RELEASES.contains(r.call()) && !elsewhere.contains(r.call())) {
        candidates.add(new Rule(r.call(), nth, 0));
      }
    }
    return candidates;
  }

  private static Injection faultedRun(ConformanceContract contract, SoakTry t, Plan plan) {
    String caller = Thread.currentThread().getName();
    try (ConformanceSession session = contract.openSession()) {
      InstrumentedDriver driver = session.driver();
      Scenario scenario = new Scenario(session, t);
      driver.calls().clear();
      FaultPlan faults = driver.faults();
      for (Rule r : plan.rules) {
        faults.failNth(r.call(), r.nth(), r.status());
      }
      if (plan.noGraph) {
        faults.endCaptureReturnsNoGraph();
      }
      Throwable thrown = null;
      List<int[]> outputs = List.of();
      try {
        outputs = scenario.run(plan);
      } catch (Throwable e) {
        thrown = e;
      }
      boolean unfired = faults.hasUnfired();
      faults.clear();
      List<LoggedCall> injected =
          driver.calls().records().stream().filter(r -> r.outcome() == Outcome.INJECTED).toList();
      List<LoggedCall> onCaller = injected.stream().filter(r -> r.thread().equals(caller)).toList();

      Injection injection = surfaced(t, plan, thrown, injected, onCaller, unfired);
      if (thrown == null) {
        scenario.assertModel(outputs, "a try whose failure did not surface");
      }
      if (DeviceOp.isExecuting()) {
        throw violation(t, "the execution lock is still held", thrown);
      }
      if (!driver.capturingStreams().isEmpty()) {
        throw violation(t, "streams left capturing: " + driver.capturingStreams(), thrown);
      }
      awaitNoGraphs(t, driver.ledger(), thrown);
      scenario.assertUsable(thrown);
      return injection;
    }
  }

  /**
   * Checks that the failure reached the caller as the contract says, and {@return how the fault
   * played out}.
   */
  private static Injection surfaced(
      SoakTry t,
      Plan plan,
      @Nullable Throwable thrown,
      List<LoggedCall> injected,
      List<LoggedCall> onCaller,
      boolean unfired) {
    if (plan.thrown.get() && plan.where != HostThrow.CALLBACK) {
      if (thrown != plan.failure) {
        throw violation(
            t,
            "the function's "
                + plan.failure
                + " must propagate as itself, but the caller got "
                + (thrown == null ? "nothing" : thrown),
            thrown);
      }
      for (LoggedCall r : onCaller) {
        if (r.status() != 0) {
          requireInChain(t, r, thrown);
        }
      }
      return Injection.THROWN_BY_LAMBDA;
    }
    if (!onCaller.isEmpty()) {
      if (thrown == null) {
        throw violation(t, "injected " + onCaller + ", but the caller saw no failure", null);
      }
      boolean driverError = false;
      for (LoggedCall r : onCaller) {
        if (r.status() != 0) {
          driverError = true;
          requireInChain(t, r, thrown);
        }
      }
      if (!driverError
          && chain(thrown).stream().noneMatch(GraphCaptureException.class::isInstance)) {
        throw violation(
            t, "a capture that ended without a graph must fail with GraphCaptureException", thrown);
      }
      return Injection.ON_CALLER;
    }
    if (plan.where == HostThrow.CALLBACK) {
      if (thrown != null && thrown != plan.failure) {
        throw violation(t, "a throwing host callback failed the try", thrown);
      }
      return plan.thrown.get() ? Injection.DROPPED_BY_DRIVER : Injection.NOT_REACHED;
    }
    if (!injected.isEmpty()) {
      return Injection.ELSEWHERE; // on a thread nobody waits for: anything may surface
    }
    if (thrown != null) {
      throw violation(t, "nothing was injected, yet the try failed", thrown);
    }
    return unfired ? Injection.NOT_REACHED : Injection.NONE;
  }

  private static void requireInChain(SoakTry t, LoggedCall injected, @Nullable Throwable thrown) {
    boolean found =
        chain(thrown).stream()
            .anyMatch(
                e ->
                    e instanceof CudaDriverError d
                        && d.call().equals(injected.call().symbol())
                        && d.code() == injected.status());
    if (!found) {
      throw violation(
          t,
          "the injected failure of "
              + injected
              + " must reach the caller (as the failure, its cause or a suppressed exception)",
          thrown);
    }
  }

  /** {@return {@code t}, its causes and suppressed exceptions, transitively} */
  private static List<Throwable> chain(@Nullable Throwable t) {
    List<Throwable> all = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Throwable> todo = new ArrayList<>();
    if (t != null) {
      todo.add(t);
    }
    while (!todo.isEmpty()) {
      Throwable next = todo.removeLast();
      if (!seen.add(next)) {
        continue;
      }
      all.add(next);
      if (next.getCause() != null) {
        todo.add(next.getCause());
      }
      todo.addAll(Arrays.asList(next.getSuppressed()));
    }
    return all;
  }

  private static void awaitNoGraphs(SoakTry t, HandleLedger ledger, @Nullable Throwable thrown) {
    long deadline = System.nanoTime() + LifetimeRun.COLLECT_TIMEOUT_MILLIS * 1_000_000;
    while ((ledger.live(HandleKind.GRAPH) != 0 || ledger.live(HandleKind.GRAPH_EXEC) != 0)
        && System.nanoTime() < deadline) {
      System.gc();
      try {
        Thread.sleep(LifetimeRun.POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    if (ledger.live(HandleKind.GRAPH) != 0 || ledger.live(HandleKind.GRAPH_EXEC) != 0) {
      throw violation(
          t,
          "graphs or execs alive once the try closed everything: "
              + ledger.describeLive(HandleKind.GRAPH)
              + ledger.describeLive(HandleKind.GRAPH_EXEC),
          thrown);
    }
  }

  private static AssertionError violation(SoakTry t, String what, @Nullable Throwable thrown) {
    return new AssertionError("soak try " + t + ": " + what, thrown);
  }

  // ---- the scenario of a try

  /** A try's buffers and how it runs: allocated before the fault is armed. */
  private static final class Scenario {
    private final SoakTry t;
    private final Stream stream;
    private final Workspace workspace;
    private final @Nullable HostBuffer<Integer> staging;
    private final @Nullable HostBuffer<Integer> out;
    private final List<int[]> inputs = List.of(input(1), input(2));

    Scenario(ConformanceSession session, SoakTry t) {
      this.t = t;
      this.stream = session.stream();
      this.workspace = session.own(Workspace.allocate(stream));
      if (t.target() == Target.MODULE) {
        staging = session.own(session.device().allocateHost(ElementType.I32, Workspace.LENGTH));
        out = session.own(session.device().allocateHost(ElementType.I32, Workspace.LENGTH));
      } else {
        staging = null;
        out = null;
      }
    }

    private static int[] input(int k) {
      int[] in = new int[Workspace.LENGTH];
      for (int i = 0; i < in.length; i++) {
        in[i] = k * 100 - i;
      }
      return in;
    }

    /** {@return the module's outputs (none for a capture or scope)} */
    List<int[]> run(Plan plan) {
      return switch (t.target()) {
        case CAPTURE -> {
          try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, node(plan))) {
            graph.launch().syncOn(stream);
            graph.launch().syncOn(stream);
          }
          yield List.of();
        }
        case SCOPE -> {
          try (CudaGraph<@Nullable Void> graph =
              CudaGraph.scope(stream, scope -> record(scope, plan))) {
            graph.launch().syncOn(stream);
            graph.launch().syncOn(stream);
          }
          yield List.of();
        }
        case MODULE -> forwardTwice(plan);
      };
    }

    private GraphNode<@Nullable Void> node(Plan plan) {
      List<OpStep> steps = t.sequence().steps();
      GraphNode<@Nullable Void> node = DeviceOp.value(null);
      for (int i = 0; i < steps.size(); i++) {
        node = node.andThen(steps.get(i).node(workspace));
        if (plan.at(HostThrow.MAP, i)) {
          node =
              node.map(
                  ignored -> {
                    throw plan.fail();
                  });
        }
        if (plan.at(HostThrow.THEN_NODE, i)) {
          node =
              node.thenNode(
                  ignored -> {
                    throw plan.fail();
                  });
        }
        if (plan.at(HostThrow.CALLBACK, i)) {
          node =
              node.andThen(
                  DeviceOp.hostCallback(
                      () -> {
                        throw plan.fail();
                      }));
        }
      }
      return node;
    }

    private void record(cuda.graph.Scope scope, Plan plan) {
      List<OpStep> steps = t.sequence().steps();
      for (int i = 0; i < steps.size(); i++) {
        scope.record(steps.get(i).node(workspace));
        if (plan.at(HostThrow.THEN_NODE, i)) {
          scope.record(
              DeviceOp.<@Nullable Void>value(null)
                  .thenNode(
                      ignored -> {
                        throw plan.fail();
                      }));
        }
        if (plan.at(HostThrow.CALLBACK, i)) {
          scope.record(
              DeviceOp.hostCallback(
                  () -> {
                    throw plan.fail();
                  }));
        }
        if (plan.at(HostThrow.BODY, i)) {
          throw plan.fail();
        }
      }
    }

    private List<int[]> forwardTwice(Plan plan) {
      HostBuffer<Integer> in = java.util.Objects.requireNonNull(staging);
      HostBuffer<Integer> result = java.util.Objects.requireNonNull(out);
      DeviceBuffer<Integer> target = workspace.ints(INPUT);
      AtomicInteger forward = new AtomicInteger(-1);
      InputBinding<int[]> binding =
          input -> {
            if (plan.at(HostThrow.BINDING, forward.get())) {
              throw plan.fail();
            }
            in.write(input);
            return target.copyFrom(in);
          };
      GraphNode<@Nullable Void> op = node(plan).andThen(workspace.ints(OUTPUT).copyTo(result));
      List<int[]> outputs = new ArrayList<>();
      try (Module<int[], int[]> module =
          Module.capture(
              stream,
              binding,
              op,
              ignored -> {
                if (plan.at(HostThrow.OUTPUT, forward.get())) {
                  throw plan.fail();
                }
                return result.toIntArray();
              })) {
        for (int[] input : inputs) {
          forward.incrementAndGet();
          outputs.add(module.forward(input));
        }
      }
      return outputs;
    }

    /** Checks the workspace (and a module's outputs) against the Java model of the try. */
    void assertModel(List<int[]> outputs, String which) {
      OpSequence sequence = t.sequence();
      WorkspaceState expected = WorkspaceState.initial();
      List<int[]> expectedOutputs = new ArrayList<>();
      if (t.target() == Target.MODULE) {
        for (int[] input : inputs) {
          System.arraycopy(input, 0, expected.ints(INPUT), 0, input.length);
          expected = sequence.applyTo(expected);
          expectedOutputs.add(expected.ints(OUTPUT).clone());
        }
      } else {
        expected = sequence.applyTo(sequence.applyTo(expected));
      }
      WorkspaceState actual = workspace.read(stream);
      if (!expected.equals(actual)) {
        throw violation(
            t, which + " computed " + actual + "\nbut the model computes " + expected, null);
      }
      for (int k = 0; k < expectedOutputs.size(); k++) {
        if (!Arrays.equals(expectedOutputs.get(k), outputs.get(k))) {
          throw violation(
              t,
              which
                  + ": forward "
                  + k
                  + " returned "
                  + Arrays.toString(outputs.get(k))
                  + ", the model "
                  + Arrays.toString(expectedOutputs.get(k)),
              null);
        }
      }
    }

    /** Checks that the session's stream runs new work correctly after the try. */
    void assertUsable(@Nullable Throwable thrown) {
      DeviceBuffer<Integer> probe =
          DeviceBuffer.zeros(ElementType.I32, Workspace.LENGTH).syncOn(stream);
      try {
        int[] afterInc = ConformanceKernels.inc(probe).andThen(probe.toIntArray()).syncOn(stream);
        int[] ones = new int[Workspace.LENGTH];
        Arrays.fill(ones, 1);
        if (!Arrays.equals(ones, afterInc)) {
          throw violation(t, "the stream computes wrongly after the try", thrown);
        }
      } catch (RuntimeException e) {
        AssertionError v = violation(t, "the platform is unusable after the try: " + e, e);
        if (thrown != null) {
          v.addSuppressed(thrown);
        }
        throw v;
      } finally {
        probe.close();
      }
    }
  }

  // ---- the long run

  /**
   * Runs {@code count} tries, try {@code i} generated from seed {@code baseSeed + i}, reports
   * progress and a summary on {@code log}, and fails listing every violation with its seed.
   *
   * @param contract the provider under test
   * @param tries where tries come from
   * @param count how many tries
   * @param baseSeed the seed of try 0
   * @param log where progress and the summary go
   * @param report a file the summary is also written to, or null
   */
  static void soak(
      ConformanceContract contract,
      Arbitrary<SoakTry> tries,
      int count,
      long baseSeed,
      java.io.PrintStream log,
      @Nullable String report) {
    RandomGenerator<SoakTry> generator = tries.generator(1000);
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    Map<Injection, Integer> injections = new java.util.EnumMap<>(Injection.class);
    List<String> violations = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    long start = System.nanoTime();
    log.printf(
        "cuda.graph soak: %d fault-injected tries on the '%s' provider, seeds %d to %d%n",
        count, contract.providerId(), baseSeed, baseSeed + count - 1);
    for (int i = 0; i < count; i++) {
      long seed = baseSeed + i;
      SoakTry t = generator.next(new java.util.Random(seed)).value();
      try {
        Result r = run(contract, t);
        kinds.merge(r.kind(), 1, Integer::sum);
        injections.merge(r.injection(), 1, Integer::sum);
      } catch (Throwable e) {
        violations.add("seed " + seed + ": " + firstLine(e));
        failures.add(e);
      }
      if ((i + 1) % 1000 == 0 || i + 1 == count) {
        log.printf(
            java.util.Locale.ROOT,
            "cuda.graph soak: %d/%d tries, %d violation(s), %.1f s%n",
            i + 1,
            count,
            violations.size(),
            (System.nanoTime() - start) / 1e9);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    List<String> summary = new ArrayList<>();
    summary.add(
        String.format(
            java.util.Locale.ROOT,
            "cuda.graph soak: %d tries on the '%s' provider in %.1f s (%.2f ms per try), seeds %d"
                + " to %d, %d violation(s)",
            count,
            contract.providerId(),
            seconds,
            seconds * 1000 / Math.max(1, count),
            baseSeed,
            baseSeed + count - 1,
            violations.size()));
    summary.add("cuda.graph soak: how the faults played out: " + injections);
    kinds.forEach(
        (k, n) ->
            summary.add(String.format(java.util.Locale.ROOT, "cuda.graph soak: %6d  %s", n, k)));
    violations.forEach(v -> summary.add("cuda.graph soak: VIOLATION " + v));
    summary.forEach(log::println);
    if (report != null) {
      try {
        java.nio.file.Path path = java.nio.file.Path.of(report);
        if (path.getParent() != null) {
          java.nio.file.Files.createDirectories(path.getParent());
        }
        java.nio.file.Files.write(path, summary);
      } catch (java.io.IOException e) {
        log.println("cuda.graph soak: cannot write " + report + ": " + e);
      }
    }
    if (!violations.isEmpty()) {
      AssertionError e =
          new AssertionError(
              violations.size()
                  + " of "
                  + count
                  + " soak tries broke the contract (replay one with -D"
                  + FaultSoakContract.SEED_PROPERTY
                  + "=SEED -D"
                  + FaultSoakContract.TRIES_PROPERTY
                  + "=1):\n  "
                  + String.join("\n  ", violations));
      failures.stream().limit(20).forEach(e::addSuppressed);
      throw e;
    }
  }

  /** {@return the first line of a violation's message, and the line naming its fault} */
  private static String firstLine(Throwable e) {
    String[] lines = String.valueOf(e.getMessage()).split("\n");
    String first = lines[0];
    for (String line : lines) {
      if (line.startsWith("  fault: ")) {
        return first + " [" + line.substring("  fault: ".length()) + "]";
      }
    }
    return first;
  }

  private static Set<DriverCall> releases() {
    Set<DriverCall> releases = EnumSet.noneOf(DriverCall.class);
    for (DriverCall c : DriverCall.values()) {
      String n = c.name();
      if (n.contains("DESTROY")
          || n.contains("FREE")
          || n.contains("UNLOAD")
          || n.contains("RELEASE")) {
        releases.add(c);
      }
    }
    return releases;
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable t) throws E {
    throw (E) t;
  }
}
