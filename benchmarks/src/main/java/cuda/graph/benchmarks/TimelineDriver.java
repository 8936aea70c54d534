// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.support.ForwardingCudaDriver;
import java.util.EnumMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A driver that notes, while {@link #recording}, when each call of the launch and capture paths
 * entered and returned: a timeline of one measured operation, which {@link Breakdown} splits into
 * the driver's calls and the gaps between them (the caller's own time). Calls it does not time are
 * counted in {@link #untimed}, so a sequence with an unexpected call shows it. Preallocated: noting
 * a call allocates nothing; while not recording, it reads no clock. Confined to one thread.
 */
final class TimelineDriver extends ForwardingCudaDriver {

  private static final int CAPACITY = 1 << 16;

  final DriverCall[] calls = new DriverCall[CAPACITY];
  final long[] entered = new long[CAPACITY];
  final long[] returned = new long[CAPACITY];
  final Map<DriverCall, Integer> untimed = new EnumMap<>(DriverCall.class);
  int count;
  boolean recording;

  private DriverCall current = DriverCall.INIT;
  private boolean timed;

  TimelineDriver(CudaDriver delegate) {
    super(delegate);
  }

  /** Forgets the timeline (not the untimed calls, which add up until their map is cleared). */
  void clear() {
    count = 0;
  }

  @Override
  protected void before(DriverCall call) {
    current = call;
    if (recording && !timed) {
      untimed.merge(call, 1, Integer::sum);
    }
  }

  private long enter() {
    timed = true;
    return recording ? System.nanoTime() : 0;
  }

  private void noted(long t0) {
    timed = false;
    if (recording && count < CAPACITY) {
      long t1 = System.nanoTime();
      calls[count] = current;
      entered[count] = t0;
      returned[count] = t1;
      count++;
    }
  }

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    long t0 = enter();
    super.streamBeginCapture(stream, mode);
    noted(t0);
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    long t0 = enter();
    CuGraph graph = super.streamEndCapture(stream);
    noted(t0);
    return graph;
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    long t0 = enter();
    CuGraphExec exec = super.graphInstantiate(graph, flags);
    noted(t0);
    return exec;
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    long t0 = enter();
    super.graphUpload(exec, stream);
    noted(t0);
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    long t0 = enter();
    super.streamSynchronize(stream);
    noted(t0);
  }

  @Override
  public void launchKernel(
      CuFunction function,
      int gridX,
      int gridY,
      int gridZ,
      int blockX,
      int blockY,
      int blockZ,
      int sharedMemBytes,
      CuStream stream,
      KernelArguments arguments) {
    long t0 = enter();
    super.launchKernel(
        function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
    noted(t0);
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    long t0 = enter();
    super.graphLaunch(exec, stream);
    noted(t0);
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    long t0 = enter();
    super.graphDestroy(graph);
    noted(t0);
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    long t0 = enter();
    super.graphExecDestroy(exec);
    noted(t0);
  }
}
