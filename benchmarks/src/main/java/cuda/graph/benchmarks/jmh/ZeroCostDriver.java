package cuda.graph.benchmarks.jmh;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.support.ForwardingCudaDriver;

/**
 * The simulator, except that the calls of the hot paths (kernel and graph launches, stream
 * synchronizes, event records and queries) return at once without doing anything: what a benchmark
 * over it measures is the library's own host time around the driver calls, the part a C++ program
 * does not have. Set-up calls (allocation, module loading, capture, instantiate) are the
 * simulator's.
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
}
