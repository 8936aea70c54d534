// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture.planted;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * A planted violation: a type marked {@code MAINTAINED} whose family must be {@code EXPERIMENTAL},
 * and whose {@code since} is not its {@code @since}. {@code ApiStatusTests} imports it alone, names
 * it one of the experimental families, and shows that the rules fail on it.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.0.9")
public final class PlantedMaintainedType {

  private PlantedMaintainedType() {}

  /** {@return nothing of note}: a method the family rule names */
  @API(status = MAINTAINED, since = "0.1.0")
  public static int method() {
    return 0;
  }
}
