// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * Host memory arguments are checked before any native call: these run through a real {@link
 * FfmCudaDriver} on a machine without a driver, where any native call would fail to link.
 */
class HostMemoryArgumentTests {

  private final FfmCudaDriver driver = new FfmCudaDriver();

  @Test
  void heapSegmentsAreRejectedByEveryCallThatTakesHostMemory() {
    MemorySegment heap = MemorySegment.ofArray(new byte[64]);
    assertRejectsHeap(DriverCall.MEMCPY_HTOD, d -> d.memcpyHtoD(0x1000, heap, 64));
    assertRejectsHeap(DriverCall.MEMCPY_DTOH, d -> d.memcpyDtoH(heap, 0x1000, 64));
    assertRejectsHeap(
        DriverCall.MEMCPY_HTOD_ASYNC, d -> d.memcpyHtoDAsync(0x1000, heap, 64, CuStream.NULL));
    assertRejectsHeap(
        DriverCall.MEMCPY_DTOH_ASYNC, d -> d.memcpyDtoHAsync(heap, 0x1000, 64, CuStream.NULL));
    assertRejectsHeap(DriverCall.MEM_FREE_HOST, d -> d.memFreeHost(heap));
    assertRejectsHeap(
        DriverCall.MEM_HOST_GET_DEVICE_POINTER, d -> d.memHostGetDevicePointer(heap, 0));
    CopyEndpoint device = new CopyEndpoint.Device(0x1000);
    for (boolean heapIsDestination : new boolean[] {true, false}) {
      CopyEndpoint host = new CopyEndpoint.Host(heap);
      assertRejectsHeap(
          DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,
          d ->
              d.graphExecMemcpyNodeSetParams(
                  new CuGraphExec(0x10),
                  new CuGraphNode(0x20),
                  heapIsDestination ? host : device,
                  heapIsDestination ? device : host,
                  64));
    }
  }

  @Test
  void aCopyNodeUpdateLongerThanItsHostEndpointIsRejected() {
    try (Arena arena = Arena.ofConfined()) {
      CopyEndpoint host = new CopyEndpoint.Host(arena.allocate(64));
      CudaDriverException failure =
          assertThrows(
              CudaDriverException.class,
              () ->
                  driver.graphExecMemcpyNodeSetParams(
                      new CuGraphExec(0x10),
                      new CuGraphNode(0x20),
                      new CopyEndpoint.Device(0x1000),
                      host,
                      65));
      assertEquals(CuResult.INVALID_VALUE, failure.status());
      assertEquals(DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS, failure.call());
      assertTrue(String.valueOf(failure.detail()).contains("byte count 65"), failure.getMessage());
    }
  }

  @Test
  void heapSegmentsOfEveryPrimitiveArrayAreRejected() {
    for (MemorySegment heap :
        new MemorySegment[] {
          MemorySegment.ofArray(new int[4]),
          MemorySegment.ofArray(new float[4]),
          MemorySegment.ofArray(new long[2]),
          MemorySegment.ofArray(new double[2])
        }) {
      assertRejectsHeap(DriverCall.MEMCPY_HTOD, d -> d.memcpyHtoD(0x1000, heap, 16));
    }
  }

  @Property(tries = 200)
  void byteCountsOutsideTheSegmentAreRejected(
      @ForAll @IntRange(min = 0, max = 4096) int size,
      @ForAll @LongRange(min = -(1L << 40), max = 1L << 40) long bytes) {
    net.jqwik.api.Assume.that(bytes < 0 || bytes > size);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(size);
      CudaDriverException failure =
          assertThrows(
              CudaDriverException.class,
              () -> driver.memcpyDtoHAsync(host, 0x1000, bytes, CuStream.NULL));
      assertEquals(CuResult.INVALID_VALUE, failure.status());
      assertEquals(DriverCall.MEMCPY_DTOH_ASYNC, failure.call());
      assertTrue(
          String.valueOf(failure.detail()).contains("byte count " + bytes), failure.getMessage());
    }
  }

  @Property(tries = 50)
  void nativeSegmentsWithinBoundsPassTheCheck(
      @ForAll @IntRange(min = 0, max = 4096) int size,
      @ForAll @IntRange(min = 0, max = 4096) int bytes) {
    net.jqwik.api.Assume.that(bytes <= size);
    try (Arena arena = Arena.ofConfined()) {
      HostSegments.requireNative(arena.allocate(size), bytes, DriverCall.MEMCPY_HTOD);
    }
  }

  private void assertRejectsHeap(DriverCall call, Consumer<FfmCudaDriver> action) {
    boolean boundBefore = CudaLibrary.isBound();
    CudaDriverException failure =
        assertThrows(CudaDriverException.class, () -> action.accept(driver), call.symbol());
    assertEquals(CuResult.INVALID_VALUE, failure.status());
    assertEquals(call, failure.call());
    assertTrue(
        String.valueOf(failure.detail()).startsWith("host memory must be native (off-heap)"),
        failure.getMessage());
    // Rejected before any native call: nothing was loaded or bound on the way.
    assertEquals(boundBefore, CudaLibrary.isBound());
  }
}
