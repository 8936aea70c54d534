// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.DriverCall;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A kernel's static shared memory ({@code __shared__} variables) counts beside a launch's dynamic
 * shared memory, as the driver counts it: the library opts the kernel in once the two together pass
 * the device's default for a block (48 KiB), and refuses before the driver a launch whose two
 * amounts pass the opt-in limit, eager, captured or as a replaced node. The static amount is read
 * from the driver once per function and device, and only for launches that ask for dynamic shared
 * memory.
 */
class StaticSharedMemoryTests extends InstrumentedPlatformFixture {

  private static final int PER_BLOCK = 49152;
  private static final int OPTIN = 232448;
  private static final int STATIC = 640;
  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);

  /** {@code staged(int *p)}: {@code p[0] += 1}, with 640 bytes of static shared memory. */
  private static final KernelImage IMAGE =
      KernelImage.ptx(
              """
              .version 9.0
              .target sm_90
              .address_size 64
              .visible .entry staged(.param .u64 p)
              {
              \t.shared .align 4 .b8 s[640];
              \tret;
              }
              """)
          .withReference("staged", StaticSharedMemoryTests::increment);

  private static final Kernel STAGED = IMAGE.kernel("staged", KernelParam.pointer(ElementType.I32));

  private static void increment(KernelCall call) {
    MemorySegment p = call.memory(0, 4);
    p.set(JAVA_INT_UNALIGNED, 0, p.get(JAVA_INT_UNALIGNED, 0) + 1);
  }

  private DeviceBuffer<Integer> counter() {
    return DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
  }

  private long calls(DriverCall call) {
    return simulator.calls().count(call);
  }

  private static void assertNamesBothAmountsAndTheLimit(IllegalArgumentException e, int dynamic) {
    for (String part :
        new String[] {
          "staged",
          dynamic + " bytes of dynamic shared memory",
          "kernel's " + STATIC + " bytes of static shared memory",
          (dynamic + STATIC) + " bytes, over the " + OPTIN,
          "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
          "ask for at most " + (OPTIN - STATIC)
        }) {
      assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
    }
  }

  @Test
  void exactly48KiBOfDynamicBesideStaticSharedMemoryOptsInOnceAndRuns() {
    try (DeviceBuffer<Integer> counter = counter()) {
      for (int i = 0; i < 3; i++) {
        STAGED.launch(ONE.withSharedMemory(PER_BLOCK), counter).syncOn(stream);
      }
      STAGED.launch(ONE.withSharedMemory(PER_BLOCK - STATIC), counter).syncOn(stream);
      assertEquals(1, calls(DriverCall.FUNC_SET_ATTRIBUTE), "one opt-in, for 48 KiB");
      assertEquals(1, calls(DriverCall.FUNC_GET_ATTRIBUTE), "the static size, read once");
      assertArrayEquals(new int[] {4}, counter.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aLaunchThatFitsBesideTheStaticSharedMemoryWithoutOptInMakesNoOptIn() {
    try (DeviceBuffer<Integer> counter = counter()) {
      STAGED.launch(ONE.withSharedMemory(PER_BLOCK - STATIC), counter).syncOn(stream);
      STAGED.launch(ONE.withSharedMemory(1024), counter).syncOn(stream);
      assertEquals(0, calls(DriverCall.FUNC_SET_ATTRIBUTE));
      assertArrayEquals(new int[] {2}, counter.toIntArray().syncOn(stream));
    }
  }

  @Test
  void launchesWithoutDynamicSharedMemoryNeverAskForTheStaticSize() {
    try (DeviceBuffer<Integer> counter = counter()) {
      for (int i = 0; i < 3; i++) {
        STAGED.launch(ONE, counter).syncOn(stream);
      }
      assertEquals(0, calls(DriverCall.FUNC_GET_ATTRIBUTE));
      assertEquals(0, calls(DriverCall.FUNC_SET_ATTRIBUTE));
    }
  }

  @Test
  void theMostDynamicSharedMemoryBesideTheStaticRunsAndOneByteMoreIsRefusedBeforeTheDriver() {
    try (DeviceBuffer<Integer> counter = counter()) {
      // Not read yet when the launch is built: the refusal comes when it executes.
      long launches = calls(DriverCall.LAUNCH_KERNEL);
      IllegalArgumentException whenRun =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  STAGED.launch(ONE.withSharedMemory(OPTIN - STATIC + 1), counter).syncOn(stream));
      assertNamesBothAmountsAndTheLimit(whenRun, OPTIN - STATIC + 1);
      assertEquals(0, calls(DriverCall.FUNC_SET_ATTRIBUTE), "no opt-in for a refused amount");
      assertEquals(launches, calls(DriverCall.LAUNCH_KERNEL));

      STAGED.launch(ONE.withSharedMemory(OPTIN - STATIC), counter).syncOn(stream);
      assertEquals(1, calls(DriverCall.FUNC_SET_ATTRIBUTE));

      // Read now: the refusal comes as the launch is built.
      IllegalArgumentException whenBuilt =
          assertThrows(
              IllegalArgumentException.class,
              () -> STAGED.launch(ONE.withSharedMemory(OPTIN - STATIC + 1), counter));
      assertNamesBothAmountsAndTheLimit(whenBuilt, OPTIN - STATIC + 1);
      assertEquals(launches + 1, calls(DriverCall.LAUNCH_KERNEL));
      assertEquals(1, calls(DriverCall.FUNC_GET_ATTRIBUTE));
      assertArrayEquals(new int[] {1}, counter.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aCapturedLaunchIsCheckedBesideTheStaticSharedMemory() {
    try (DeviceBuffer<Integer> counter = counter()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  CudaGraph.capture(
                          stream, STAGED.launch(ONE.withSharedMemory(OPTIN - STATIC + 1), counter))
                      .close());
      assertNamesBothAmountsAndTheLimit(e, OPTIN - STATIC + 1);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, STAGED.launch(ONE.withSharedMemory(PER_BLOCK), counter))) {
        graph.launch().syncOn(stream);
        graph.launch().syncOn(stream);
      }
      assertEquals(1, calls(DriverCall.FUNC_SET_ATTRIBUTE), "opted in before the capture");
      assertArrayEquals(new int[] {2}, counter.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aReplacementNodeIsCheckedAndOptedInBesideTheStaticSharedMemory() {
    try (DeviceBuffer<Integer> counter = counter()) {
      STAGED.load(platform.defaultDevice());
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream, scope -> node.set(scope.recordNode(STAGED.launch(ONE, counter))))) {
        RecordedNode recorded = Objects.requireNonNull(node.get());
        long setParams = calls(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS);
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () ->
                    graph.replaceNode(
                        recorded,
                        STAGED.launch(ONE.withSharedMemory(OPTIN - STATIC + 1), counter)));
        assertNamesBothAmountsAndTheLimit(e, OPTIN - STATIC + 1);
        assertEquals(setParams, calls(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS));

        graph.replaceNode(recorded, STAGED.launch(ONE.withSharedMemory(PER_BLOCK), counter));
        assertEquals(1, calls(DriverCall.FUNC_SET_ATTRIBUTE), "opted in for the replacement");
        graph.launch().syncOn(stream);
      }
      assertArrayEquals(new int[] {1}, counter.toIntArray().syncOn(stream));
    }
  }

  @Test
  void twoDeclarationsOfOneKernelShareItsOptIn() {
    Kernel again = IMAGE.kernel("staged", KernelParam.pointer(ElementType.I32));
    try (DeviceBuffer<Integer> counter = counter()) {
      STAGED.launch(ONE.withSharedMemory(64 * 1024), counter).syncOn(stream);
      again.launch(ONE.withSharedMemory(64 * 1024), counter).syncOn(stream);
      assertEquals(1, calls(DriverCall.FUNC_SET_ATTRIBUTE), "the driver's function opted in once");
      assertEquals(1, calls(DriverCall.FUNC_GET_ATTRIBUTE));
      assertArrayEquals(new int[] {2}, counter.toIntArray().syncOn(stream));
    }
  }

  @Test
  void whereTheDriverCannotTellTheStaticSizeTheDynamicAmountCountsAlone() {
    // The simulator does not read a cubin's static shared memory: it answers NOT_SUPPORTED.
    Kernel saxpy =
        KernelImage.cubin(saxpyCubin())
            .withReference("saxpy", call -> {})
            .kernel(
                "saxpy",
                KernelParam.I32,
                KernelParam.F32,
                KernelParam.pointer(ElementType.F32),
                KernelParam.pointer(ElementType.F32));
    try (DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, 1).syncOn(stream)) {
      saxpy.launch(ONE.withSharedMemory(PER_BLOCK), 1, 2f, x, x).syncOn(stream);
      assertEquals(0, calls(DriverCall.FUNC_SET_ATTRIBUTE));
      saxpy.launch(ONE.withSharedMemory(OPTIN), 1, 2f, x, x).syncOn(stream);
      assertEquals(1, calls(DriverCall.FUNC_SET_ATTRIBUTE));
      assertEquals(1, calls(DriverCall.FUNC_GET_ATTRIBUTE), "asked once, answered NOT_SUPPORTED");
    }
  }

  /** {@return nvcc's cubin of examples-java/src/main/cuda/saxpy.cu, for sm_90} */
  private static byte[] saxpyCubin() {
    try (InputStream in = StaticSharedMemoryTests.class.getResourceAsStream("saxpy.cubin")) {
      return Objects.requireNonNull(in, "saxpy.cubin").readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
