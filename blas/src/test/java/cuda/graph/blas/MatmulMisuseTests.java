// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad input fails when the description or the node is made, with a message that names the call,
 * what is wrong and what to do; no driver call is made for it and nothing is left behind. The
 * checks are the API's, shared by every provider.
 */
class MatmulMisuseTests {

  private InstrumentedDriver driver;
  private CudaPlatform platform;
  private Stream stream;
  private Blas blas;
  private Workspace workspace;
  private DeviceBuffer<Float> a;
  private DeviceBuffer<Float> b;
  private DeviceBuffer<Float> d;
  private DeviceBuffer<Short> halves;

  @BeforeEach
  void open() {
    driver = new InstrumentedDriver(Simulator.builder().devices(2).build());
    platform = CudaPlatform.forDriver(driver, "simulator");
    stream = platform.device(0).newStream();
    blas = Blas.open(platform.device(0));
    workspace = Workspace.allocate(1 << 16).syncOn(stream);
    a = DeviceBuffer.zeros(ElementType.F32, 4 * 3).syncOn(stream);
    b = DeviceBuffer.zeros(ElementType.F32, 3 * 5).syncOn(stream);
    d = DeviceBuffer.zeros(ElementType.F32, 4 * 5).syncOn(stream);
    halves = DeviceBuffer.zeros(ElementType.F16, 64).syncOn(stream);
  }

  @AfterEach
  void close() {
    for (AutoCloseable c : new AutoCloseable[] {halves, d, b, a, workspace, blas, stream}) {
      try {
        c.close();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
    platform.close();
    assertEquals(Map.of(), nonZero(driver.ledger().liveCounts()), "nothing outlives the platform");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }

  private static Map<HandleKind, Long> nonZero(Map<HandleKind, Long> counts) {
    var copy = new java.util.EnumMap<HandleKind, Long>(HandleKind.class);
    counts.forEach(
        (kind, n) -> {
          if (n != 0) {
            copy.put(kind, n);
          }
        });
    return copy;
  }

  private Matmul good() {
    return Matmul.of(
        MatrixView.rowMajor(a, 4, 3), MatrixView.rowMajor(b, 3, 5), MatrixView.rowMajor(d, 4, 5));
  }

  /**
   * Runs {@code bad}, expecting {@code type}; checks no driver call was made and nothing leaked.
   */
  private String refused(Class<? extends RuntimeException> type, Executable bad) {
    stream.synchronize();
    Map<HandleKind, Long> live = driver.ledger().liveCounts();
    String thread = Thread.currentThread().getName();
    long before = callsOn(thread);
    String message = assertThrows(type, bad).getMessage();
    assertEquals(before, callsOn(thread), () -> "a driver call was made for: " + message);
    assertEquals(live, driver.ledger().liveCounts(), "nothing is left behind");
    return message;
  }

  private long callsOn(String thread) {
    return driver.calls().records().stream().filter(c -> c.thread().equals(thread)).count();
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), () -> "'" + part + "' missing from: " + message);
    }
  }

  private String refusedArgument(Supplier<?> bad) {
    return refused(IllegalArgumentException.class, bad::get);
  }

  @Test
  void shapesThatDoNotFitAreRefusedWithBothShapes() {
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 4, 3),
                    MatrixView.rowMajor(b, 5, 3),
                    MatrixView.rowMajor(d, 4, 3))),
        "Matmul: op(A) is 4 x 3 but op(B) is 5 x 3",
        "the columns of op(A) equal the rows of op(B) (k)");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 3, 4),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(d, 4, 5))),
        "op(A) is 3 x 4 but D is 4 x 5",
        "mark A transposed()?");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 4, 3),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(d, 5, 4))),
        "Matmul: op(A) is 4 x 3 but D is 5 x 4");
  }

  @Test
  void typesThatDoNotMixAreRefused() {
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 4, 3),
                    MatrixView.rowMajor(halves, 3, 5),
                    MatrixView.rowMajor(d, 4, 5))),
        "A holds f32 but B holds f16; A and B hold one type");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 4, 3),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(halves, 4, 5))),
        "D holds f16 but the inputs f32; D holds f32 or the inputs' type");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                        MatrixView.rowMajor(halves, 4, 3),
                        MatrixView.rowMajor(halves.slice(12, 15), 3, 5),
                        MatrixView.rowMajor(d, 4, 5))
                    .withCompute(Compute.TF32)),
        "TF32 compute rounds f32 inputs",
        "use Compute.F32");
    try (DeviceBuffer<Integer> ints = DeviceBuffer.zeros(ElementType.I32, 12).syncOn(stream)) {
      assertMentions(
          refusedArgument(() -> MatrixView.rowMajor(ints, 4, 3)),
          "holds i32; matrix products take f32, f16 or bf16 matrices");
    }
  }

  @Test
  void layoutsThatCannotBeDescribedAreRefused() {
    assertMentions(
        refusedArgument(() -> MatrixView.rowMajor(a, 4, 3).withLeadingDimension(2)),
        "leading dimension 2 is less than the columns (3)");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.columnMajor(a, 4, 3),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(d, 4, 5))),
        "A is COLUMN_MAJOR but D is ROW_MAJOR",
        "mark it transposed() instead");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 4, 3),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(d, 5, 4).transposed())),
        "D is marked transposed");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 2, 3).batched(2, 6),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(d, 2, 5).batched(2, 5))),
        "D's batch stride 5 is less than the 10 elements");
    assertMentions(
        refusedArgument(
            () ->
                Matmul.of(
                    MatrixView.rowMajor(a, 2, 3).batched(2, 6),
                    MatrixView.rowMajor(b, 3, 5),
                    MatrixView.rowMajor(d, 2, 5).batched(1, 0))),
        "A is a batch of 2 but D of 1");
  }

  @Test
  void aBufferTooSmallForItsViewIsRefused() {
    assertMentions(
        refusedArgument(() -> MatrixView.rowMajor(a, 4, 4)),
        "the view spans elements 0 to 15 but",
        "holds 12; use a larger buffer");
    assertMentions(
        refusedArgument(() -> MatrixView.rowMajor(a, 2, 3).batched(3, 6)),
        "the view spans elements 0 to 17");
  }

  @Test
  void anEpilogueWithoutItsBiasOrABiasWithoutItsEpilogueIsRefused() {
    assertMentions(
        refusedArgument(() -> good().withEpilogue(Epilogue.BIAS_GELU)),
        "epilogue BIAS_GELU adds a bias vector of 5 elements (one per column of the row-major D),"
            + " but none was given",
        "withEpilogue(Epilogue.BIAS_GELU, bias)");
    assertMentions(
        refusedArgument(() -> good().withEpilogue(Epilogue.RELU, b)),
        "a bias was given but epilogue RELU adds none");
    assertMentions(
        refusedArgument(() -> good().withEpilogue(Epilogue.BIAS, b.slice(0, 3))),
        "the bias holds 3 elements but the row-major D has 5 columns; it needs one element per"
            + " column of D");
    assertMentions(
        refusedArgument(() -> good().withEpilogue(Epilogue.BIAS, halves)),
        "the bias holds f16 but D holds f32");
  }

  @Test
  void aBiasIsCheckedAgainstTheContiguousDimensionOfD() {
    // good()'s D is row-major 4 x 5: four elements cover its rows but it needs one per column.
    assertMentions(
        refusedArgument(() -> good().withEpilogue(Epilogue.BIAS, b.slice(0, 4))),
        "the bias holds 4 elements but the row-major D has 5 columns; it needs one element per"
            + " column of D");
    // The same memory described column-major, D 5 x 4: one per row.
    Matmul columnMajor =
        Matmul.of(
            MatrixView.columnMajor(b, 5, 3),
            MatrixView.columnMajor(a, 3, 4),
            MatrixView.columnMajor(d, 5, 4));
    assertMentions(
        refusedArgument(() -> columnMajor.withEpilogue(Epilogue.BIAS, b.slice(0, 4))),
        "the bias holds 4 elements but the column-major D has 5 rows; it needs one element per"
            + " row of D");
  }

  @Test
  void aBiasNotSixteenByteAlignedIsRefusedWhenTheProductIsMadeOnEveryProvider() {
    // On a GPU, cuBLASLt's heuristic plans such a product and its epilogue then faults the device
    // (cudaErrorMisalignedAddress, sticky): refused before anything runs, here as there.
    DeviceBuffer<Float> wide = DeviceBuffer.zeros(ElementType.F32, 16).syncOn(stream);
    try {
      assertEquals(256, wide.alignment());
      assertEquals(4, wide.slice(1, 5).alignment());
      assertMentions(
          refusedArgument(() -> good().withEpilogue(Epilogue.BIAS_GELU, wide.slice(1, 5))),
          "Matmul: the bias",
          "aligned to 4 bytes",
          "16-byte aligned");
      assertMentions(
          refusedArgument(() -> good().withEpilogue(Epilogue.BIAS, wide.slice(2, 5))),
          "aligned to 8 bytes");
      // A slice at a multiple of 16 bytes is a bias like any other.
      good().withEpilogue(Epilogue.BIAS, wide.slice(4, 5));
    } finally {
      wide.close();
    }
  }

  @Test
  void anOutputOverlappingAnInputIsRefused() {
    try (DeviceBuffer<Float> shared = DeviceBuffer.zeros(ElementType.F32, 40).syncOn(stream)) {
      MatrixView x = MatrixView.rowMajor(shared, 4, 4);
      assertMentions(
          refusedArgument(() -> Matmul.of(x, x, x.atOffset(10))),
          "Matmul: D (elements 10 to 25 of its buffer) overlaps A",
          "write D elsewhere");
      assertMentions(
          refusedArgument(
              () -> Matmul.of(x, x.atOffset(24), MatrixView.rowMajor(shared, 4, 4).atOffset(20))),
          "overlaps B");
      assertMentions(
          refusedArgument(() -> Matmul.of(x, x, x.atOffset(16)).plus(1f, x.atOffset(17))),
          "overlaps C",
          "accumulating(beta)");
      assertMentions(
          refusedArgument(
              () -> Matmul.of(x, x, x.atOffset(16)).withEpilogue(Epilogue.BIAS, shared)),
          "overlaps the bias");
      // D itself as C is the in-place accumulation cuBLASLt supports, and operands that only
      // share a buffer are fine.
      Matmul.of(x, x, x.atOffset(16)).accumulating(1f);
    }
  }

  @Test
  void scalarsThatAreNotFiniteOrABetaWithoutCAreRefused() {
    assertMentions(refusedArgument(() -> good().scaledBy(Float.NaN)), "alpha NaN");
    assertMentions(
        refusedArgument(
            () ->
                new Matmul(
                    good().a(),
                    good().b(),
                    null,
                    good().d(),
                    1f,
                    1f,
                    Epilogue.NONE,
                    null,
                    Compute.F32)),
        "beta is 1.0 but there is no C; give C with plus(beta, c)");
  }

  @Test
  void closedBuffersAreRefusedWhenTheViewTheProductOrTheNodeIsMade() {
    Matmul mm = good();
    DeviceBuffer<Float> gone = DeviceBuffer.zeros(ElementType.F32, 12).syncOn(stream);
    gone.close();
    assertMentions(
        refused(IllegalStateException.class, () -> MatrixView.rowMajor(gone, 4, 3)),
        "MatrixView: ",
        "is closed");
    MatrixView view;
    DeviceBuffer<Float> closing = DeviceBuffer.zeros(ElementType.F32, 12).syncOn(stream);
    view = MatrixView.rowMajor(closing, 4, 3);
    closing.close();
    assertMentions(
        refused(IllegalStateException.class, () -> Matmul.of(view, mm.b(), mm.d())),
        "Matmul: A's buffer");
    a.close();
    assertMentions(
        refused(IllegalStateException.class, () -> blas.matmul(mm, workspace)),
        "Blas.matmul: A's buffer",
        "is closed");
  }

  @Test
  void buffersOfAnotherDeviceOrPlatformAreRefused() {
    Stream second = platform.device(1).newStream();
    try (DeviceBuffer<Float> elsewhere = DeviceBuffer.zeros(ElementType.F32, 12).syncOn(second);
        CudaPlatform other = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream otherStream = other.defaultDevice().newStream();
        DeviceBuffer<Float> foreign = DeviceBuffer.zeros(ElementType.F32, 12).syncOn(otherStream);
        Blas onSecond = Blas.open(platform.device(1))) {
      assertMentions(
          refusedArgument(
              () ->
                  Matmul.of(
                      MatrixView.rowMajor(elsewhere, 4, 3),
                      MatrixView.rowMajor(b, 3, 5),
                      MatrixView.rowMajor(d, 4, 5))),
          "A's buffer lives on device 1 but D's on device 0");
      assertMentions(
          refusedArgument(
              () ->
                  Matmul.of(
                      MatrixView.rowMajor(foreign, 4, 3),
                      MatrixView.rowMajor(b, 3, 5),
                      MatrixView.rowMajor(d, 4, 5))),
          "belongs to another platform than D's");
      assertMentions(
          refusedArgument(() -> onSecond.matmul(good(), workspace)),
          "Blas.matmul: A's buffer lives on device 0 but this Blas runs on device 1");
      otherStream.synchronize();
    } finally {
      second.close();
    }
  }

  @Test
  void aWorkspaceTooSmallClosedOrElsewhereIsRefused() {
    try (Workspace small = Workspace.allocate(8).syncOn(stream)) {
      assertMentions(
          refusedArgument(() -> blas.matmul(good(), small)),
          "Blas.matmul: the plan (simulated reference",
          "needs 80 bytes of workspace but Workspace[8 bytes on device 0] holds 8",
          "allocate one with Blas.workspaceFor");
    }
    Stream second = platform.device(1).newStream();
    try (Workspace elsewhere = Workspace.allocate(1 << 16).syncOn(second)) {
      assertMentions(
          refusedArgument(() -> blas.matmul(good(), elsewhere)),
          "lives on another device than this Blas (device 0)");
    } finally {
      second.close();
    }
    Workspace closed = Workspace.allocate(1 << 16).syncOn(stream);
    closed.close();
    assertMentions(
        refused(IllegalStateException.class, () -> blas.matmul(good(), closed)),
        "Blas.matmul: Workspace[65536 bytes on device 0] is closed");
    assertMentions(refusedArgument(() -> Workspace.allocate(0)), "Workspace.allocate: 0 bytes");
  }

  @Test
  void aClosedBlasRefusesPlansAndNodes() {
    Matmul mm = good();
    blas.close();
    assertMentions(
        refused(IllegalStateException.class, () -> blas.plan(mm)),
        "Blas.plan: this Blas is closed");
    assertMentions(
        refused(IllegalStateException.class, () -> blas.matmul(mm, workspace)),
        "Blas.matmul: this Blas is closed");
  }
}
