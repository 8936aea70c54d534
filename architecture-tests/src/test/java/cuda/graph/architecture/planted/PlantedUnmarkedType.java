// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture.planted;

/**
 * A planted violation: a public type that says nothing of its stability (no {@code @API}). {@code
 * ApiStatusTests} imports it alone, as if a library module exported this package, and shows that
 * the rule fails on it.
 *
 * @since 0.1.0
 */
public final class PlantedUnmarkedType {

  private PlantedUnmarkedType() {}
}
