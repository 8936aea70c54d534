// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.StreamFlags;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The anchors' chain of {@code inc} launches made straight on a provider's driver, with no library
 * in between: the sequence of calls the C++ anchors make ({@code bench.cu}, {@code
 * capture_bench.cu}), in this JVM, so that the library's path and the plain calls share the process
 * and the machine's moment. Owns its stream, module and counter; {@link #close} releases them.
 */
final class DirectChain implements AutoCloseable {

  private final CudaDriver driver;
  private final int device;
  // Shared, not confined: a provider may read and write it on its own thread (the simulator does).
  private final Arena arena = Arena.ofShared();
  private final CuContext context;
  private final CuStream stream;
  private final CuModule module;
  private final CuFunction inc;
  private final long counter;
  private final KernelArguments arguments;
  private long launched;

  DirectChain(CudaDriver driver, int device) {
    this.driver = driver;
    this.device = device;
    context = driver.devicePrimaryCtxRetain(device);
    driver.ctxSetCurrent(context);
    stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    module = driver.moduleLoadData(image());
    inc = driver.moduleGetFunction(module, "inc");
    counter = driver.memAlloc(4);
    driver.memsetD32Async(counter, 0, 1, stream);
    driver.streamSynchronize(stream);
    arguments = KernelArguments.allocate(arena, 8);
    arguments.setI64(0, counter);
  }

  private static ModuleImage image() {
    try (InputStream in =
        Objects.requireNonNull(IncKernel.class.getResourceAsStream("inc.ptx"), "inc.ptx")) {
      return ModuleImage.ptx(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .withJavaKernel(
              "inc",
              launch -> {
                MemorySegment c = launch.deviceMemory(launch.pointer(0), 4);
                c.set(
                    ValueLayout.JAVA_INT_UNALIGNED,
                    0,
                    c.get(ValueLayout.JAVA_INT_UNALIGNED, 0) + 1);
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void launch(int n) {
    for (int i = 0; i < n; i++) {
      driver.launchKernel(inc, 1, 1, 1, 1, 1, 1, 0, stream, arguments);
    }
  }

  /** n launches and a synchronize, as {@code bench.cu}'s eager rows. */
  void eager(int n) {
    launch(n);
    driver.streamSynchronize(stream);
    launched += n;
  }

  /** A captured, instantiated, uploaded chain of n launches, as {@code capture_bench.cu} does. */
  Captured capture(int n) {
    driver.streamBeginCapture(stream, CaptureMode.RELAXED);
    launch(n);
    CuGraph graph = Objects.requireNonNull(driver.streamEndCapture(stream), "captured graph");
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    driver.graphUpload(exec, stream);
    driver.streamSynchronize(stream);
    return new Captured(graph, exec, n);
  }

  /** A captured chain: replayed with a synchronize, as {@code bench.cu}'s graph rows. */
  final class Captured implements AutoCloseable {
    private final CuGraph graph;
    private final CuGraphExec exec;
    private final int n;

    private Captured(CuGraph graph, CuGraphExec exec, int n) {
      this.graph = graph;
      this.exec = exec;
      this.n = n;
    }

    void replay() {
      driver.graphLaunch(exec, stream);
      driver.streamSynchronize(stream);
      launched += n;
    }

    @Override
    public void close() {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(graph);
    }
  }

  /** {@return the counter, after all launches} which must equal {@link #launched()} */
  int counter() {
    driver.streamSynchronize(stream);
    MemorySegment out = arena.allocate(4);
    driver.memcpyDtoH(out, counter, 4);
    return out.get(ValueLayout.JAVA_INT, 0);
  }

  long launched() {
    return launched;
  }

  @Override
  public void close() {
    driver.memFree(counter);
    driver.moduleUnload(module);
    driver.streamDestroy(stream);
    driver.devicePrimaryCtxRelease(device);
    arena.close();
  }
}
