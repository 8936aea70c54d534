// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.Dim3;
import cuda.graph.KernelCall;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import java.lang.foreign.MemorySegment;
import java.util.List;

/** A {@link KernelCall} over host arguments, for running a Java reference on the CPU. */
public final class HostKernelCall implements KernelCall {

  private final LaunchConfig config;
  private final List<KernelParam> parameters;
  private final Object[] arguments;

  public HostKernelCall(LaunchConfig config, List<KernelParam> parameters, Object[] arguments) {
    this.config = config;
    this.parameters = parameters;
    this.arguments = arguments;
  }

  @Override
  public Dim3 grid() {
    return config.grid();
  }

  @Override
  public Dim3 block() {
    return config.block();
  }

  @Override
  public int argumentCount() {
    return arguments.length;
  }

  private <T> T scalar(int index, Class<T> type) {
    Object value = arguments[index];
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          "argument "
              + index
              + " ("
              + parameters.get(index)
              + ") is "
              + value
              + ", not a "
              + type.getSimpleName());
    }
    return type.cast(value);
  }

  @Override
  public byte i8(int index) {
    return scalar(index, Byte.class);
  }

  @Override
  public short i16(int index) {
    return scalar(index, Short.class);
  }

  @Override
  public int i32(int index) {
    return scalar(index, Integer.class);
  }

  @Override
  public long i64(int index) {
    return scalar(index, Long.class);
  }

  @Override
  public float f32(int index) {
    return scalar(index, Float.class);
  }

  @Override
  public double f64(int index) {
    return scalar(index, Double.class);
  }

  @Override
  public MemorySegment memory(int index, long byteSize) {
    MemorySegment segment =
        switch (arguments[index]) {
          case MemorySegment s -> s;
          case float[] a -> MemorySegment.ofArray(a);
          case double[] a -> MemorySegment.ofArray(a);
          case int[] a -> MemorySegment.ofArray(a);
          case long[] a -> MemorySegment.ofArray(a);
          case short[] a -> MemorySegment.ofArray(a);
          case byte[] a -> MemorySegment.ofArray(a);
          case Object other ->
              throw new IllegalArgumentException(
                  "pointer argument "
                      + index
                      + " of a reference run must be a MemorySegment or a Java array, got "
                      + other);
        };
    return segment.asSlice(0, byteSize);
  }

  @Override
  public void setCondition(int index, int value) {
    throw new IllegalStateException(
        "argument "
            + index
            + " is a graph condition, which only a launch inside its graph can set; the"
            + " reference run has no graph: test the kernel's effect on the condition by"
            + " launching it in a captured graph");
  }

  /** A reference run has no kernel before it: nothing to wait for. */
  @Override
  public void gridDependencySynchronize() {}

  /** A reference run has no kernel after it: nothing to let start. */
  @Override
  public void triggerDependentLaunch() {}
}
