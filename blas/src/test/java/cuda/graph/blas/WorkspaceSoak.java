// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.CallLog;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The workspace soak of issue 24, on any provider: eight graphs captured on one stream, some
 * sharing a workspace, through a seeded random sequence of captures, replays, destroys and
 * workspaces closed and replaced under live graphs. It asserts, whatever the provider, that every
 * replay gives the eager result of the same product bit for bit (both run the product's one plan),
 * that every shared workspace is as large as the largest need among the products sharing it (not
 * the sum), that nothing is allocated while the stream captures, and that once everything is closed
 * the ledger is back to zero with no lifetime violation. What it saw comes back as an {@link
 * Outcome} for the assertions that hold on one provider only.
 *
 * <p>The platform is made by the soak over an {@link InstrumentedDriver} wrapping a driver of the
 * factory's, so every driver call of the run, closing included, is counted.
 */
final class WorkspaceSoak {

  /** How many graphs live at once, at most. */
  static final int SLOTS = 8;

  /** How many workspaces there are: two shared by three graphs each, and two of their own. */
  static final int GROUPS = 4;

  /** Slots 0-2 share workspace 0, 3-5 workspace 1, 6 and 7 have their own. */
  static int group(int slot) {
    return slot < 3 ? 0 : slot < 6 ? 1 : slot - 4;
  }

  /**
   * What a run saw.
   *
   * @param replays how many graph launches were checked against the eager result
   * @param captures how many captures the driver's call log saw
   * @param needs the workspace need of each slot's plan, by slot
   * @param workspaceBytes the size of each group's workspace, by group
   */
  record Outcome(int replays, int captures, List<Long> needs, List<Long> workspaceBytes) {

    /** {@return the sum of the needs of the slots of {@code group}} */
    long sumOfNeeds(int group) {
      long sum = 0;
      for (int slot = 0; slot < SLOTS; slot++) {
        if (group(slot) == group) {
          sum += needs.get(slot);
        }
      }
      return sum;
    }
  }

  private final String providerId;
  private final Supplier<? extends CudaDriver> drivers;
  private final int inner;
  private final int steps;
  private final long seed;

  /**
   * Describes a soak.
   *
   * @param providerId the id the platform is made with ({@code CudaPlatform.forDriver}), which
   *     picks the matmul backend: {@code simulator} or {@code cuda}
   * @param drivers makes the driver the platform runs on (the soak instruments it)
   * @param inner the inner dimension k of every product (slot i's is (4 + i) x k times k x 8)
   * @param steps how many random creates, replays and destroys to run
   * @param seed the seed of the contents and of the sequence
   */
  WorkspaceSoak(
      String providerId, Supplier<? extends CudaDriver> drivers, int inner, int steps, long seed) {
    this.providerId = providerId;
    this.drivers = drivers;
    this.inner = inner;
    this.steps = steps;
    this.seed = seed;
  }

  /** {@return what the soak saw}, having asserted what holds on every provider */
  Outcome run() {
    InstrumentedDriver driver = new InstrumentedDriver(drivers.get());
    CaptureAllocations captureAllocations = new CaptureAllocations(driver.calls());
    CudaPlatform platform = CudaPlatform.forDriver(driver, providerId);
    Stream stream = platform.defaultDevice().newStream();
    Random random = new Random(seed);
    List<DeviceBuffer<?>> buffers = new ArrayList<>();
    Matmul[] products = new Matmul[SLOTS];
    float[][] expected = new float[SLOTS][];
    List<Long> needs = new ArrayList<>();
    Workspace[] workspaces = new Workspace[GROUPS];
    List<Long> workspaceBytes = new ArrayList<>();
    List<@Nullable CudaGraph<@Nullable Void>> graphs =
        new ArrayList<>(Collections.nCopies(SLOTS, null));
    int replays = 0;
    @Nullable Blas blas = null;
    try {
      blas = Blas.open(platform.defaultDevice());
      for (int i = 0; i < SLOTS; i++) {
        int m = 4 + i;
        DeviceBuffer<?> a =
            HostMatrices.Contents.random(ElementType.F32, m * inner, random).upload(stream);
        DeviceBuffer<?> b =
            HostMatrices.Contents.random(ElementType.F32, inner * 8, random).upload(stream);
        // One bias element per column of the row-major m x 8 D.
        DeviceBuffer<?> bias =
            HostMatrices.Contents.random(ElementType.F32, 8, random).upload(stream);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, m * 8).syncOn(stream);
        buffers.addAll(List.of(a, b, bias, d));
        products[i] =
            Matmul.of(
                    MatrixView.rowMajor(a, m, inner),
                    MatrixView.rowMajor(b, inner, 8),
                    MatrixView.rowMajor(d, m, 8))
                .withEpilogue(Epilogue.BIAS_GELU, bias);
        needs.add(blas.plan(products[i]).workspaceBytes());
        try (Workspace own = blas.workspaceFor(List.of(products[i])).syncOn(stream)) {
          blas.matmul(products[i], own).syncOn(stream);
        }
        expected[i] = d.toFloatArray().syncOn(stream);
      }
      for (int g = 0; g < GROUPS; g++) {
        workspaces[g] = workspaceOf(blas, products, needs, g, stream);
        workspaceBytes.add(workspaces[g].byteSize());
      }

      for (int step = 0; step < steps; step++) {
        int slot = random.nextInt(SLOTS);
        int action = random.nextInt(10);
        CudaGraph<@Nullable Void> graph = graphs.get(slot);
        if (graph == null || action < 2) {
          if (graph != null) {
            graph.close();
          }
          graphs.set(
              slot,
              CudaGraph.capture(stream, blas.matmul(products[slot], workspaces[group(slot)])));
        } else if (action < 7) {
          @SuppressWarnings("unchecked")
          DeviceBuffer<Float> d = (DeviceBuffer<Float>) products[slot].d().buffer();
          d.fill(Float.NaN).syncOn(stream);
          graph.launch().syncOn(stream);
          replays++;
          assertArrayEquals(
              expected[slot],
              d.toFloatArray().syncOn(stream),
              "step " + step + ": replay of slot " + slot);
        } else if (action < 9) {
          graph.close();
          graphs.set(slot, null);
        } else {
          // The owner lets go of a workspace that live graphs captured: they keep its memory.
          int g = group(slot);
          workspaces[g].close();
          workspaces[g] = workspaceOf(blas, products, needs, g, stream);
        }
        captureAllocations.check("step " + step);
      }
      assertTrue(replays > steps / 4, "replays: " + replays);
    } finally {
      for (CudaGraph<?> graph : graphs) {
        if (graph != null) {
          graph.close();
        }
      }
      for (Workspace workspace : workspaces) {
        if (workspace != null) {
          workspace.close();
        }
      }
      buffers.forEach(DeviceBuffer::close);
      if (blas != null) {
        blas.close();
      }
      stream.close();
      platform.close();
    }
    assertEquals(Map.of(), nonZero(driver.ledger().liveCounts()), "the ledger is back to zero");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
    captureAllocations.check("closing");
    assertTrue(
        captureAllocations.captures > SLOTS,
        "the log saw the captures: " + captureAllocations.captures);
    return new Outcome(replays, captureAllocations.captures, needs, workspaceBytes);
  }

  /** {@return a new workspace for the slots of {@code group}}, checked to be the largest need */
  private static Workspace workspaceOf(
      Blas blas, Matmul[] products, List<Long> needs, int group, Stream stream) {
    List<Matmul> sharing = new ArrayList<>();
    long largest = 1; // a workspace has at least one byte
    for (int i = 0; i < SLOTS; i++) {
      if (group(i) == group) {
        sharing.add(products[i]);
        largest = Math.max(largest, needs.get(i));
      }
    }
    Workspace workspace = blas.workspaceFor(sharing).syncOn(stream);
    assertEquals(
        largest,
        workspace.byteSize(),
        "workspace " + group + ": the largest need of its products, not the sum");
    return workspace;
  }

  /**
   * Reads the call log as the soak goes, forgetting what it has read: the log keeps only the newest
   * {@link CallLog#CAPACITY} records, fewer than a long soak makes, and every capture must be seen.
   */
  private static final class CaptureAllocations {

    private static final Set<DriverCall> ALLOCATIONS =
        Set.of(
            DriverCall.MEM_ALLOC,
            DriverCall.MEM_ALLOC_ASYNC,
            DriverCall.MEM_ALLOC_HOST,
            DriverCall.MODULE_LOAD_DATA);

    private final CallLog log;
    private boolean capturing;
    int captures;

    CaptureAllocations(CallLog log) {
      this.log = log;
    }

    /** Fails if a call since the last check allocated while the stream captured. */
    void check(String when) {
      List<LoggedCall> calls = log.records();
      log.clear();
      for (LoggedCall call : calls) {
        if (call.call() == DriverCall.STREAM_BEGIN_CAPTURE) {
          capturing = true;
          captures++;
        } else if (call.call() == DriverCall.STREAM_END_CAPTURE) {
          capturing = false;
        } else if (capturing && ALLOCATIONS.contains(call.call())) {
          throw new AssertionError(when + ": allocated while a stream captured: " + call);
        }
      }
    }
  }

  /** {@return the kinds of {@code counts} whose count is not zero} */
  static Map<HandleKind, Long> nonZero(Map<HandleKind, Long> counts) {
    Map<HandleKind, Long> live = new EnumMap<>(HandleKind.class);
    counts.forEach(
        (kind, n) -> {
          if (n != 0) {
            live.put(kind, n);
          }
        });
    return live;
  }
}
