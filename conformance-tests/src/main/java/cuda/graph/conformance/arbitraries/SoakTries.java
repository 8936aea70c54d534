// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.conformance.arbitraries.SoakFault.Lambda;
import cuda.graph.conformance.arbitraries.SoakTry.Target;
import cuda.graph.spi.CuResult;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.apiguardian.api.API;

/**
 * Arbitraries of {@link SoakTry}s: every {@link Target}, sequences of 1 to 6 steps ({@link
 * OpSequences}), and every kind of {@link SoakFault}, with the capture-failure matrix's points
 * ({@link CaptureFault#faults()}) and a failure at any driver call the most likely.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SoakTries {

  private SoakTries() {}

  /** {@return tries over every target} */
  public static Arbitrary<SoakTry> tries() {
    return Arbitraries.of(Target.class)
        .flatMap(
            target ->
                Combinators.combine(OpSequences.sequences(1, 6), faults(target))
                    .as((sequence, fault) -> new SoakTry(target, sequence, fault)));
  }

  /**
   * {@return the faults a try of {@code target} can have}
   *
   * @param target what the try captures: which functions it passes to the API can throw
   */
  public static Arbitrary<SoakFault> faults(Target target) {
    Arbitrary<Integer> step = Arbitraries.integers().between(0, 63);
    Arbitrary<Boolean> error = Arbitraries.of(false, true);
    Arbitrary<Lambda> lambdas =
        switch (target) {
          case CAPTURE -> Arbitraries.just(Lambda.THEN_NODE);
          case SCOPE -> Arbitraries.of(Lambda.THEN_NODE, Lambda.SCOPE_BODY);
          case MODULE ->
              Arbitraries.of(Lambda.THEN_NODE, Lambda.INPUT_BINDING, Lambda.OUTPUT_FUNCTION);
        };
    return Arbitraries.frequencyOf(
        Tuple.of(4, CaptureFault.faults().map(SoakFault.Matrix::new)),
        Tuple.of(
            5,
            Combinators.combine(Arbitraries.integers().between(0, 1023), statuses())
                .as(SoakFault.AtCall::new)),
        Tuple.of(1, Combinators.combine(step, error).as(SoakFault.HostCallbackThrows::new)),
        Tuple.of(2, Combinators.combine(lambdas, step, error).as(SoakFault.LambdaThrows::new)),
        Tuple.of(1, Arbitraries.just(new SoakFault.None())));
  }

  private static Arbitrary<Integer> statuses() {
    return Arbitraries.of(
        CuResult.INVALID_VALUE, CuResult.OUT_OF_MEMORY, CuResult.NOT_SUPPORTED, CuResult.UNKNOWN);
  }
}
