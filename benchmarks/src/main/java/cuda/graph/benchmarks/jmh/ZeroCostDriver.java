// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks.jmh;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.support.ForwardingCudaDriver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulator, except that the calls of the hot paths (kernel and graph launches, stream
 * synchronizes, event records and queries, and the capture protocol: begin, end, instantiate,
 * upload, destroy) return at once without doing anything, the graph and exec handles being made up:
 * what a benchmark over it measures is the library's own host time around the driver calls, the
 * part a C++ program does not have. Set-up calls (allocation, module loading) are the simulator's.
 */
final class ZeroCostDriver extends ForwardingCudaDriver {

  ZeroCostDriver(CudaDriver simulator) {
    super(simulator);
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
      KernelArguments arguments) {}

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {}

  @Override
  public void streamSynchronize(CuStream stream) {}

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {}

  @Override
  public boolean eventQuery(CuEvent event) {
    return true;
  }

  private final AtomicLong handles = new AtomicLong(0x7700_0000_0000L);
  private final Map<CuStream, Boolean> capturing = new ConcurrentHashMap<>();

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    capturing.put(stream, true);
  }

  @Override
  public CuGraph streamEndCapture(CuStream stream) {
    capturing.remove(stream);
    return new CuGraph(handles.addAndGet(0x40));
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    return capturing.containsKey(stream) ? CaptureStatus.ACTIVE : CaptureStatus.NONE;
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    return new CuGraphExec(handles.addAndGet(0x40));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {}

  @Override
  public void graphExecDestroy(CuGraphExec exec) {}

  @Override
  public void graphDestroy(CuGraph graph) {}
}
