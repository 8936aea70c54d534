// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code asyncOn} of an op that reads into a Java array returns before the GPU work has run, as its
 * Javadoc promises: a read in tail position (the op itself, the end of a {@code then} chain, under
 * {@code map}, the second part of a {@code zip}) copies into staging and is converted when the copy
 * is seen complete. A host callback holds the stream until the test has looked, and a helper opens
 * it after a few seconds, so a blocking {@code asyncOn} returns late instead of never.
 */
class NonBlockingReadTests {

  private static final float[] DATA = {1, 2, 3, 4};

  private InstrumentedDriver simulator;
  private CudaPlatform platform;
  private Stream stream;
  private DeviceBuffer<Float> buffer;

  @BeforeEach
  void openPlatform() {
    simulator = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
    buffer = DeviceBuffer.fromArray(DATA).syncOn(stream);
  }

  @AfterEach
  void closePlatform() {
    buffer.close();
    stream.close();
    platform.close();
    assertEquals(
        Map.of(),
        simulator.ledger().liveCounts(),
        () -> String.join("\n", simulator.ledger().describeLive()));
  }

  /** Submits {@code read} behind a held stream; {@return its future, checked not to block} */
  private <T> CompletableFuture<T> submitHeld(Function<GraphNode<Void>, DeviceOp<T>> read)
      throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                Thread.sleep(3000); // only a blocking asyncOn needs this
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              gate.countDown();
            });

    CompletableFuture<T> future = read.apply(KernelFixtures.hold(gate)).asyncOn(stream);

    assertEquals(1, gate.getCount(), "asyncOn returned while the stream was still held");
    assertFalse(future.isDone(), "the read has not run");
    gate.countDown();
    return future;
  }

  @Test
  void asyncOnOfAReadReturnsAtOnceAndTheFutureHoldsTheData() throws Exception {
    CompletableFuture<float[]> future = submitHeld(held -> held.andThen(buffer.toFloatArray()));

    assertArrayEquals(DATA, future.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aMapAfterAReadRunsOnceTheCopyIsComplete() throws Exception {
    CompletableFuture<Float> future =
        submitHeld(
            held -> held.andThen(buffer.toFloatArray()).map(a -> a[0] + a[3]).map(sum -> sum * 10));

    assertEquals(50f, future.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aReadAtTheEndOfAThenChainSeesTheWorkBeforeIt() throws Exception {
    CompletableFuture<float[]> future =
        submitHeld(held -> held.andThen(buffer.fill(9f)).then(ignored -> buffer.toFloatArray()));

    assertArrayEquals(new float[] {9, 9, 9, 9}, future.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aReadAsTheSecondPartOfAZipIsCombinedOnceTheCopyIsComplete() throws Exception {
    CompletableFuture<String> future =
        submitHeld(
            held ->
                held.andThen(DeviceOp.value("sum"))
                    .zip(buffer.toFloatArray(), (name, a) -> name + "=" + (a[0] + a[1])));

    assertEquals("sum=3.0", future.get(10, TimeUnit.SECONDS));
  }

  @Test
  void theStagingMemoryOfADeferredReadReturnsToThePool() throws Exception {
    buffer.toFloatArray().syncOn(stream); // one staging block, pooled
    long pinned = simulator.ledger().live(HandleKind.HOST_MEMORY);

    for (int i = 0; i < 20; i++) {
      assertArrayEquals(DATA, buffer.toFloatArray().asyncOn(stream).get(10, TimeUnit.SECONDS));
    }

    assertEquals(
        pinned,
        simulator.ledger().live(HandleKind.HOST_MEMORY),
        "the staging block goes back to the pool before the future completes, to be reused");
  }

  @Test
  void aReadWhoseResultBuildsMoreDeviceWorkStillSeesTheData() throws Exception {
    // The read is not in tail position: then's function needs the array, so it synchronizes.
    CompletableFuture<float[]> future =
        buffer
            .toFloatArray()
            .then(a -> DeviceBuffer.fromArray(new float[] {a[3], a[2], a[1], a[0]}))
            .then(reversed -> reversed.toFloatArray().zip(reversed.free(), (r, ignored) -> r))
            .asyncOn(stream);

    assertArrayEquals(new float[] {4, 3, 2, 1}, future.get(10, TimeUnit.SECONDS));
  }
}
