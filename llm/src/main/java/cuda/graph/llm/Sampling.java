// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How each next token is chosen. Sampling runs on the device, a draw of {@link Random} depending on
 * its seed and the token's position alone: the same seed gives the same tokens whatever else the
 * engine runs beside it.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface Sampling {

  /**
   * The most likely token (the lowest id on ties).
   *
   * @since 0.2.0
   */
  record Greedy() implements Sampling {}

  /**
   * A token drawn from the softmax of the logits at {@code temperature}, kept to the smallest set
   * of most likely tokens whose probability reaches {@code topP}.
   *
   * @param temperature above 0 and at most 2
   * @param topP in (0, 1]; 1 keeps every token
   * @param seed the seed of the draws
   * @since 0.2.0
   */
  record Random(double temperature, double topP, long seed) implements Sampling {
    /**
     * Checks the ranges.
     *
     * @throws IllegalArgumentException for a temperature outside (0, 2] or a topP outside (0, 1]
     */
    public Random {
      if (!(temperature > 0 && temperature <= 2) || !(topP > 0 && topP <= 1)) {
        throw new IllegalArgumentException(
            "Sampling.Random: temperature "
                + temperature
                + " must be in (0, 2] and topP "
                + topP
                + " in (0, 1]; use Sampling.Greedy for temperature 0");
      }
    }
  }
}
