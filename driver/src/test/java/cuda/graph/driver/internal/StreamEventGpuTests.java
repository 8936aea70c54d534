// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Streams and events on a GPU: create, query, synchronize, record, wait, time, destroy. */
@Tag("gpu")
class StreamEventGpuTests extends GpuTest {

  @Test
  void streamsOfBothKindsAreCreatedQueriedSynchronizedAndDestroyed() {
    for (int flags : new int[] {StreamFlags.DEFAULT, StreamFlags.NON_BLOCKING}) {
      CuStream stream = driver.streamCreate(flags);
      assertFalse(stream.isDefaultStream());
      assertTrue(driver.streamQuery(stream), "an idle stream");
      driver.streamSynchronize(stream);
      driver.streamDestroy(stream);
    }
  }

  @Test
  void anUnknownStreamFlagIsInvalid() {
    CudaDriverException failure =
        assertThrows(CudaDriverException.class, () -> driver.streamCreate(2));
    assertEquals(CuResult.INVALID_VALUE, failure.status());
    assertEquals(DriverCall.STREAM_CREATE, failure.call());
  }

  @Test
  void aBusyStreamQueriesNotReadyUntilItIsSynchronized() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    try {
      kernels.spin(stream, TestKernels.BUSY_CYCLES);
      assertFalse(driver.streamQuery(stream), "a stream running a spinning kernel");
      driver.streamSynchronize(stream);
      assertTrue(driver.streamQuery(stream));
    } finally {
      driver.streamDestroy(stream);
    }
  }

  @Test
  void theDefaultStreamsCanBeSynchronizedAndQueried() {
    for (CuStream stream : new CuStream[] {CuStream.NULL, CuStream.LEGACY, CuStream.PER_THREAD}) {
      driver.streamSynchronize(stream);
      assertTrue(driver.streamQuery(stream), stream.toString());
    }
  }

  @Test
  void eventsTimeTheWorkBetweenThem() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CuEvent start = driver.eventCreate(EventFlags.DEFAULT);
    CuEvent end = driver.eventCreate(EventFlags.BLOCKING_SYNC);
    try {
      assertTrue(driver.eventQuery(end), "a never-recorded event stands for no work");
      driver.eventRecord(start, stream);
      kernels.spin(stream, TestKernels.BUSY_CYCLES);
      driver.eventRecordWithFlags(end, stream, 0);
      assertFalse(driver.eventQuery(end), "recorded after a spinning kernel");
      driver.eventSynchronize(end);
      assertTrue(driver.eventQuery(end));
      float millis = driver.eventElapsedTime(start, end);
      assertTrue(millis > 1f && millis < 10_000f, millis + " ms");
    } finally {
      driver.eventDestroy(start);
      driver.eventDestroy(end);
      driver.streamDestroy(stream);
    }
  }

  @Test
  void untimedEventsCannotBeTimed() {
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CuEvent start = driver.eventCreate(EventFlags.DISABLE_TIMING);
    CuEvent end = driver.eventCreate(EventFlags.DISABLE_TIMING);
    try {
      driver.eventRecord(start, stream);
      driver.eventRecord(end, stream);
      driver.streamSynchronize(stream);
      CudaDriverException failure =
          assertThrows(CudaDriverException.class, () -> driver.eventElapsedTime(start, end));
      assertEquals(CuResult.INVALID_HANDLE, failure.status());
      assertEquals(DriverCall.EVENT_ELAPSED_TIME, failure.call());
    } finally {
      driver.eventDestroy(start);
      driver.eventDestroy(end);
      driver.streamDestroy(stream);
    }
  }

  @Test
  void anUnknownEventFlagIsInvalid() {
    CudaDriverException failure =
        assertThrows(CudaDriverException.class, () -> driver.eventCreate(0x80));
    assertEquals(CuResult.INVALID_VALUE, failure.status());
  }

  @Test
  void waitingOnAnEventOrdersOneStreamAfterAnother() {
    CuStream producer = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CuStream consumer = driver.streamCreate(StreamFlags.NON_BLOCKING);
    CuEvent produced = driver.eventCreate(EventFlags.DISABLE_TIMING);
    long value = driver.memAlloc(4);
    MemorySegment host = driver.memAllocHost(4);
    try {
      driver.memsetD32Async(value, 0, 1, producer);
      driver.streamSynchronize(producer);
      kernels.spin(producer, TestKernels.BUSY_CYCLES);
      kernels.fill(producer, value, 7, 1);
      driver.eventRecord(produced, producer);
      driver.streamWaitEvent(consumer, produced, 0);
      driver.memcpyDtoHAsync(host, value, 4, consumer);
      driver.streamSynchronize(consumer);
      assertEquals(7, host.get(ValueLayout.JAVA_INT, 0), "the copy ran after the fill");
    } finally {
      driver.streamSynchronize(producer);
      driver.memFreeHost(host);
      driver.memFree(value);
      driver.eventDestroy(produced);
      driver.streamDestroy(producer);
      driver.streamDestroy(consumer);
    }
  }
}
