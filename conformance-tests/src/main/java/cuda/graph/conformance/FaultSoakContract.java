// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.conformance.arbitraries.SoakTries;
import cuda.graph.conformance.arbitraries.SoakTry;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.apiguardian.api.API;

/**
 * Fault injection over capture, scope and {@link cuda.graph.Module}: whatever fails, the failure
 * reaches the caller and nothing is left behind.
 *
 * <p>Each try ({@link SoakTries}) captures a random sequence of graph-node steps ({@link
 * cuda.graph.conformance.arbitraries.OpSequences}) with {@code CudaGraph.capture} and launches it
 * twice, records it step by step with {@code CudaGraph.scope} and launches it twice, or captures it
 * as a module over an input buffer and calls {@code forward} twice; and it makes one thing fail: a
 * point of the capture-failure matrix ({@link cuda.graph.conformance.arbitraries.CaptureFault}, as
 * {@link CaptureFailureContract} uses it); any one driver call of the whole try, chosen among the
 * calls a fault-free run of the same try makes on the calling thread (except destroy, free and
 * release calls, which cannot be undone, and entry points other threads call too), through the
 * instrumented driver's {@link cuda.graph.testkit.FaultPlan}; a {@code RuntimeException} or an
 * {@code Error} thrown from a function the try passes to the API (a {@code map} or {@code thenNode}
 * function, the scope's body, the module's input binding or output function); or a host callback
 * that throws at every replay.
 *
 * <p>After every try: a driver failure injected on the calling thread reached the caller (as the
 * failure, its cause or a suppressed exception; a capture that ended without a graph as {@code
 * GraphCaptureException}); what a function threw propagated as itself; a host callback's throw was
 * dropped and the try computed what its Java model computes, as every try that did not fail must;
 * the execution lock is free ({@code DeviceOp.isExecuting()}); no stream is capturing; no graph or
 * exec is alive; the stream runs a kernel correctly; and the session's ledger shows no live handle
 * and no lifetime violation when it closes.
 *
 * <p>{@link #faultsAnywhereSurfaceAndLeaveNothingBehind} runs 200 tries in every build (and is
 * skipped when the long soak is asked for). {@link #soak} runs as many as the system property
 * {@value #TRIES_PROPERTY} says (skipped when it is not set; tagged {@value #SOAK_TAG}, so that a
 * build that never sets it leaves it out instead), try {@code i} from seed {@code S + i}, {@code S}
 * from {@value #SEED_PROPERTY} (random when not set), and prints its progress, the count, the
 * duration and each violation with its seed; replay one with {@code -Dcuda.graph.soak.seed=SEED
 * -Dcuda.graph.soak.tries=1}; with {@value #REPORT_PROPERTY} set, the summary is also written to
 * that file. Every test here is a jqwik property or example.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface FaultSoakContract extends ConformanceContract {

  /** The system property that sets the number of {@link #soak} tries. */
  String TRIES_PROPERTY = "cuda.graph.soak.tries";

  /** The system property that sets the seed of the first {@link #soak} try. */
  String SEED_PROPERTY = "cuda.graph.soak.seed";

  /** The system property naming a file the {@link #soak} summary is also written to. */
  String REPORT_PROPERTY = "cuda.graph.soak.report";

  /**
   * The tag of {@link #soak}: a build that never asks for the long soak leaves the tag out (this
   * project's build does), so the soak is not reported as a skipped test there.
   */
  String SOAK_TAG = "soak";

  /** {@return the tries: every target, sequences of 1 to 6 steps, every kind of fault} */
  @Provide
  default Arbitrary<SoakTry> soakTries() {
    return SoakTries.tries();
  }

  /**
   * 200 tries, a few seconds on the simulator: about 60 of them fail a random driver call, 60 a
   * point of the capture matrix, 30 a function, 15 a host callback, 15 nothing.
   *
   * @param t the try
   */
  @Property(tries = 200)
  @AddLifecycleHook(SoakNotRequested.class)
  default void faultsAnywhereSurfaceAndLeaveNothingBehind(@ForAll("soakTries") SoakTry t) {
    SoakRun.run(this, t);
  }

  /**
   * The long run: {@value #TRIES_PROPERTY} tries (at least 10,000 for a release), reported on
   * standard output; fails listing every violation with its seed.
   */
  @Example
  @Tag(SOAK_TAG)
  @AddLifecycleHook(SoakRequested.class)
  default void soak() {
    long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
    SoakRun.soak(
        this,
        soakTries(),
        Integer.getInteger(TRIES_PROPERTY, 0),
        seed,
        System.out,
        System.getProperty(REPORT_PROPERTY));
  }

  /**
   * Skips the 200 tries when {@value #TRIES_PROPERTY} asks for the long soak, which covers them.
   *
   * @since 0.1.0
   */
  final class SoakNotRequested implements SkipExecutionHook {

    /** Made by jqwik. */
    public SoakNotRequested() {}

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      return Integer.getInteger(TRIES_PROPERTY, 0) > 0
          ? SkipResult.skip("-D" + TRIES_PROPERTY + " asks for the long soak instead")
          : SkipResult.doNotSkip();
    }
  }

  /**
   * Skips {@link #soak} unless {@value #TRIES_PROPERTY} asks for at least one try.
   *
   * @since 0.1.0
   */
  final class SoakRequested implements SkipExecutionHook {

    /** Made by jqwik. */
    public SoakRequested() {}

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      return Integer.getInteger(TRIES_PROPERTY, 0) > 0
          ? SkipResult.doNotSkip()
          : SkipResult.skip(
              "the long soak runs only when -D" + TRIES_PROPERTY + "=N asks for N tries");
    }
  }
}
