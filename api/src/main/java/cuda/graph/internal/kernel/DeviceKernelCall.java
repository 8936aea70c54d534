// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.Dim3;
import cuda.graph.JavaKernel;
import cuda.graph.KernelCall;
import cuda.graph.spi.KernelBody;
import cuda.graph.spi.KernelInvocation;
import java.lang.foreign.MemorySegment;

/**
 * A {@link KernelCall} over a simulated launch: memory resolves through the provider's bounds
 * checks.
 */
public final class DeviceKernelCall implements KernelCall {

  /** Adapts a {@link JavaKernel} to the provider's kernel body. */
  public record Body(JavaKernel kernel) implements KernelBody {
    @Override
    public void execute(KernelInvocation launch) {
      kernel.run(new DeviceKernelCall(launch));
    }
  }

  private final KernelInvocation launch;

  private DeviceKernelCall(KernelInvocation launch) {
    this.launch = launch;
  }

  @Override
  public Dim3 grid() {
    var g = launch.grid();
    return new Dim3(g.x(), g.y(), g.z());
  }

  @Override
  public Dim3 block() {
    var b = launch.block();
    return new Dim3(b.x(), b.y(), b.z());
  }

  @Override
  public int argumentCount() {
    return launch.argumentCount();
  }

  @Override
  public byte i8(int index) {
    return launch.i8(index);
  }

  @Override
  public short i16(int index) {
    return launch.i16(index);
  }

  @Override
  public int i32(int index) {
    return launch.i32(index);
  }

  @Override
  public long i64(int index) {
    return launch.i64(index);
  }

  @Override
  public float f32(int index) {
    return launch.f32(index);
  }

  @Override
  public double f64(int index) {
    return launch.f64(index);
  }

  @Override
  public MemorySegment memory(int index, long byteSize) {
    return launch.deviceMemory(launch.pointer(index), byteSize);
  }

  @Override
  public void setCondition(int index, int value) {
    launch.setConditional(launch.i64(index), value);
  }

  @Override
  public void gridDependencySynchronize() {
    launch.gridDependencySynchronize();
  }

  @Override
  public void triggerDependentLaunch() {
    launch.triggerDependentLaunch();
  }
}
