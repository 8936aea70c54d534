// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.INT;
import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.MemoryInfo;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Device and host memory outside capture: spec §2.3 memory rows and §7. */
@Timeout(20)
class MemoryTests {

  private static final long DEVICE_BYTES = 8L << 20;

  @AutoClose
  final SimFixture f = SimFixture.start(Simulator.builder().deviceMemoryBytes(DEVICE_BYTES));

  @Test
  void memAllocOfZeroBytesReturnsInvalidValue() {
    assertStatus(1, () -> f.driver.memAlloc(0));
  }

  @Test
  void memAllocOfAHugeSizeReturnsOutOfMemory() {
    assertStatus(2, () -> f.driver.memAlloc(1L << 50));
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(longs = {1, 3, 100, 257, 1000, 4097})
  void memAllocReturnsPointersAlignedTo256Bytes(long bytes) {
    long first = f.driver.memAlloc(bytes);
    long second = f.driver.memAlloc(bytes);
    assertNotEquals(0L, first);
    assertEquals(0, first % 256);
    assertEquals(0, second % 256);
    assertNotEquals(first, second);
  }

  @Test
  void memFreeOfZeroIsANoOp() {
    assertDoesNotThrow(() -> f.driver.memFree(0));
  }

  @Test
  void memFreeOfAnInteriorPointerReturnsInvalidValue() {
    long p = f.driver.memAlloc(1024);
    assertStatus(1, () -> f.driver.memFree(p + 16));
    assertDoesNotThrow(() -> f.driver.memFree(p));
  }

  @Test
  void memFreeTwiceReturnsInvalidValue() {
    long p = f.driver.memAlloc(1024);
    f.driver.memFree(p);
    assertStatus(1, () -> f.driver.memFree(p));
  }

  @Test
  void allocationsBeyondTheConfiguredDeviceSizeReturnOutOfMemory() {
    assertStatus(2, () -> f.driver.memAlloc(DEVICE_BYTES + 1));
    long big = f.driver.memAlloc(5L << 20);
    assertStatus(2, () -> f.driver.memAlloc(5L << 20));
    f.driver.memFree(big);
    assertDoesNotThrow(() -> f.driver.memAlloc(5L << 20), "freed memory can be allocated again");
  }

  @Test
  void memGetInfoReportsTheDeviceSizeAndFreeMemoryFollowsAllocations() {
    MemoryInfo before = f.driver.memGetInfo();
    assertEquals(DEVICE_BYTES, before.totalBytes());
    assertTrue(before.freeBytes() <= DEVICE_BYTES);
    long p = f.driver.memAlloc(1L << 20);
    MemoryInfo during = f.driver.memGetInfo();
    assertTrue(
        during.freeBytes() <= before.freeBytes() - (1L << 20),
        "free memory dropped by at least the allocation");
    f.driver.memFree(p);
    assertEquals(before.freeBytes(), f.driver.memGetInfo().freeBytes());
  }

  @Test
  void synchronousCopiesRoundTripThroughDeviceMemory() {
    long p = f.driver.memAlloc(64);
    MemorySegment in = f.arena.allocate(64);
    for (int i = 0; i < 16; i++) {
      in.setAtIndex(ValueLayout.JAVA_INT, i, i * i);
    }
    MemorySegment out = f.arena.allocate(64);
    f.driver.memcpyHtoD(p, in, 64);
    f.driver.memcpyDtoH(out, p, 64);
    assertArrayEquals(in.toArray(ValueLayout.JAVA_INT), out.toArray(ValueLayout.JAVA_INT));
  }

  @Test
  void asynchronousCopiesHostToDeviceToDeviceToHostInStreamOrder() {
    long a = f.driver.memAlloc(64);
    long b = f.driver.memAlloc(64);
    MemorySegment in = f.driver.memAllocHost(64);
    MemorySegment out = f.driver.memAllocHost(64);
    for (int i = 0; i < 16; i++) {
      in.setAtIndex(ValueLayout.JAVA_INT, i, 100 + i);
    }
    f.driver.memcpyHtoDAsync(a, in, 64, f.stream);
    f.driver.memcpyDtoDAsync(b, a, 64, f.stream);
    f.driver.memcpyDtoHAsync(out, b, 64, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertArrayEquals(in.toArray(ValueLayout.JAVA_INT), out.toArray(ValueLayout.JAVA_INT));
  }

  @Test
  void copiesWithAHeapSegmentReturnInvalidValue() {
    long p = f.driver.memAlloc(64);
    MemorySegment heap = MemorySegment.ofArray(new byte[64]);
    assertStatus(1, () -> f.driver.memcpyHtoDAsync(p, heap, 64, f.stream));
    assertStatus(1, () -> f.driver.memcpyDtoHAsync(heap, p, 64, f.stream));
    assertStatus(1, () -> f.driver.memcpyHtoD(p, heap, 64));
    assertStatus(1, () -> f.driver.memcpyDtoH(heap, p, 64));
  }

  @Test
  void memsetD8SetsBytes() {
    long p = f.allocZeroed(256);
    f.driver.memsetD8Async(p + 1, (byte) 0x7F, 2, f.stream);
    f.driver.streamSynchronize(f.stream);
    MemorySegment out = f.arena.allocate(4);
    f.driver.memcpyDtoH(out, p, 4);
    assertArrayEquals(new byte[] {0, 0x7F, 0x7F, 0}, out.toArray(ValueLayout.JAVA_BYTE));
  }

  @Test
  void memsetD32SetsWords() {
    long p = f.allocZeroed(256);
    f.driver.memsetD32Async(p + 4, 0xCAFEBABE, 2, f.stream);
    f.driver.streamSynchronize(f.stream);
    MemorySegment out = f.arena.allocate(16);
    f.driver.memcpyDtoH(out, p, 16);
    assertArrayEquals(new int[] {0, 0xCAFEBABE, 0xCAFEBABE, 0}, out.toArray(ValueLayout.JAVA_INT));
  }

  @Test
  void memsetD32OfAnAddressThatIsNotFourByteAlignedReturnsInvalidValue() {
    long p = f.driver.memAlloc(256);
    assertStatus(1, () -> f.driver.memsetD32Async(p + 2, 0, 1, f.stream));
    assertDoesNotThrow(() -> f.driver.memsetD32Async(p + 4, 0, 1, f.stream));
  }

  @Test
  void pinnedHostMemoryIsNativeOfTheRequestedSizeAndCanBeFreed() {
    MemorySegment pinned = f.driver.memAllocHost(128);
    assertTrue(pinned.isNative());
    assertEquals(128, pinned.byteSize());
    pinned.set(INT, 124, 9);
    assertEquals(9, pinned.get(INT, 124));
    assertDoesNotThrow(() -> f.driver.memFreeHost(pinned));
  }

  @Test
  void memFreeHostTwiceReturnsInvalidValueLikeADoubleMemFree() {
    MemorySegment pinned = f.driver.memAllocHost(64);
    f.driver.memFreeHost(pinned);
    assertStatus(1, () -> f.driver.memFreeHost(pinned));
  }

  @Test
  void memFreeHostOfMemoryNotFromMemAllocHostReturnsInvalidValue() {
    assertStatus(1, () -> f.driver.memFreeHost(f.arena.allocate(64)));
  }

  @Test
  void memAllocAsyncOutsideCaptureReturnsStreamOrderedMemory() {
    long p = f.driver.memAllocAsync(256, f.stream);
    assertNotEquals(0L, p);
    f.store(f.stream, p, 23);
    MemorySegment out = f.driver.memAllocHost(4);
    f.driver.memcpyDtoHAsync(out, p, 4, f.stream);
    f.driver.memFreeAsync(p, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(23, out.get(INT, 0));
  }
}
