// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HostAllocFlags;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Mapped host memory from the real driver ({@code cuMemHostAlloc} with {@code
 * CU_MEMHOSTALLOC_DEVICEMAP}, {@code cuMemHostGetDevicePointer_v2}): kernels reach the host segment
 * through its device pointer, and the segment dies with {@code cuMemFreeHost}.
 */
@Tag("gpu")
class MappedMemoryGpuTests extends GpuTest {

  private static final int MAPPED = HostAllocFlags.PORTABLE | HostAllocFlags.DEVICEMAP;
  private static final int N = 1000;

  private CuStream stream;

  @BeforeEach
  void createStream() {
    stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
  }

  @AfterEach
  void destroyStream() {
    driver.streamSynchronize(stream);
    driver.streamDestroy(stream);
  }

  @Test
  void kernelsReadAndWriteTheHostSegmentThroughItsDevicePointer() {
    MemorySegment host = driver.memHostAlloc(4L * N, MAPPED);
    try {
      long device = driver.memHostGetDevicePointer(host, 0);
      assertNotEquals(0, device);
      kernels.fill(stream, device, 5, N);
      driver.streamSynchronize(stream);
      int[] expected = new int[N];
      Arrays.fill(expected, 5);
      assertArrayEquals(expected, host.toArray(ValueLayout.JAVA_INT), "the kernel's stores");

      host.setAtIndex(ValueLayout.JAVA_INT, 7, 100); // the host's store, read by the next kernel
      kernels.add(stream, device, 1, N);
      driver.streamSynchronize(stream);
      assertEquals(101, host.getAtIndex(ValueLayout.JAVA_INT, 7));
      assertEquals(6, host.getAtIndex(ValueLayout.JAVA_INT, N - 1));
      assertEquals(
          device + 40, driver.memHostGetDevicePointer(host.asSlice(40), 0), "a slice's pointer");
    } finally {
      driver.memFreeHost(host);
    }
    assertThrows(IllegalStateException.class, () -> host.get(ValueLayout.JAVA_INT, 0));
  }

  @Test
  void aDevicePointerQueryWithFlagsIsRefusedByTheDriver() {
    MemorySegment host = driver.memHostAlloc(64, MAPPED);
    try {
      CudaDriverException flags =
          assertThrows(CudaDriverException.class, () -> driver.memHostGetDevicePointer(host, 1));
      assertEquals(CuResult.INVALID_VALUE, flags.status(), "Flags must be 0, says cuda.h");
      assertEquals(DriverCall.MEM_HOST_GET_DEVICE_POINTER, flags.call());
    } finally {
      driver.memFreeHost(host);
    }
  }
}
