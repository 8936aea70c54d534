// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Host functions in stream order, on the driver's thread, through the one upcall stub. */
@Tag("gpu")
class HostFunctionGpuTests extends GpuTest {

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
  void aHostFunctionRunsAfterThePrecedingWorkOnADriverThread() {
    long device = driver.memAlloc(4);
    MemorySegment pinned = driver.memAllocHost(4);
    AtomicInteger seen = new AtomicInteger(-1);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    try {
      pinned.set(ValueLayout.JAVA_INT, 0, 0);
      kernels.spin(stream, TestKernels.BUSY_CYCLES);
      kernels.fill(stream, device, 42, 1);
      driver.memcpyDtoHAsync(pinned, device, 4, stream);
      driver.launchHostFunc(
          stream,
          () -> {
            ranOn.set(Thread.currentThread());
            seen.set(pinned.get(ValueLayout.JAVA_INT, 0));
          });
      driver.streamSynchronize(stream);
      assertEquals(42, seen.get(), "the host function saw the copy's result");
      assertNotSame(Thread.currentThread(), ranOn.get());
    } finally {
      driver.memFree(device);
      driver.memFreeHost(pinned);
    }
  }

  @Test
  void aThrowingHostFunctionIsLoggedAndTheStreamGoesOn() {
    AtomicBoolean after = new AtomicBoolean();
    driver.launchHostFunc(
        stream,
        () -> {
          throw new IllegalStateException("thrown on purpose by a GPU test host function");
        });
    driver.launchHostFunc(stream, () -> after.set(true));
    driver.streamSynchronize(stream);
    assertTrue(after.get());
  }

  @Test
  void aFailedLaunchDoesNotLeakItsRegistration() {
    int before = HostFunctions.registeredCount();
    driver.ctxSetCurrent(null);
    try {
      // With no current context the NULL stream names no stream: the launch fails at once.
      CudaDriverException failure =
          assertThrows(
              CudaDriverException.class, () -> driver.launchHostFunc(CuStream.NULL, () -> {}));
      assertEquals(DriverCall.LAUNCH_HOST_FUNC, failure.call());
      assertNotEquals(0, failure.status());
    } finally {
      gpu.bind();
    }
    assertEquals(before, HostFunctions.registeredCount());
  }
}
