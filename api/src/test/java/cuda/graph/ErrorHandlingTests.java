// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Errors: the Rust crate's error_handling.rs cases that apply to Java (inventory §5.3: the error
 * types and their messages, a bad device, failed futures that are immediately done and keep their
 * error), with real driver failures provoked through the simulator instead of hand-made error
 * values.
 */
class ErrorHandlingTests {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);

  @Test
  void cudaExceptionIsASealedUncheckedHierarchyOfFinalClasses() {
    assertTrue(CudaException.class.isSealed());
    assertTrue(RuntimeException.class.isAssignableFrom(CudaException.class), "unchecked");
    List<Class<?>> permitted = List.of(CudaException.class.getPermittedSubclasses());
    assertEquals(
        List.of(
            CudaProviderException.class,
            CudaDriverError.class,
            ReentrantExecutionException.class,
            GraphCaptureException.class),
        permitted);
    for (Class<?> c : permitted) {
      assertTrue(Modifier.isFinal(c.getModifiers()), c + " is final");
    }
  }

  @Test
  void anOutOfMemoryAllocationCarriesCodeNameCallAndAdvice() {
    SimulatedDriver simulator = Simulator.builder().deviceMemoryBytes(1 << 20).build();
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      CudaDriverError e =
          assertThrows(
              CudaDriverError.class,
              () -> DeviceBuffer.allocate(ElementType.F32, 1 << 20).syncOn(stream));

      assertEquals(CuResult.OUT_OF_MEMORY, e.code());
      assertEquals("CUDA_ERROR_OUT_OF_MEMORY", e.errorName());
      assertEquals("cuMemAllocAsync", e.call());
      assertFalse(e.isSticky());
      assertNotNull(e.detail());
      assertTrue(e.detail().contains("4194304 bytes requested"), e.detail());
      String message = e.getMessage();
      assertTrue(
          message.startsWith("cuMemAllocAsync failed with CUDA_ERROR_OUT_OF_MEMORY (2)"), message);
      assertTrue(message.contains("4194304 bytes requested"), message);
      assertTrue(message.contains("close buffers you no longer need or use smaller ones"), message);

      // Not sticky: the device goes on working.
      try (DeviceBuffer<Float> small =
          DeviceBuffer.filled(ElementType.F32, 1024, 1f).syncOn(stream)) {
        assertEquals(1f, small.toFloatArray().syncOn(stream)[1023]);
      }
    }
  }

  @Test
  void anInjectedLaunchFailureBecomesACudaDriverErrorAndReleasesWhatTheOpAllocated() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      simulator.faults().failNth(DriverCall.LAUNCH_KERNEL, 1, CuResult.LAUNCH_OUT_OF_RESOURCES);
      DeviceOp<int[]> op =
          DeviceBuffer.fromArray(new int[] {1, 2, 3})
              .then(b -> KernelFixtures.ADD_ONE.launch(ONE, 3, b).andThen(b.toIntArray()));

      CudaDriverError e = assertThrows(CudaDriverError.class, () -> op.syncOn(stream));

      assertEquals(CuResult.LAUNCH_OUT_OF_RESOURCES, e.code());
      assertEquals("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", e.errorName());
      assertEquals("cuLaunchKernel", e.call());
      assertTrue(e.getMessage().contains("use smaller blocks"), e.getMessage());
      assertEquals(1, simulator.faults().fired());
      // The buffer the failed op allocated never reached the caller: it is unreachable, so the
      // cleaner frees it.
      KernelFixtures.awaitTrue(
          () -> {
            System.gc();
            return simulator.ledger().live(HandleKind.DEVICE_MEMORY) == 0;
          },
          java.time.Duration.ofSeconds(10),
          "the cleaner frees the buffer of the failed op");

      // The rule fired once: the same op, built again, now works.
      int[] result =
          DeviceBuffer.fromArray(new int[] {1, 2, 3})
              .then(
                  b ->
                      KernelFixtures.ADD_ONE
                          .launch(ONE, 3, b)
                          .andThen(b.toIntArray())
                          .zip(b.free(), (r, ignored) -> r))
              .syncOn(stream);
      assertArrayEquals(new int[] {2, 3, 4}, result);
    }
  }

  @Test
  void aFailedFutureCompletesExceptionallyWithTheDriverError() throws Exception {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      simulator.faults().failNth(DriverCall.MEMSET_D32_ASYNC, 1, CuResult.INVALID_VALUE);

      CompletableFuture<DeviceBuffer<Integer>> future =
          DeviceBuffer.filled(ElementType.I32, 8, 5).asyncOn(stream);

      ExecutionException e =
          assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
      CudaDriverError cause = assertInstanceOf(CudaDriverError.class, e.getCause());
      assertEquals(CuResult.INVALID_VALUE, cause.code());
      assertEquals("cuMemsetD32Async", cause.call());
      assertTrue(future.isCompletedExceptionally());
      CompletionException joined = assertThrows(CompletionException.class, future::join);
      assertSame(cause, joined.getCause());
      // The memset failed after the allocation: that buffer never reached the caller, so the
      // cleaner frees it.
      KernelFixtures.awaitTrue(
          () -> {
            System.gc();
            return simulator.ledger().live(HandleKind.DEVICE_MEMORY) == 0;
          },
          java.time.Duration.ofSeconds(10),
          "the cleaner frees the buffer of the failed op");
    }
  }

  @Test
  @SuppressWarnings("try") // the stream is closed early on purpose: the op meets a closed stream
  void aFutureThatFailsBeforeSubmittingIsAlreadyDoneAndKeepsItsExactError() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      stream.close();
      CompletableFuture<Integer> future = DeviceOp.value(1).asyncOn(stream);

      assertTrue(future.isDone(), "failed at submission, so done at once");
      assertTrue(future.isCompletedExceptionally());
      CompletionException e = assertThrows(CompletionException.class, future::join);
      assertInstanceOf(IllegalStateException.class, e.getCause());
    }
  }

  @Test
  void anExceptionFromTheOpsOwnCodeReachesTheCallerUnchanged() throws Exception {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      UnsupportedOperationException mine = new UnsupportedOperationException("mine");
      assertSame(
          mine,
          assertThrows(
              UnsupportedOperationException.class,
              () ->
                  DeviceOp.value(1)
                      .map(
                          x -> {
                            throw mine;
                          })
                      .syncOn(stream)));

      CompletableFuture<Object> future =
          DeviceOp.value(1)
              .map(
                  x -> {
                    throw mine;
                  })
              .asyncOn(stream);
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
      assertSame(mine, e.getCause());
    }
  }

  @Test
  void aKernelFaultIsReportedByTheSynchronizeAsAStickyIllegalAddress() {
    SimulatedDriver simulator = Simulator.create();
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceBuffer<Integer> small = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);

      CudaDriverError e =
          assertThrows(
              CudaDriverError.class,
              () -> KernelFixtures.OUT_OF_BOUNDS.launch(ONE, small).syncOn(stream));

      assertEquals(CuResult.ILLEGAL_ADDRESS, e.code());
      assertEquals("CUDA_ERROR_ILLEGAL_ADDRESS", e.errorName());
      assertEquals("cuStreamSynchronize", e.call());
      assertTrue(e.isSticky());
      assertTrue(e.getMessage().contains("restart the process"), e.getMessage());
      // Sticky: every later call on the device fails with the same code.
      CudaDriverError later =
          assertThrows(CudaDriverError.class, () -> small.fill(1).syncOn(stream));
      assertEquals(CuResult.ILLEGAL_ADDRESS, later.code());
    }
  }

  @Test
  void aStreamFailureIsReportedInPreferenceToTheOpsOwnFailure() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceBuffer<Integer> small = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
      IllegalStateException hostFailure = new IllegalStateException("the op's own failure");

      CudaDriverError e =
          assertThrows(
              CudaDriverError.class,
              () ->
                  KernelFixtures.OUT_OF_BOUNDS
                      .launch(ONE, small)
                      .map(
                          ignored -> {
                            throw hostFailure;
                          })
                      .syncOn(stream));

      assertEquals(CuResult.ILLEGAL_ADDRESS, e.code());
      assertTrue(
          Arrays.asList(e.getSuppressed()).contains(hostFailure),
          "the op's failure is kept as suppressed");
    }
  }

  @Test
  void aKernelFaultFailsThePendingFuture() throws Exception {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceBuffer<Integer> small = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);

      CompletableFuture<Void> future =
          KernelFixtures.OUT_OF_BOUNDS.launch(ONE, small).asyncOn(stream);

      ExecutionException e =
          assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
      CudaDriverError cause = assertInstanceOf(CudaDriverError.class, e.getCause());
      assertEquals(CuResult.ILLEGAL_ADDRESS, cause.code());
      assertTrue(cause.isSticky());
    }
  }

  @Test
  void anUnknownKernelNameFailsWithNotFoundAndAdvice() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel missing = KernelFixtures.IMAGE.kernel("noSuchKernel");

      CudaDriverError e =
          assertThrows(CudaDriverError.class, () -> missing.launch(ONE).syncOn(stream));

      assertEquals(CuResult.NOT_FOUND, e.code());
      assertEquals("cuModuleGetFunction", e.call());
      assertTrue(e.getMessage().contains("noSuchKernel"), e.getMessage());
      assertTrue(e.getMessage().contains("extern \"C\""), e.getMessage());
    }
  }

  @Test
  void anImageThatIsNotPtxFailsToLoadWithTheLoadersLog() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      Kernel broken = KernelImage.ptx("this is not PTX").kernel("k");

      CudaDriverError e =
          assertThrows(CudaDriverError.class, () -> broken.launch(ONE).syncOn(stream));

      assertEquals(CuResult.INVALID_PTX, e.code());
      assertEquals("cuModuleLoadData", e.call());
      assertTrue(e.getMessage().contains(".version and .target"), e.getMessage());
      assertTrue(
          e.getMessage().contains("check that it was built for this GPU's architecture"),
          e.getMessage());
    }
  }

  @Test
  void anInvalidDeviceOrdinalSaysHowManyDevicesThereAre() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> platform.device(9999));
      assertTrue(e.getMessage().contains("no device 9999"), e.getMessage());
      assertTrue(e.getMessage().contains("sees 1 device(s)"), e.getMessage());
    }
  }
}
