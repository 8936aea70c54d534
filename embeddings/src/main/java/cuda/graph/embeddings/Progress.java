// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * How far a long {@link Embedder#embedAll(java.util.List, java.util.function.Consumer)} has come,
 * told after each batch.
 *
 * @param embedded texts embedded so far
 * @param total texts in the call
 * @param elapsed time since the call began, tokenization included
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public record Progress(int embedded, int total, Duration elapsed) {

  /** {@return texts per second so far} (0 before any time has passed) */
  public double textsPerSecond() {
    long nanos = elapsed.toNanos();
    return nanos <= 0 ? 0 : embedded * 1e9 / nanos;
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "embedded %,d of %,d texts, %.0f texts/s",
        embedded,
        total,
        textsPerSecond());
  }
}
