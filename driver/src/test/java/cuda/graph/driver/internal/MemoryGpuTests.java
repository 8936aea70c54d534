// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Device, pinned and stream-ordered memory, every copy and memset, verified by reading back. */
@Tag("gpu")
class MemoryGpuTests extends GpuTest {

  private static final int N = 4096;
  private static final long BYTES = N * 4L;

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
  void deviceAllocationsAreAlignedAndTheirLimitsChecked() {
    long p = driver.memAlloc(1000);
    try {
      assertNotEquals(0, p);
      assertEquals(0, p % 256, "at least 256-byte aligned");
    } finally {
      driver.memFree(p);
    }
    driver.memFree(0); // a no-op, as in C
    assertEquals(CuResult.INVALID_VALUE, failure(() -> driver.memAlloc(0)).status());
    CudaDriverException tooBig = failure(() -> driver.memAlloc(1L << 50));
    assertEquals(CuResult.OUT_OF_MEMORY, tooBig.status());
    assertEquals(DriverCall.MEM_ALLOC, tooBig.call());
  }

  @Test
  void synchronousCopiesRoundTrip() {
    long device = driver.memAlloc(BYTES);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment source = arena.allocate(ValueLayout.JAVA_INT, N);
      for (int i = 0; i < N; i++) {
        source.setAtIndex(ValueLayout.JAVA_INT, i, i * 3 + 1);
      }
      MemorySegment back = arena.allocate(ValueLayout.JAVA_INT, N);
      driver.memcpyHtoD(device, source, BYTES);
      driver.memcpyDtoH(back, device, BYTES);
      assertArrayEquals(source.toArray(ValueLayout.JAVA_INT), back.toArray(ValueLayout.JAVA_INT));
    } finally {
      driver.memFree(device);
    }
  }

  @Test
  void asynchronousCopiesThroughPinnedMemoryRoundTrip() {
    MemorySegment pinnedIn = driver.memAllocHost(BYTES);
    MemorySegment pinnedOut = driver.memAllocHost(BYTES);
    long a = driver.memAlloc(BYTES);
    long b = driver.memAlloc(BYTES);
    try {
      assertEquals(BYTES, pinnedIn.byteSize());
      for (int i = 0; i < N; i++) {
        pinnedIn.setAtIndex(ValueLayout.JAVA_INT, i, ~i);
      }
      pinnedOut.fill((byte) 0);
      driver.memcpyHtoDAsync(a, pinnedIn, BYTES, stream);
      driver.memcpyDtoDAsync(b, a, BYTES, stream);
      driver.memcpyDtoHAsync(pinnedOut, b, BYTES, stream);
      driver.streamSynchronize(stream);
      assertArrayEquals(
          pinnedIn.toArray(ValueLayout.JAVA_INT), pinnedOut.toArray(ValueLayout.JAVA_INT));
    } finally {
      driver.memFree(a);
      driver.memFree(b);
      driver.memFreeHost(pinnedIn);
      driver.memFreeHost(pinnedOut);
    }
  }

  @Test
  void memsetsFillBytesAndWords() {
    long device = driver.memAlloc(BYTES);
    MemorySegment host = driver.memAllocHost(BYTES);
    try {
      driver.memsetD8Async(device, (byte) 0xAB, BYTES, stream);
      driver.memcpyDtoHAsync(host, device, BYTES, stream);
      driver.streamSynchronize(stream);
      byte[] expectedBytes = new byte[(int) BYTES];
      Arrays.fill(expectedBytes, (byte) 0xAB);
      assertArrayEquals(expectedBytes, host.toArray(ValueLayout.JAVA_BYTE));

      driver.memsetD32Async(device, 0xDEADBEEF, N / 2, stream);
      driver.memcpyDtoHAsync(host, device, BYTES, stream);
      driver.streamSynchronize(stream);
      for (int i = 0; i < N; i++) {
        int expected = i < N / 2 ? 0xDEADBEEF : 0xABABABAB;
        assertEquals(expected, host.getAtIndex(ValueLayout.JAVA_INT, i), "word " + i);
      }
    } finally {
      driver.memFree(device);
      driver.memFreeHost(host);
    }
  }

  @Test
  void streamOrderedAllocationsWorkInStreamOrder() {
    MemorySegment host = driver.memAllocHost(BYTES);
    try {
      long device = driver.memAllocAsync(BYTES, stream);
      assertNotEquals(0, device);
      driver.memsetD32Async(device, 42, N, stream);
      driver.memcpyDtoHAsync(host, device, BYTES, stream);
      driver.memFreeAsync(device, stream);
      driver.streamSynchronize(stream);
      for (int i = 0; i < N; i++) {
        assertEquals(42, host.getAtIndex(ValueLayout.JAVA_INT, i));
      }
    } finally {
      driver.memFreeHost(host);
    }
  }

  @Test
  void memGetInfoSeesAnAllocation() {
    long bytes = 256L << 20;
    MemoryInfo before = driver.memGetInfo();
    long device = driver.memAlloc(bytes);
    try {
      MemoryInfo during = driver.memGetInfo();
      assertEquals(before.totalBytes(), during.totalBytes());
      assertTrue(during.freeBytes() < before.freeBytes(), before + " then " + during);
    } finally {
      driver.memFree(device);
    }
  }

  @Test
  void heapMemoryIsRejectedHereToo() {
    long device = driver.memAlloc(16);
    try {
      CudaDriverException failure =
          failure(
              () -> driver.memcpyHtoDAsync(device, MemorySegment.ofArray(new int[4]), 16, stream));
      assertEquals(CuResult.INVALID_VALUE, failure.status());
    } finally {
      driver.memFree(device);
    }
  }

  private static CudaDriverException failure(org.junit.jupiter.api.function.Executable call) {
    return assertThrows(CudaDriverException.class, call);
  }
}
