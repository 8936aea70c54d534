// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * The contents of a {@link Workspace}'s buffers on the host: what the device holds, read back, or
 * what the Java model says it should hold. Equal states hold bit-identical values.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class WorkspaceState {

  private final int[][] ints;
  private final float[][] floats;

  WorkspaceState(int[][] ints, float[][] floats) {
    this.ints = ints;
    this.floats = floats;
  }

  /**
   * {@return the contents a new workspace starts with: distinct, deterministic values per buffer}
   */
  public static WorkspaceState initial() {
    int[][] ints = new int[Workspace.INT_BUFFERS][Workspace.LENGTH];
    float[][] floats = new float[Workspace.FLOAT_BUFFERS][Workspace.LENGTH];
    for (int b = 0; b < ints.length; b++) {
      for (int i = 0; i < Workspace.LENGTH; i++) {
        ints[b][i] = 1000 * (b + 1) + i;
      }
    }
    for (int b = 0; b < floats.length; b++) {
      for (int i = 0; i < Workspace.LENGTH; i++) {
        floats[b][i] = (b + 1) * 0.25f * (i - Workspace.LENGTH / 2);
      }
    }
    return new WorkspaceState(ints, floats);
  }

  /**
   * {@return integer buffer {@code index}'s contents (the array itself, not a copy)}
   *
   * @param index from 0 to {@value Workspace#INT_BUFFERS} - 1
   */
  public int[] ints(int index) {
    return ints[index];
  }

  /**
   * {@return float buffer {@code index}'s contents (the array itself, not a copy)}
   *
   * @param index from 0 to {@value Workspace#FLOAT_BUFFERS} - 1
   */
  public float[] floats(int index) {
    return floats[index];
  }

  /** {@return an independent copy} */
  public WorkspaceState copy() {
    int[][] i = new int[ints.length][];
    float[][] f = new float[floats.length][];
    for (int b = 0; b < i.length; b++) {
      i[b] = ints[b].clone();
    }
    for (int b = 0; b < f.length; b++) {
      f[b] = floats[b].clone();
    }
    return new WorkspaceState(i, f);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WorkspaceState s
        && Arrays.deepEquals(ints, s.ints)
        && Arrays.deepEquals(floats, s.floats);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.deepHashCode(ints) + Arrays.deepHashCode(floats);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("WorkspaceState[");
    for (int b = 0; b < ints.length; b++) {
      s.append("\n  ints ").append(b).append(": ").append(Arrays.toString(ints[b]));
    }
    for (int b = 0; b < floats.length; b++) {
      s.append("\n  floats ").append(b).append(": ").append(Arrays.toString(floats[b]));
    }
    return s.append("]").toString();
  }
}
