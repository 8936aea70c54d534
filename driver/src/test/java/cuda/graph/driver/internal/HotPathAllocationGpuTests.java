// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The hot paths allocate nothing once compiled: rounds of calls are measured with the thread's
 * allocation counter until the JIT has done its work, and one round must come in under a byte per
 * call (the interpreter allocates; compiled code must not).
 */
@Tag("gpu")
class HotPathAllocationGpuTests extends GpuTest {

  private static final int CALLS_PER_ROUND = 20_000;
  private static final int MAX_ROUNDS = 30;

  @Test
  void launchesQueriesRecordsAndCopiesAllocateNothingOnceCompiled() {
    AllocationCounter counter = AllocationCounter.find();
    assumeTrue(
        counter != null,
        "this runtime has no per-thread allocation counter (module jdk.management)");
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CuEvent event = driver.eventCreate(EventFlags.DISABLE_TIMING);
    long device = driver.memAlloc(64);
    MemorySegment pinned = driver.memAllocHost(64);
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8, 4, 4);
      args.setI64(0, device);
      args.setI32(1, 1);
      args.setI32(2, 1);
      driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
      driver.launchKernel(kernels.add, 1, 1, 1, 1, 1, 1, 0, stream, args);
      CuGraph graph = driver.streamEndCapture(stream);
      CuGraphExec exec = driver.graphInstantiate(graph, 0);
      driver.graphDestroy(graph);
      List<Long> perRound = new ArrayList<>();
      boolean quiet = false;
      for (int round = 0; round < MAX_ROUNDS && !quiet; round++) {
        long before = counter.bytes();
        for (int i = 0; i < CALLS_PER_ROUND; i++) {
          driver.launchKernel(kernels.add, 1, 1, 1, 1, 1, 1, 0, stream, args);
          driver.graphLaunch(exec, stream);
          driver.memsetD32Async(device, i, 1, stream);
          driver.memcpyHtoDAsync(device, pinned, 4, stream);
          driver.memcpyDtoHAsync(pinned, device, 4, stream);
          driver.eventRecord(event, stream);
          driver.eventQuery(event);
          driver.streamQuery(stream);
        }
        driver.streamSynchronize(stream);
        long allocated = counter.bytes() - before;
        perRound.add(allocated);
        quiet = allocated < CALLS_PER_ROUND;
      }
      driver.graphExecDestroy(exec);
      assertTrue(
          quiet, "bytes allocated per round of " + CALLS_PER_ROUND + " x 8 calls: " + perRound);
    } finally {
      driver.streamSynchronize(stream);
      driver.memFreeHost(pinned);
      driver.memFree(device);
      driver.eventDestroy(event);
      driver.streamDestroy(stream);
    }
  }

  /**
   * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}, reached by core
   * reflection: the tests run patched into module {@code cuda.graph.driver}, which does not read
   * the management modules, and core reflection needs no readability.
   */
  private record AllocationCounter(Object bean, Method read) {

    static @org.jspecify.annotations.Nullable AllocationCounter find() {
      try {
        Object bean =
            Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getThreadMXBean")
                .invoke(null);
        Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
        if (!extended.isInstance(bean)) {
          return null;
        }
        return new AllocationCounter(bean, extended.getMethod("getCurrentThreadAllocatedBytes"));
      } catch (ReflectiveOperationException | LinkageError absent) {
        return null;
      }
    }

    long bytes() {
      try {
        return (long) read.invoke(bean);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("the allocation counter failed", e);
      }
    }
  }
}
