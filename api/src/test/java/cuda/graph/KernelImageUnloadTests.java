// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelImage#unload} (issue 36, item 6): a library that makes images of its own unloads
 * each one once nothing can run its kernels; an execution or a graph that launched one keeps its
 * module until it is done or destroyed, a later launch loads the image again, and the platform's
 * close unloads what is left, each module once. And {@link Kernel#describedAs}: a kernel a library
 * launches is named by its description in launches and refusals, never by its name.
 */
class KernelImageUnloadTests extends InstrumentedPlatformFixture {

  private static final String PTX =
      """
      .version 9.0
      .target sm_90
      .address_size 64
      .visible .entry inc(.param .u32 n, .param .u64 data) { ret; }
      """;

  private static final LaunchConfig FOUR = LaunchConfig.of(1, 4);

  private DeviceBuffer<Integer> counter;

  @BeforeEach
  void allocate() {
    counter = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
  }

  @AfterEach
  void noViolations() {
    counter.close();
    assertTrue(simulator.violations().isEmpty(), () -> simulator.violations().toString());
  }

  /** {@return a new image, so a module of its own: {@code inc} adds one to n ints} */
  private static KernelImage image() {
    return KernelImage.ptx(PTX)
        .withReference(
            "inc",
            call -> {
              int n = call.i32(0);
              MemorySegment data = call.memory(1, 4L * n);
              for (int i = 0; i < n; i++) {
                data.setAtIndex(JAVA_INT_UNALIGNED, i, data.getAtIndex(JAVA_INT_UNALIGNED, i) + 1);
              }
            });
  }

  private static Kernel inc(KernelImage image) {
    return image.kernel("inc", KernelParam.I32, KernelParam.pointer(ElementType.I32));
  }

  private long modules() {
    return simulator.ledger().live(HandleKind.MODULE);
  }

  private long calls(DriverCall call) {
    return simulator.calls().count(call);
  }

  private int[] counts() {
    return counter.toIntArray().syncOn(stream);
  }

  @Test
  void anImageWhoseLaunchesAreDoneIsUnloadedAtOnce() {
    KernelImage image = image();
    inc(image).launch(FOUR, 4, counter).syncOn(stream);
    assertEquals(1, modules(), "loaded by its first launch");

    image.unload(platform.defaultDevice());

    assertEquals(0, modules(), simulator.ledger().describeLive()::toString);
    assertEquals(1, calls(DriverCall.MODULE_UNLOAD));
    assertArrayEquals(new int[] {1, 1, 1, 1}, counts());
  }

  @Test
  void aGraphThatCapturedALaunchKeepsTheModuleUntilTheGraphIsClosed() {
    KernelImage image = image();
    Kernel inc = inc(image);
    inc.load(platform.defaultDevice());
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(stream, inc.launch(FOUR, 4, counter))) {
      image.unload(platform.defaultDevice());
      assertEquals(1, modules(), "the graph can still replay the kernel");

      graph.launch().syncOn(stream);
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {2, 2, 2, 2}, counts());
      assertEquals(0, calls(DriverCall.MODULE_UNLOAD));
    }
    assertEquals(0, modules(), "unloaded with the last graph that could run it");
    assertEquals(1, calls(DriverCall.MODULE_UNLOAD));
  }

  @Test
  void aLaunchAfterTheUnloadLoadsTheImageAgain() {
    KernelImage image = image();
    Kernel inc = inc(image);
    inc.launch(FOUR, 4, counter).syncOn(stream);
    image.unload(platform.defaultDevice());
    assertEquals(0, modules());

    inc.launch(FOUR, 4, counter).syncOn(stream);

    assertEquals(1, modules(), "loaded again");
    assertEquals(2, calls(DriverCall.MODULE_LOAD_DATA));
    assertArrayEquals(new int[] {2, 2, 2, 2}, counts());
  }

  @Test
  void aReplacementLaunchMadeAfterTheUnloadRunsFromTheImageLoadedAgain() {
    KernelImage image = image();
    Kernel inc = inc(image);
    inc.load(platform.defaultDevice());
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (DeviceBuffer<Integer> other = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        CudaGraph<@Nullable Void> graph =
            CudaGraph.scope(stream, s -> node.set(s.recordNode(inc.launch(FOUR, 4, counter))))) {
      image.unload(platform.defaultDevice());

      graph.replaceNode(node.get(), inc.launch(FOUR, 4, other));
      graph.launch().syncOn(stream);

      assertArrayEquals(new int[] {1, 1, 1, 1}, other.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {0, 0, 0, 0}, counts());
    }
    assertEquals(1, modules(), "the image loaded again, held until the platform closes");
    assertEquals(2, calls(DriverCall.MODULE_LOAD_DATA));
    assertEquals(1, calls(DriverCall.MODULE_UNLOAD), "the first module, once nothing ran it");
  }

  @Test
  void unloadingWhereTheImageIsNotLoadedDoesNothingAndTheCloseUnloadsEachModuleOnce() {
    KernelImage image = image();
    image.unload(platform.defaultDevice());
    assertEquals(0, calls(DriverCall.MODULE_UNLOAD));

    inc(image).launch(FOUR, 4, counter).syncOn(stream);
    image.unload(platform.defaultDevice());
    image.unload(platform.defaultDevice());
    assertEquals(1, calls(DriverCall.MODULE_UNLOAD));

    inc(image).launch(FOUR, 4, counter).syncOn(stream);
    counter.close();
    stream.close();
    platform.close();
    assertEquals(2, calls(DriverCall.MODULE_UNLOAD), "the second module, by the close");
    image.unload(platform.defaultDevice());
    assertEquals(2, calls(DriverCall.MODULE_UNLOAD), "nothing after the close");
  }

  @Test
  void aDescribedKernelIsNamedByItsDescriptionInItsLaunchesAndInAReplacementsRefusal() {
    KernelImage image = image();
    Kernel first = inc(image).describedAs("the first product");
    Kernel second = inc(image).describedAs("the second product");
    first.load(platform.defaultDevice());
    assertEquals("Kernel[the first product]", first.toString());
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, s -> node.set(s.recordNode(first.launch(FOUR, 4, counter))))) {
      GraphNode<@Nullable Void> replacement = second.launch(FOUR, 4, counter);
      assertTrue(replacement.toString().contains("the second product"), replacement::toString);

      String refused =
          assertThrows(
                  IllegalArgumentException.class, () -> graph.replaceNode(node.get(), replacement))
              .getMessage();

      assertTrue(refused.contains("cannot replace"), refused);
      assertTrue(refused.contains("a launch of the first product"), refused);
      assertTrue(refused.contains("a launch of the second product"), refused);
      assertFalse(refused.contains("inc("), () -> "names the kernel: " + refused);
    }
  }

  @Test
  void aDescriptionThatIsBlankOrMoreThanOneLineIsRefused() {
    Kernel inc = inc(image());
    for (String bad : new String[] {" ", "two\nlines"}) {
      String message =
          assertThrows(IllegalArgumentException.class, () -> inc.describedAs(bad)).getMessage();
      assertTrue(message.startsWith("Kernel.describedAs: "), message);
      assertTrue(message.contains("describe the kernel in one line"), message);
    }
  }
}
