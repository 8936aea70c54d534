// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.ForeignStream;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.blas.BlasException;
import cuda.graph.blas.internal.binding.FakeCublasLt.Call;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.CheckedMatmul.Compute;
import cuda.graph.blas.internal.plan.CheckedMatmul.Epilogue;
import cuda.graph.blas.internal.plan.CheckedMatmul.Order;
import cuda.graph.blas.internal.plan.MatmulOperands;
import cuda.graph.blas.internal.plan.MatmulPlan;
import cuda.graph.simulator.Simulator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * cuBLASLt's backend without a GPU: its calls go to a cuBLASLt made of upcall stubs, over the
 * simulator's streams and buffers, so what each plan creates, what each launch passes and when
 * everything is destroyed are checked in every build.
 */
class CublasLtBackendTests {

  private static final long LIMIT = 1 << 20;

  private FakeCublasLt fake;
  private CudaPlatform platform;
  private Stream stream;
  private CublasLtBackend backend;

  @BeforeEach
  void open() {
    fake = new FakeCublasLt();
    platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
    stream = platform.defaultDevice().newStream();
    // Destroys run where the last use goes, so the tests see them at once.
    backend = CublasLtBackend.open(fake.bind(), platform.defaultDevice(), Runnable::run);
  }

  @AfterEach
  void close() {
    backend.close();
    stream.close();
    platform.close();
    fake.close();
  }

  private static CheckedMatmul rowMajor(Epilogue epilogue) {
    return Products.with(
        Order.ROW_MAJOR,
        false,
        false,
        8,
        16,
        32,
        ElementType.F16,
        1,
        epilogue,
        epilogue.takesBias() ? ElementType.F16 : null,
        Compute.F32);
  }

  private DeviceBuffer<Short> f16(long length) {
    return DeviceBuffer.zeros(ElementType.F16, length).syncOn(stream);
  }

  /** {@return the addresses a foreign node sees for {@code buffers}} */
  private long[] addresses(List<DeviceBuffer<?>> buffers) {
    long[] out = new long[buffers.size()];
    GraphNode.foreign(
            "probe",
            buffers,
            (ForeignStream s) -> {
              for (int i = 0; i < out.length; i++) {
                out[i] = s.address(buffers.get(i));
              }
            })
        .syncOn(stream);
    return out;
  }

  private long destroyed(CublasLtEntry entry) {
    return fake.calls(entry).size();
  }

  @Test
  void aProductIsPlannedOnceAndEqualProductsShareThePlan() {
    MatmulPlan first = backend.plan(rowMajor(Epilogue.NONE), LIMIT);
    MatmulPlan second = backend.plan(rowMajor(Epilogue.NONE), LIMIT);

    assertSame(first, second);
    assertEquals(1, fake.calls(CublasLtEntry.MATMUL_ALGO_GET_HEURISTIC).size());
    assertEquals(
        List.of(CublasLtAbi.COMPUTE_32F, CublasLtAbi.R_32F),
        fake.calls(CublasLtEntry.MATMUL_DESC_CREATE).getFirst().arguments().subList(1, 3));
    assertEquals(FakeCublasLt.WORKSPACE_NEED, first.workspaceBytes());
    assertEquals(
        "cuBLASLt algo 1 (tile 11, stages 61, split-k 21), 0.50 waves, 4096 bytes of workspace",
        first.algorithm());
  }

  @Test
  void thePreferenceCarriesTheWorkspaceLimitAndIsDestroyedOnceTheHeuristicAnswered() {
    backend.plan(rowMajor(Epilogue.NONE), LIMIT);

    Call limit = fake.calls(CublasLtEntry.MATMUL_PREFERENCE_SET_ATTRIBUTE).getFirst();
    assertEquals(CublasLtAbi.PREF_MAX_WORKSPACE_BYTES, limit.arguments().get(1));
    assertEquals(LIMIT, limit.arguments().get(2));
    assertEquals(8L, limit.arguments().get(3));
    assertEquals(1, destroyed(CublasLtEntry.MATMUL_PREFERENCE_DESTROY));
    assertEquals(0, destroyed(CublasLtEntry.MATMUL_DESC_DESTROY), "the plan keeps its descriptor");
  }

  @Test
  void thePreferenceTellsTheHeuristicHowAlignedEachOperandIsSoItPlansOnlyWhatCanRun() {
    backend.plan(rowMajor(Epilogue.NONE), LIMIT);

    List<Call> set = fake.calls(CublasLtEntry.MATMUL_PREFERENCE_SET_ATTRIBUTE);
    assertEquals(5, set.size(), "the workspace limit, then A, B, C and D's alignments");
    for (int i = 0; i < 4; i++) {
      Call alignment = set.get(1 + i);
      assertEquals(CublasLtAbi.PREF_MIN_ALIGNMENT_A_BYTES + i, alignment.arguments().get(1));
      assertEquals(256L, alignment.arguments().get(2));
      assertEquals(4L, alignment.arguments().get(3), "uint32_t");
    }
  }

  @Test
  void aRowMajorNodePassesOurBAsCublasLtsAAndDForTheMissingC() {
    MatmulPlan plan = backend.plan(rowMajor(Epilogue.NONE), LIMIT);
    DeviceBuffer<Short> a = f16(8 * 32);
    DeviceBuffer<Short> b = f16(32 * 16);
    DeviceBuffer<Short> d = f16(8 * 16);
    DeviceBuffer<Byte> workspace = DeviceBuffer.zeros(ElementType.I8, 8192).syncOn(stream);
    long[] at = addresses(List.of(a, b, d, workspace));

    backend.node(plan, new MatmulOperands(a, b, null, d, null, workspace)).syncOn(stream);

    List<Object> call = fake.calls(CublasLtEntry.MATMUL).getFirst().arguments();
    assertEquals(FakeCublasLt.HANDLE, call.get(0));
    assertEquals(1f, call.get(2), "alpha");
    assertEquals(at[1], call.get(3), "cuBLASLt's A is our B");
    assertEquals(at[0], call.get(5), "cuBLASLt's B is our A");
    assertEquals(0f, call.get(7), "beta");
    assertEquals(at[2], call.get(8), "C is D: not read with beta 0");
    assertEquals(call.get(11), call.get(9), "C's layout is D's");
    assertEquals(at[2], call.get(10));
    assertEquals(0xA160L, call.get(12), "the algorithm the heuristic wrote");
    assertEquals(at[3], call.get(13));
    assertEquals(8192L, call.get(14), "the whole workspace");
  }

  @Test
  void aBiasNodeSetsItsBiasPointerOnTheDescriptorJustBeforeEachCall() {
    MatmulPlan plan = backend.plan(rowMajor(Epilogue.BIAS_RELU), LIMIT);
    DeviceBuffer<Short> a = f16(8 * 32);
    DeviceBuffer<Short> b = f16(32 * 16);
    DeviceBuffer<Short> d = f16(8 * 16);
    // One element per column of the row-major 8 x 16 D.
    DeviceBuffer<Short> bias1 = f16(16);
    DeviceBuffer<Short> bias2 = f16(16);
    DeviceBuffer<Byte> workspace = DeviceBuffer.zeros(ElementType.I8, 8192).syncOn(stream);
    long[] at = addresses(List.of(bias1, bias2, a, b));

    backend.node(plan, new MatmulOperands(a, b, null, d, bias1, workspace)).syncOn(stream);
    backend.node(plan, new MatmulOperands(a, b, null, d, bias2, workspace)).syncOn(stream);

    List<Object> first = fake.calls(CublasLtEntry.MATMUL).getFirst().arguments();
    assertEquals(at[3], first.get(3), "swapped with a bias too: cuBLASLt's A is our B");
    assertEquals(at[2], first.get(5), "cuBLASLt's B is our A");

    List<Call> calls = fake.calls();
    List<Object> biasPointers =
        calls.stream()
            .filter(
                c ->
                    c.entry() == CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE
                        && c.arguments().get(1).equals(CublasLtAbi.DESC_BIAS_POINTER))
            .map(c -> c.arguments().get(2))
            .toList();
    assertEquals(List.of(at[0], at[1]), biasPointers);
    int matmul = calls.size() - 1;
    assertEquals(CublasLtEntry.MATMUL, calls.get(matmul).entry());
    assertEquals(CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE, calls.get(matmul - 1).entry());
  }

  @Test
  void aProductWithoutAnAlgorithmFailsNamingItAndLeavesNothingCreated() {
    fake.heuristicFinds(0, CublasLtStatus.SUCCESS);
    CheckedMatmul m = rowMajor(Epilogue.GELU);

    BlasException e = assertThrows(BlasException.class, () -> backend.plan(m, 0));

    assertEquals(
        "cublasLtMatmulAlgoGetHeuristic failed: CUBLAS_STATUS_NOT_SUPPORTED (15), \"the heuristic"
            + " found no algorithm\", for "
            + LtMatmulSpec.describe(m)
            + " with at most 0 bytes of workspace. "
            + CublasLtStatus.advice(CublasLtStatus.NOT_SUPPORTED),
        e.getMessage());
    assertEquals(1, destroyed(CublasLtEntry.MATMUL_DESC_DESTROY));
    assertEquals(3, destroyed(CublasLtEntry.MATRIX_LAYOUT_DESTROY), "A, B and D (D stands for C)");
    assertEquals(1, destroyed(CublasLtEntry.MATMUL_PREFERENCE_DESTROY));
    fake.heuristicFinds(1, CublasLtStatus.SUCCESS);
    assertEquals(FakeCublasLt.WORKSPACE_NEED, backend.plan(m, 0).workspaceBytes(), "not cached");
  }

  @Test
  void aRowMajorBiasPlanCreatesTheSwappedColumnMajorLayoutsWithNoOrderAttribute() {
    backend.plan(rowMajor(Epilogue.BIAS), LIMIT);

    List<List<Object>> layouts =
        fake.calls(CublasLtEntry.MATRIX_LAYOUT_CREATE).stream()
            .map(c -> c.arguments().subList(1, 5))
            .toList();
    // Type, rows, cols, ld: our B (32 x 16 row-major) as 16 x 32, our A (8 x 32) as 32 x 8, and
    // D (8 x 16) as 16 x 8, so cuBLASLt's bias per row of its D is one per column of ours.
    assertEquals(
        List.of(
            List.of(CublasLtAbi.R_16F, 16L, 32L, 16L),
            List.of(CublasLtAbi.R_16F, 32L, 8L, 32L),
            List.of(CublasLtAbi.R_16F, 16L, 8L, 16L)),
        layouts);
    assertEquals(
        List.of(), fake.calls(CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE), "no CUBLASLT_ORDER_ROW");
    List<Object> biasType =
        fake.calls(CublasLtEntry.MATMUL_DESC_SET_ATTRIBUTE).stream()
            .filter(c -> c.arguments().get(1).equals(CublasLtAbi.DESC_BIAS_DATA_TYPE))
            .map(c -> c.arguments().get(2))
            .toList();
    assertEquals(List.of((long) CublasLtAbi.R_16F), biasType);
  }

  @Test
  void aFailingCallWhilePlanningUndoesWhatThePlanHadCreatedInReverse() {
    fake.returning(CublasLtEntry.MATRIX_LAYOUT_SET_ATTRIBUTE, CublasLtStatus.INVALID_VALUE);
    // A batch, so that the layouts have attributes to set.
    CheckedMatmul m =
        Products.with(
            Order.ROW_MAJOR,
            false,
            false,
            8,
            16,
            32,
            ElementType.F16,
            2,
            Epilogue.BIAS,
            ElementType.F16,
            Compute.F32);

    BlasException e = assertThrows(BlasException.class, () -> backend.plan(m, LIMIT));

    assertTrue(
        e.getMessage()
            .startsWith(
                "cublasLtMatrixLayoutSetAttribute failed: CUBLAS_STATUS_INVALID_VALUE (7), \"fake"
                    + " description of 7\", for "
                    + LtMatmulSpec.describe(m)
                    + ", layout of A. "),
        e.getMessage());
    List<CublasLtEntry> tail =
        fake.calls().stream()
            .map(Call::entry)
            .toList()
            .subList(fake.calls().size() - 2, fake.calls().size());
    assertEquals(
        List.of(CublasLtEntry.MATRIX_LAYOUT_DESTROY, CublasLtEntry.MATMUL_DESC_DESTROY), tail);
  }

  @Test
  void closingDestroysEveryDescriptorOnceAndTheHandleLast() {
    backend.plan(rowMajor(Epilogue.NONE), LIMIT);
    backend.plan(rowMajor(Epilogue.BIAS), LIMIT);

    backend.close();
    backend.close();

    assertEquals(2, destroyed(CublasLtEntry.MATMUL_DESC_DESTROY));
    assertEquals(3 + 3, destroyed(CublasLtEntry.MATRIX_LAYOUT_DESTROY));
    List<Call> calls = fake.calls();
    assertEquals(CublasLtEntry.DESTROY, calls.getLast().entry());
    assertEquals(List.of(FakeCublasLt.HANDLE), calls.getLast().arguments());
    assertEquals(1, destroyed(CublasLtEntry.DESTROY));
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> backend.plan(rowMajor(Epilogue.NONE), 0));
    assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
  }

  @Test
  void aGraphThatCapturedANodeKeepsTheHandleAndDescriptorsUntilItIsClosed() {
    MatmulPlan plan = backend.plan(rowMajor(Epilogue.NONE), LIMIT);
    DeviceBuffer<Short> a = f16(8 * 32);
    DeviceBuffer<Short> b = f16(32 * 16);
    DeviceBuffer<Short> d = f16(8 * 16);
    DeviceBuffer<Byte> workspace = DeviceBuffer.zeros(ElementType.I8, 8192).syncOn(stream);
    CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(
            stream, backend.node(plan, new MatmulOperands(a, b, null, d, null, workspace)));
    graph.launch().syncOn(stream);

    backend.close();
    long whileTheGraphLives =
        destroyed(CublasLtEntry.DESTROY) + destroyed(CublasLtEntry.MATMUL_DESC_DESTROY);
    graph.close();

    assertEquals(0, whileTheGraphLives, "the graph holds a use");
    assertEquals(1, destroyed(CublasLtEntry.MATMUL_DESC_DESTROY));
    assertEquals(1, destroyed(CublasLtEntry.DESTROY));
    assertEquals(
        1, fake.calls(CublasLtEntry.MATMUL).size(), "recorded once, replayed by the graph");
  }

  @Test
  void theLastUseReleasedByAnExecutionHandsTheDestroysToTheReleaser() {
    AtomicLong handedOver = new AtomicLong();
    List<Runnable> pending = new java.util.ArrayList<>();
    CublasLtBackend deferred =
        CublasLtBackend.open(
            fake.bind(),
            platform.defaultDevice(),
            r -> {
              handedOver.incrementAndGet();
              pending.add(r);
            });
    try {
      MatmulPlan plan = deferred.plan(rowMajor(Epilogue.NONE), LIMIT);
      DeviceBuffer<Short> a = f16(8 * 32);
      DeviceBuffer<Short> b = f16(32 * 16);
      DeviceBuffer<Short> d = f16(8 * 16);
      DeviceBuffer<Byte> workspace = DeviceBuffer.zeros(ElementType.I8, 8192).syncOn(stream);
      CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, deferred.node(plan, new MatmulOperands(a, b, null, d, null, workspace)));
      deferred.close();
      long before = destroyed(CublasLtEntry.DESTROY);

      graph.close();

      assertEquals(1, handedOver.get());
      assertEquals(before, destroyed(CublasLtEntry.DESTROY), "not in the release action itself");
      pending.forEach(Runnable::run);
      assertEquals(before + 1, destroyed(CublasLtEntry.DESTROY));
    } finally {
      deferred.close();
    }
  }

  @Test
  void aNodeRefusesAPlanOfAnotherBackendAndATooSmallWorkspace() {
    MatmulPlan plan = backend.plan(rowMajor(Epilogue.NONE), LIMIT);
    DeviceBuffer<Short> a = f16(8 * 32);
    DeviceBuffer<Short> b = f16(32 * 16);
    DeviceBuffer<Short> d = f16(8 * 16);
    DeviceBuffer<Byte> small = DeviceBuffer.zeros(ElementType.I8, 16).syncOn(stream);

    IllegalArgumentException tooSmall =
        assertThrows(
            IllegalArgumentException.class,
            () -> backend.node(plan, new MatmulOperands(a, b, null, d, null, small)));
    try (CublasLtBackend other =
        CublasLtBackend.open(fake.bind(), platform.defaultDevice(), Runnable::run)) {
      assertThrows(
          IllegalArgumentException.class,
          () -> other.node(plan, new MatmulOperands(a, b, null, d, null, small)));
    }

    assertTrue(
        tooSmall.getMessage().endsWith("needs 4096 bytes of workspace, and was given 16 bytes"),
        tooSmall.getMessage());
  }
}
