// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;
import org.apiguardian.api.API;

/**
 * Arbitraries of lifetime scripts: random interleavings of capture, launch creation, graph close,
 * launch execution, buffer close, dropped references and garbage collection, over {@value #BUFFERS}
 * pre-allocated counters. Scripts shrink towards fewer, earlier steps.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class LifetimeScripts {

  /** The number of counters a script's captures choose from. */
  public static final int BUFFERS = 3;

  private LifetimeScripts() {}

  /**
   * {@return scripts of 1 to {@code maxSteps} steps}
   *
   * @param maxSteps the longest script, at least 1
   */
  public static Arbitrary<List<LifetimeStep>> scripts(int maxSteps) {
    return steps().list().ofMinSize(1).ofMaxSize(maxSteps);
  }

  /** {@return single steps: launches and executions most likely, collection rarest} */
  public static Arbitrary<LifetimeStep> steps() {
    Arbitrary<Integer> buffer = Arbitraries.integers().between(0, BUFFERS - 1);
    Arbitrary<Integer> index = Arbitraries.integers().between(0, 7);
    return Arbitraries.frequencyOf(
        Tuple.of(4, buffer.map(LifetimeStep.Capture::new)),
        Tuple.of(5, index.map(LifetimeStep.MakeLaunch::new)),
        Tuple.of(5, index.map(LifetimeStep.ExecuteLaunch::new)),
        Tuple.of(3, index.map(LifetimeStep.CloseGraph::new)),
        Tuple.of(2, buffer.map(LifetimeStep.CloseBuffer::new)),
        Tuple.of(2, index.map(LifetimeStep.DropLaunch::new)),
        Tuple.of(1, buffer.map(LifetimeStep.DropBuffer::new)),
        Tuple.of(1, Arbitraries.just(new LifetimeStep.Collect())));
  }
}
