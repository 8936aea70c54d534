// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.UndefinedBehaviorException;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.IllegalDeviceAccessException;
import cuda.graph.spi.KernelInvocation;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * What a Java kernel sees of one launch: shape, the argument snapshot, bounds-checked memory, and
 * the conditions of the graph launch it runs in, if any.
 */
final class KernelLaunchView implements KernelInvocation {

  private final Op.Kernel launch;
  private final MemorySegment arguments;
  private final DeviceMemory memory;
  private final @Nullable ConditionScope conditions;
  private final @Nullable EarlyStart primaryOf;
  private final @Nullable EarlyStart dependentOf;

  /**
   * @param conditions the conditions of the exec launch running the kernel; null for a kernel
   *     launched on a stream
   * @param primaryOf the early start this kernel's trigger begins, if a dependent follows it
   * @param dependentOf the early start this kernel's synchronize waits on, if it started early
   */
  KernelLaunchView(
      Op.Kernel launch,
      DeviceMemory memory,
      @Nullable ConditionScope conditions,
      @Nullable EarlyStart primaryOf,
      @Nullable EarlyStart dependentOf) {
    this.launch = launch;
    this.arguments = MemorySegment.ofArray(launch.arguments());
    this.memory = memory;
    this.conditions = conditions;
    this.primaryOf = primaryOf;
    this.dependentOf = dependentOf;
  }

  @Override
  public void gridDependencySynchronize() {
    if (dependentOf != null) {
      dependentOf.synchronize();
    }
  }

  @Override
  public void triggerDependentLaunch() {
    if (primaryOf != null) {
      primaryOf.trigger();
    }
  }

  @Override
  public Dim3 grid() {
    return launch.grid();
  }

  @Override
  public Dim3 block() {
    return launch.block();
  }

  @Override
  public int sharedMemoryBytes() {
    return launch.sharedMemBytes();
  }

  @Override
  public int argumentCount() {
    return launch.sizes().length;
  }

  private long at(int index, int size) {
    if (index < 0 || index >= launch.sizes().length) {
      throw new IllegalArgumentException(
          "kernel "
              + launch.function().name
              + " read parameter "
              + index
              + " but the launch passed "
              + launch.sizes().length);
    }
    if (launch.sizes()[index] != size) {
      throw new IllegalArgumentException(
          "kernel "
              + launch.function().name
              + " read parameter "
              + index
              + " as "
              + size
              + " bytes but the launch passed "
              + launch.sizes()[index]);
    }
    return launch.offsets()[index];
  }

  @Override
  public byte i8(int index) {
    return arguments.get(ValueLayout.JAVA_BYTE, at(index, 1));
  }

  @Override
  public short i16(int index) {
    return arguments.get(ValueLayout.JAVA_SHORT_UNALIGNED, at(index, 2));
  }

  @Override
  public int i32(int index) {
    return arguments.get(ValueLayout.JAVA_INT_UNALIGNED, at(index, 4));
  }

  @Override
  public long i64(int index) {
    return arguments.get(ValueLayout.JAVA_LONG_UNALIGNED, at(index, 8));
  }

  @Override
  public float f32(int index) {
    return arguments.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at(index, 4));
  }

  @Override
  public double f64(int index) {
    return arguments.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at(index, 8));
  }

  @Override
  public MemorySegment deviceMemory(long address, long byteSize) {
    if (byteSize < 0) {
      throw new IllegalDeviceAccessException("negative size " + byteSize);
    }
    return memory.access(address, byteSize, launch.function().module.context.device);
  }

  /**
   * Sets a condition of the running graph launch; the next test of the condition reads it. Outside
   * a graph launch, or with a handle of another graph, {@code cudaGraphSetConditional} writes
   * through a handle that means nothing there: undefined behaviour.
   */
  @Override
  public void setConditional(long handle, int value) {
    String call =
        "kernel "
            + launch.function().name
            + " called cudaGraphSetConditional(0x"
            + Long.toHexString(handle)
            + ", "
            + value
            + ")";
    if (conditions == null) {
      throw new UndefinedBehaviorException(
          call + " outside a graph launch (it was launched on a stream): undefined behaviour");
    }
    AtomicInteger condition = conditions.value(handle);
    if (condition == null) {
      throw new UndefinedBehaviorException(
          call
              + " but the graph being launched has no conditional node with that handle (a handle"
              + " of another graph, or not a handle): undefined behaviour");
    }
    condition.set(value);
  }
}
