// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Kernels that set conditions, and the steps of building conditional graphs, over a {@link
 * SimFixture}.
 *
 * <ul>
 *   <li>{@code setCondition(u64 handle, int v)}: {@code cudaGraphSetConditional(handle, v)}
 *   <li>{@code countDown(int* p, u64 handle)}: {@code *p -= 1}, then sets the condition to {@code
 *       *p > 0}
 *   <li>{@code trySetCondition(u64 handle, int v)}: like {@code setCondition}, but keeps what the
 *       call threw in {@link #refused} before rethrowing it
 * </ul>
 */
final class ConditionalKit {

  private final SimFixture f;
  private final CudaDriver driver;
  private final CuModule module;

  /** What {@code trySetCondition} was refused with, last. */
  final AtomicReference<RuntimeException> refused = new AtomicReference<>();

  ConditionalKit(SimFixture f) {
    this.f = f;
    this.driver = f.driver;
    this.module = driver.moduleLoadData(kernels());
  }

  private ModuleImage kernels() {
    return ModuleImage.ptx(SimFixture.ptx("setCondition", "countDown", "trySetCondition"))
        .withJavaKernel("setCondition", l -> l.setConditional(l.i64(0), l.i32(1)))
        .withJavaKernel(
            "countDown",
            l -> {
              MemorySegment m = SimFixture.at(l, 0);
              int left = m.get(SimFixture.INT, 0) - 1;
              m.set(SimFixture.INT, 0, left);
              l.setConditional(l.i64(1), left > 0 ? 1 : 0);
            })
        .withJavaKernel(
            "trySetCondition",
            l -> {
              try {
                l.setConditional(l.i64(0), l.i32(1));
              } catch (RuntimeException e) {
                refused.set(e);
                throw e;
              }
            });
  }

  CuFunction fn(String name) {
    return driver.moduleGetFunction(module, name);
  }

  KernelArguments handleIntArgs(ConditionalHandle handle, int value) {
    KernelArguments args = KernelArguments.allocate(f.arena, 8, 4);
    args.setI64(0, handle.value());
    args.setI32(1, value);
    return args;
  }

  /** Launches {@code setCondition(handle, value)} on {@code s} (eagerly, or into its capture). */
  void setCondition(CuStream s, ConditionalHandle handle, int value) {
    launch("setCondition", s, handleIntArgs(handle, value));
  }

  void trySetCondition(CuStream s, ConditionalHandle handle, int value) {
    launch("trySetCondition", s, handleIntArgs(handle, value));
  }

  void countDown(CuStream s, long counter, ConditionalHandle handle) {
    KernelArguments args = KernelArguments.allocate(f.arena, 8, 8);
    args.setI64(0, counter);
    args.setI64(1, handle.value());
    launch("countDown", s, args);
  }

  private void launch(String kernel, CuStream s, KernelArguments args) {
    driver.launchKernel(fn(kernel), 1, 1, 1, 1, 1, 1, 0, s, args);
  }

  /** A new empty graph with one conditional node and its handle. */
  record Built(CuGraph graph, ConditionalHandle handle, ConditionalNode node) {
    CuGraph body(int index) {
      return node.bodies().get(index);
    }
  }

  Built graphWith(ConditionalType type, int size, int defaultValue, int flags) {
    return addTo(driver.graphCreate(0), type, size, defaultValue, flags);
  }

  /** Adds a conditional node without dependencies, with a new handle, to {@code graph}. */
  Built addTo(CuGraph graph, ConditionalType type, int size, int defaultValue, int flags) {
    ConditionalHandle handle = driver.graphConditionalHandleCreate(graph, defaultValue, flags);
    ConditionalNode node = driver.graphAddConditionalNode(graph, List.of(), handle, type, size);
    return new Built(graph, handle, node);
  }

  /** Fills {@code body} by capturing {@code work} on the fixture's stream into it. */
  void captureInto(CuGraph body, Runnable work) {
    driver.streamBeginCaptureToGraph(f.stream, body, List.of(), CaptureMode.GLOBAL);
    work.run();
    assertEquals(body, driver.streamEndCapture(f.stream), "the capture returns the body graph");
  }

  /**
   * During a capture on {@code s}: adds a conditional node after the capture's current work, with a
   * new handle of the capture's graph, and makes it what the capture continues after.
   */
  Built addToCapture(CuStream s, ConditionalType type, int size, int defaultValue, int flags) {
    CaptureInfo info = driver.streamGetCaptureInfo(s);
    CuGraph graph = info.graph();
    assertNotNull(graph, "the stream is capturing");
    ConditionalHandle handle = driver.graphConditionalHandleCreate(graph, defaultValue, flags);
    ConditionalNode node =
        driver.graphAddConditionalNode(graph, info.dependencies(), handle, type, size);
    driver.streamUpdateCaptureDependencies(
        s, List.of(node.node()), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    return new Built(graph, handle, node);
  }

  /** Instantiates {@code graph}, launches it once on the fixture's stream and waits. */
  CuGraphExec launchOnce(CuGraph graph) {
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    launch(exec);
    return exec;
  }

  void launch(CuGraphExec exec) {
    driver.graphLaunch(exec, f.stream);
    driver.streamSynchronize(f.stream);
  }
}
