// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.apiguardian.api.API;

/**
 * Arbitraries of {@link OpSequence}s: kernel launches ({@code inc}, {@code saxpy}), fills and
 * device copies over the buffers of a {@link Workspace}, in any order, reading and writing the same
 * buffers so that a wrong order or a missed step shows in the result. Steps shrink towards {@code
 * inc} on buffer 0, sequences towards one step.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class OpSequences {

  private OpSequences() {}

  /**
   * {@return sequences of {@code minSteps} to {@code maxSteps} steps}
   *
   * @param minSteps the shortest sequence, at least 1
   * @param maxSteps the longest sequence, at least {@code minSteps}
   * @throws IllegalArgumentException if {@code minSteps} is below 1 or above {@code maxSteps}
   */
  public static Arbitrary<OpSequence> sequences(int minSteps, int maxSteps) {
    if (minSteps < 1 || maxSteps < minSteps) {
      throw new IllegalArgumentException(
          "need 1 <= minSteps <= maxSteps, got " + minSteps + " and " + maxSteps);
    }
    return steps().list().ofMinSize(minSteps).ofMaxSize(maxSteps).map(OpSequence::new);
  }

  /**
   * {@return single steps, weighted 4 for {@code inc}, 3 for {@code saxpy}, 2 for integer fills, 2
   * for copies and 1 for float fills}
   */
  public static Arbitrary<OpStep> steps() {
    Arbitrary<Integer> intBuffer = Arbitraries.integers().between(0, Workspace.INT_BUFFERS - 1);
    Arbitrary<Integer> floatBuffer = Arbitraries.integers().between(0, Workspace.FLOAT_BUFFERS - 1);
    Arbitrary<Integer> otherOffset = Arbitraries.integers().between(1, Workspace.INT_BUFFERS - 1);
    Arbitrary<OpStep> inc = intBuffer.map(OpStep.Inc::new);
    Arbitrary<OpStep> fill =
        Combinators.combine(intBuffer, Arbitraries.integers().between(-3, 3)).as(OpStep.Fill::new);
    Arbitrary<OpStep> copy =
        Combinators.combine(intBuffer, otherOffset)
            .as((from, offset) -> new OpStep.Copy(from, (from + offset) % Workspace.INT_BUFFERS));
    Arbitrary<OpStep> saxpy =
        Combinators.combine(Arbitraries.of(0.5f, -1f, 2f, 3f), floatBuffer)
            .as((a, x) -> new OpStep.Saxpy(a, x, (x + 1) % Workspace.FLOAT_BUFFERS));
    Arbitrary<OpStep> fillFloats =
        Combinators.combine(floatBuffer, Arbitraries.of(0f, 1.5f, -2.25f))
            .as(OpStep.FillFloats::new);
    return Arbitraries.frequencyOf(
        Tuple.of(4, inc),
        Tuple.of(2, fill),
        Tuple.of(2, copy),
        Tuple.of(3, saxpy),
        Tuple.of(1, fillFloats));
  }
}
