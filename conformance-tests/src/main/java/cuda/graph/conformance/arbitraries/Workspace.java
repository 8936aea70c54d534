// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.DeviceBuffer;
import cuda.graph.Stream;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The pre-allocated device buffers an {@link OpSequence} works on: {@value #INT_BUFFERS} integer
 * and {@value #FLOAT_BUFFERS} float buffers of {@value #LENGTH} elements (more than one block of
 * {@link cuda.graph.conformance.kernels.ConformanceKernels#BLOCK} threads, so launches cover a
 * partial block), filled with {@link WorkspaceState#initial()}. Allocated before any capture, as
 * graphs require. {@link #close()} closes every buffer.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Workspace implements AutoCloseable {

  /** The number of integer buffers. */
  public static final int INT_BUFFERS = 3;

  /** The number of float buffers. */
  public static final int FLOAT_BUFFERS = 2;

  /** The number of elements of every buffer. */
  public static final int LENGTH = 40;

  private final List<DeviceBuffer<Integer>> ints;
  private final List<DeviceBuffer<Float>> floats;

  private Workspace(List<DeviceBuffer<Integer>> ints, List<DeviceBuffer<Float>> floats) {
    this.ints = List.copyOf(ints);
    this.floats = List.copyOf(floats);
  }

  /**
   * {@return a workspace on {@code stream}'s device holding {@link WorkspaceState#initial()}},
   * ready when this returns
   *
   * @param stream the stream the buffers are allocated and filled on, synchronously
   */
  public static Workspace allocate(Stream stream) {
    WorkspaceState initial = WorkspaceState.initial();
    List<DeviceBuffer<Integer>> ints = new ArrayList<>();
    List<DeviceBuffer<Float>> floats = new ArrayList<>();
    try {
      for (int b = 0; b < INT_BUFFERS; b++) {
        ints.add(DeviceBuffer.fromArray(initial.ints(b)).syncOn(stream));
      }
      for (int b = 0; b < FLOAT_BUFFERS; b++) {
        floats.add(DeviceBuffer.fromArray(initial.floats(b)).syncOn(stream));
      }
    } catch (RuntimeException | Error e) {
      ints.forEach(DeviceBuffer::close);
      floats.forEach(DeviceBuffer::close);
      throw e;
    }
    return new Workspace(ints, floats);
  }

  /**
   * {@return integer buffer {@code index}}
   *
   * @param index from 0 to {@value #INT_BUFFERS} - 1
   */
  public DeviceBuffer<Integer> ints(int index) {
    return ints.get(index);
  }

  /**
   * {@return float buffer {@code index}}
   *
   * @param index from 0 to {@value #FLOAT_BUFFERS} - 1
   */
  public DeviceBuffer<Float> floats(int index) {
    return floats.get(index);
  }

  /**
   * {@return the buffers' contents, read on {@code stream} once the work before it is done}
   *
   * @param stream the stream the reads are ordered on; each read synchronizes it
   */
  public WorkspaceState read(Stream stream) {
    int[][] i = new int[INT_BUFFERS][];
    float[][] f = new float[FLOAT_BUFFERS][];
    for (int b = 0; b < INT_BUFFERS; b++) {
      i[b] = ints.get(b).toIntArray().syncOn(stream);
    }
    for (int b = 0; b < FLOAT_BUFFERS; b++) {
      f[b] = floats.get(b).toFloatArray().syncOn(stream);
    }
    return new WorkspaceState(i, f);
  }

  @Override
  public void close() {
    ints.forEach(DeviceBuffer::close);
    floats.forEach(DeviceBuffer::close);
  }

  @Override
  public String toString() {
    return "Workspace["
        + INT_BUFFERS
        + " int and "
        + FLOAT_BUFFERS
        + " float buffers of "
        + LENGTH
        + "]";
  }
}
