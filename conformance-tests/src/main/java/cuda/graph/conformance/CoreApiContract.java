// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaEvent;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.HostBuffer;
import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.ReentrantExecutionException;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * The core API over the provider under test: memory of every element type, copies through pinned
 * memory, fills, composition on one stream, shared results across streams, futures, events, the
 * execution lock, argument checks, buffer lifetimes and run-time compilation. Every test runs in a
 * {@link ConformanceSession}, so it also proves it left no handle alive.
 *
 * <p>Nothing here provokes a sticky device error: on a real GPU that would end the process's use of
 * the device.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface CoreApiContract extends ConformanceContract {

  /**
   * Every element type, the three 16-bit ones included, comes back from device memory bit for bit,
   * extremes and negative zero too.
   */
  @Test
  default void everyElementTypeRoundTripsThroughDeviceMemory() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      float[] f = {1.5f, -2f, Float.MAX_VALUE, Float.MIN_VALUE};
      double[] d = {Math.PI, -0.0, Double.MAX_VALUE};
      int[] i = {1, -2, Integer.MIN_VALUE, Integer.MAX_VALUE, 7};
      long[] l = {Long.MIN_VALUE, 3, Long.MAX_VALUE};
      byte[] b = {1, -1, 127, -128, 0, 9};
      short[] h = {(short) 0x3c00, (short) 0xbc00, 1};
      assertArrayEquals(
          f, roundTrip(DeviceBuffer.fromArray(f), DeviceBuffer::toFloatArray, stream));
      assertArrayEquals(
          d, roundTrip(DeviceBuffer.fromArray(d), DeviceBuffer::toDoubleArray, stream));
      assertArrayEquals(i, roundTrip(DeviceBuffer.fromArray(i), DeviceBuffer::toIntArray, stream));
      assertArrayEquals(l, roundTrip(DeviceBuffer.fromArray(l), DeviceBuffer::toLongArray, stream));
      assertArrayEquals(b, roundTrip(DeviceBuffer.fromArray(b), DeviceBuffer::toByteArray, stream));
      for (ElementType<Short> t : List.of(ElementType.I16, ElementType.F16, ElementType.BF16)) {
        assertArrayEquals(
            h,
            roundTrip(DeviceBuffer.fromArray(t, h), DeviceBuffer::toShortArray, stream),
            t.name());
      }
    }
  }

  private static <T, A> A roundTrip(
      DeviceOp<DeviceBuffer<T>> upload,
      java.util.function.Function<DeviceBuffer<T>, DeviceOp<A>> read,
      Stream stream) {
    return upload
        .then(buffer -> read.apply(buffer).zip(buffer.free(), (a, ignored) -> a))
        .syncOn(stream);
  }

  /**
   * Fills (also of 64-bit patterns whose halves differ), device copies between slices, and copies
   * through pinned host memory around a kernel compute exactly what they describe.
   */
  @Test
  default void fillsCopiesAndSlicesComputeWhatTheyDescribe() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      // 0x3FF0000000000001: the two 32-bit halves differ, so this fill takes two strided memsets.
      double odd = Double.longBitsToDouble(0x3FF0000000000001L);
      DeviceBuffer<Double> doubles =
          s.own(DeviceBuffer.filled(ElementType.F64, 5, odd).syncOn(stream));
      assertArrayEquals(
          new double[] {odd, odd, odd, odd, odd}, doubles.toDoubleArray().syncOn(stream));
      DeviceBuffer<Long> longs = s.own(DeviceBuffer.filled(ElementType.I64, 3, -2L).syncOn(stream));
      assertArrayEquals(new long[] {-2, -2, -2}, longs.toLongArray().syncOn(stream));

      DeviceBuffer<Integer> a =
          s.own(DeviceBuffer.fromArray(new int[] {1, 2, 3, 4, 5, 6}).syncOn(stream));
      DeviceBuffer<Integer> copy = s.own(a.duplicate().syncOn(stream));
      GraphNode.sequence(a.slice(2, 2).fill(0), copy.slice(0, 3).copyFrom(a.slice(3, 3)))
          .syncOn(stream);
      assertArrayEquals(new int[] {1, 2, 0, 0, 5, 6}, a.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {0, 5, 6, 4, 5, 6}, copy.toIntArray().syncOn(stream));

      HostBuffer<Float> in = s.own(s.device().allocateHost(ElementType.F32, 4));
      HostBuffer<Float> out = s.own(s.device().allocateHost(ElementType.F32, 4));
      in.write(new float[] {1, 2, 3, 4});
      DeviceBuffer<Float> x = s.own(DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream));
      DeviceBuffer<Float> y = s.own(DeviceBuffer.filled(ElementType.F32, 4, 1f).syncOn(stream));
      x.copyFrom(in)
          .andThen(ConformanceKernels.saxpy(2f, x, y))
          .andThen(y.copyTo(out))
          .syncOn(stream);
      assertArrayEquals(new float[] {3, 5, 7, 9}, out.toFloatArray());
    }
  }

  /**
   * Composed launches, reads and dependent ops run on one stream in composition order: each step
   * sees every launch before it.
   */
  @Test
  default void composedOpsRunInOrderOnOneStream() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      int value =
          ConformanceKernels.inc(counter)
              .andThen(ConformanceKernels.inc(counter))
              .andThen(counter.toIntArray())
              .map(read -> read[0])
              .then(
                  seen ->
                      ConformanceKernels.inc(counter)
                          .andThen(counter.toIntArray())
                          .map(read -> seen * 10 + read[0]))
              .syncOn(stream);
      assertEquals(23, value, "each step saw every launch before it");
    }
  }

  /**
   * A {@linkplain DeviceOp#shared() shared} op runs once for two consumers, and the consumer on
   * another stream is ordered after the producer's kernels.
   */
  @Test
  default void aSharedResultIsProducedOnceAndConsumersOnOtherStreamsSeeItsWork() {
    try (ConformanceSession s = openSession()) {
      Stream first = s.stream();
      Stream second = s.newStream();
      AtomicInteger runs = new AtomicInteger();
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 64).syncOn(first));
      DeviceOp<DeviceBuffer<Integer>> produced =
          DeviceOp.value(counter)
              .map(
                  c -> {
                    runs.incrementAndGet();
                    return c;
                  })
              .then(
                  c ->
                      GraphNode.sequence(
                              ConformanceKernels.inc(c),
                              ConformanceKernels.inc(c),
                              ConformanceKernels.inc(c))
                          .map(ignored -> c))
              .shared();
      CompletableFuture<int[]> onFirst = produced.then(DeviceBuffer::toIntArray).asyncOn(first);
      int[] onSecond = produced.then(DeviceBuffer::toIntArray).syncOn(second);
      assertEquals(
          3,
          onSecond[63],
          "the consumer on another stream is ordered after the producer's kernels");
      assertEquals(3, onFirst.join()[0]);
      assertEquals(1, runs.get(), "the shared source ran once");
    }
  }

  /** 24 futures over three streams each complete with what their own launches computed. */
  @Test
  default void futuresCompleteWithTheResultsOfTheirGpuWork() {
    try (ConformanceSession s = openSession()) {
      List<Stream> streams = List.of(s.stream(), s.newStream(), s.newStream());
      List<CompletableFuture<int[]>> futures = new ArrayList<>();
      for (int k = 0; k < 24; k++) {
        int times = k % 5 + 1;
        Stream stream = streams.get(k % streams.size());
        futures.add(
            DeviceBuffer.zeros(ElementType.I32, 256)
                .then(
                    c -> {
                      List<GraphNode<?>> launches = new ArrayList<>();
                      for (int t = 0; t < times; t++) {
                        launches.add(ConformanceKernels.inc(c));
                      }
                      return GraphNode.sequence(launches)
                          .andThen(c.toIntArray())
                          .zip(c.free(), (a, ignored) -> a);
                    })
                .asyncOn(stream));
      }
      for (int k = 0; k < futures.size(); k++) {
        int[] result = futures.get(k).join();
        assertEquals(k % 5 + 1, result[0], "future " + k);
        assertEquals(k % 5 + 1, result[255], "future " + k);
      }
    }
  }

  /**
   * Executing an op inside another op's function fails with {@link ReentrantExecutionException},
   * synchronously and through a future; after that and after an op's own exception, the thread
   * executes again.
   */
  @Test
  default void nestedExecutionIsRejectedAndTheLockIsReleasedAfterwards() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      assertThrows(
          ReentrantExecutionException.class,
          () ->
              DeviceOp.value(1)
                  .then(x -> DeviceOp.value(x + DeviceOp.value(1).syncOn(stream)))
                  .syncOn(stream));
      CompletableFuture<Integer> nestedAsync =
          DeviceOp.value(1)
              .then(x -> DeviceOp.value(x + DeviceOp.value(1).asyncOn(stream).join()))
              .asyncOn(stream);
      assertInstanceOf(
          ReentrantExecutionException.class,
          assertThrows(Exception.class, nestedAsync::join).getCause());
      assertThrows(
          IllegalStateException.class,
          () ->
              DeviceOp.value(1)
                  .map(
                      x -> {
                        throw new IllegalStateException("thrown inside an op");
                      })
                  .syncOn(stream));
      assertFalse(DeviceOp.isExecuting());
      assertEquals(
          2, DeviceOp.value(2).syncOn(stream), "the thread executes again after the failures");
    }
  }

  /**
   * A launch with too few arguments, a wrong scalar type or a pointer of the wrong element type is
   * rejected with {@link IllegalArgumentException} without a driver call.
   */
  @Test
  default void wrongKernelArgumentsAreRejectedBeforeAnyDriverCall() {
    try (ConformanceSession s = openSession()) {
      DeviceBuffer<Float> floats = s.own(DeviceBuffer.zeros(ElementType.F32, 4).syncOn(s.stream()));
      long calls = s.driver().calls().records().size();
      LaunchConfig one = LaunchConfig.of(1, 1);
      assertThrows(IllegalArgumentException.class, () -> ConformanceKernels.INC.launch(one, 4));
      assertThrows(
          IllegalArgumentException.class, () -> ConformanceKernels.INC.launch(one, 4L, floats));
      assertThrows(
          IllegalArgumentException.class, () -> ConformanceKernels.INC.launch(one, 4, floats));
      assertEquals(calls, s.driver().calls().records().size(), "no driver call was made");
    }
  }

  /**
   * A buffer closed while a gated kernel and copy that use it are still queued is freed only once
   * that work has completed, and the work ran on live memory.
   *
   * @throws InterruptedException if the thread is interrupted while it waits for the free
   */
  @Test
  default void aBufferClosedWhileQueuedWorkUsesItIsFreedOnlyAfterThatWork()
      throws InterruptedException {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 1024).syncOn(stream);
      HostBuffer<Integer> result = s.own(s.device().allocateHost(ElementType.I32, 1024));
      long liveBefore = s.driver().ledger().live(HandleKind.DEVICE_MEMORY);
      long freesBefore = s.driver().calls().count(DriverCall.MEM_FREE_ASYNC);
      CountDownLatch gate = new CountDownLatch(1);
      // The stream waits for the gate, so the kernel and copy after it are still queued.
      CompletableFuture<Void> work =
          DeviceOp.hostCallback(() -> await(gate))
              .andThen(ConformanceKernels.inc(buffer))
              .andThen(buffer.copyTo(result))
              .asyncOn(stream);
      buffer.close();
      assertEquals(
          freesBefore,
          s.driver().calls().count(DriverCall.MEM_FREE_ASYNC),
          "not freed while queued work uses it");
      assertEquals(liveBefore, s.driver().ledger().live(HandleKind.DEVICE_MEMORY));
      gate.countDown();
      work.join();
      assertEquals(1, result.get(1023), "the queued kernel and copy ran on live memory");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (s.driver().ledger().live(HandleKind.DEVICE_MEMORY) != liveBefore - 1
          && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
      assertEquals(
          liveBefore - 1,
          s.driver().ledger().live(HandleKind.DEVICE_MEMORY),
          "freed once the work completed");
    }
  }

  private static void await(CountDownLatch gate) {
    try {
      if (!gate.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never opened the gate");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * An event recorded after two launches on one stream orders a read on another stream after them,
   * is done afterwards, and times the work with a non-negative duration.
   */
  @Test
  default void eventsOrderWorkAcrossStreamsAndTimeIt() {
    try (ConformanceSession s = openSession()) {
      Stream first = s.stream();
      Stream second = s.newStream();
      CudaEvent start = s.own(s.device().newEvent());
      CudaEvent done = s.own(s.device().newEvent());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 128).syncOn(first));
      start
          .record()
          .andThen(ConformanceKernels.inc(counter))
          .andThen(ConformanceKernels.inc(counter))
          .andThen(done.record())
          .syncOn(first);
      int[] seen = done.waitFor().andThen(counter.toIntArray()).syncOn(second);
      assertEquals(2, seen[127]);
      assertTrue(done.isDone());
      assertTrue(done.elapsedMillisSince(start) >= 0f);
    }
  }

  /**
   * A kernel compiled from CUDA C++ at run time runs and computes what its Java reference computes.
   */
  @Test
  default void cudaSourceCompiledAtRunTimeRunsAndMatchesItsReference() {
    try (ConformanceSession s = openSession()) {
      Kernel scale =
          KernelImage.cudaSource(
                  "scale.cu",
                  """
                  extern "C" __global__ void scale(int n, float k, float *x) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) x[i] = x[i] * k;
                  }
                  """)
              .withReference(
                  "scale",
                  call -> {
                    int n = call.i32(0);
                    MemorySegment x = call.memory(2, 4L * n);
                    for (int i = 0; i < n; i++) {
                      x.setAtIndex(
                          ValueLayout.JAVA_FLOAT_UNALIGNED,
                          i,
                          x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i) * call.f32(1));
                    }
                  })
              .kernel(
                  "scale", KernelParam.I32, KernelParam.F32, KernelParam.pointer(ElementType.F32));
      float[] data = {1, 2, 3, 4, 5};
      float[] gpu =
          DeviceBuffer.fromArray(data)
              .then(
                  x ->
                      scale
                          .launch(LaunchConfig.covering(5, 32), 5, 3f, x)
                          .andThen(x.toFloatArray())
                          .zip(x.free(), (a, ignored) -> a))
              .syncOn(s.stream());
      float[] reference = data.clone();
      scale.runReference(LaunchConfig.covering(5, 32), 5, 3f, reference);
      assertArrayEquals(reference, gpu);
      assertArrayEquals(new float[] {3, 6, 9, 12, 15}, gpu);
    }
  }
}
