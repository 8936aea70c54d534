package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.support.InstrumentedDriver;
import cuda.graph.spi.support.LoggedCall;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Workspaces are owned per graph: eight graphs captured on one stream, some sharing a workspace,
 * through a seeded random sequence of captures, replays, destroys and workspaces closed and
 * replaced under live graphs. Every replay gives the eager result bit for bit, nothing is allocated
 * while the stream captures, and nothing is left once everything is closed.
 */
class WorkspaceLifetimeTests {

  private static final int SLOTS = 8;
  private static final int STEPS = 400;

  /** Slots 0-2 share workspace 0, 3-5 workspace 1, 6 and 7 have their own. */
  private static int group(int slot) {
    return slot < 3 ? 0 : slot < 6 ? 1 : slot - 4;
  }

  @Test
  void graphsSharingOrNotSharingWorkspacesReplayCorrectlyThroughRandomCreatesReplaysAndDestroys() {
    InstrumentedDriver driver =
        new InstrumentedDriver(Simulator.builder().reuseHandleValues(true).build());
    CudaPlatform platform = CudaPlatform.forDriver(driver, "simulator");
    Stream stream = platform.defaultDevice().newStream();
    Blas blas = Blas.open(platform.defaultDevice());
    Random random = new Random(20260524);
    List<DeviceBuffer<?>> buffers = new ArrayList<>();
    Matmul[] products = new Matmul[SLOTS];
    float[][] expected = new float[SLOTS][];
    Workspace[] workspaces = new Workspace[4];
    List<@Nullable CudaGraph<@Nullable Void>> graphs =
        new ArrayList<>(Collections.nCopies(SLOTS, null));
    int replays = 0;
    try {
      for (int i = 0; i < SLOTS; i++) {
        int m = 4 + i;
        DeviceBuffer<?> a =
            HostMatrices.Contents.random(ElementType.F32, m * 6, random).upload(stream);
        DeviceBuffer<?> b =
            HostMatrices.Contents.random(ElementType.F32, 6 * 8, random).upload(stream);
        // One bias element per column of the row-major m x 8 D.
        DeviceBuffer<?> bias =
            HostMatrices.Contents.random(ElementType.F32, 8, random).upload(stream);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, m * 8).syncOn(stream);
        buffers.addAll(List.of(a, b, bias, d));
        products[i] =
            Matmul.of(
                    MatrixView.rowMajor(a, m, 6),
                    MatrixView.rowMajor(b, 6, 8),
                    MatrixView.rowMajor(d, m, 8))
                .withEpilogue(Epilogue.BIAS_GELU, bias);
        try (Workspace own = blas.workspaceFor(List.of(products[i])).syncOn(stream)) {
          blas.matmul(products[i], own).syncOn(stream);
        }
        expected[i] = d.toFloatArray().syncOn(stream);
      }
      for (int g = 0; g < workspaces.length; g++) {
        workspaces[g] = workspaceOf(blas, products, g, stream);
      }
      long largest = blas.plan(products[2]).workspaceBytes();
      assertEquals(largest, workspaces[0].byteSize(), "the largest need of slots 0-2, not the sum");
      assertTrue(largest < blas.plan(products[0]).workspaceBytes() * 3);

      for (int step = 0; step < STEPS; step++) {
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
          workspaces[g] = workspaceOf(blas, products, g, stream);
        }
      }
      assertTrue(replays > STEPS / 4, "replays: " + replays);
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
      blas.close();
      stream.close();
      platform.close();
    }
    assertEquals(Map.of(), nonZero(driver.ledger().liveCounts()), "the ledger is back to zero");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
    assertNothingAllocatedWhileCapturing(driver.calls().records());
  }

  private static Workspace workspaceOf(Blas blas, Matmul[] products, int group, Stream stream) {
    List<Matmul> sharing = new ArrayList<>();
    for (int i = 0; i < SLOTS; i++) {
      if (group(i) == group) {
        sharing.add(products[i]);
      }
    }
    return blas.workspaceFor(sharing).syncOn(stream);
  }

  private static final Set<DriverCall> ALLOCATIONS =
      Set.of(
          DriverCall.MEM_ALLOC,
          DriverCall.MEM_ALLOC_ASYNC,
          DriverCall.MEM_ALLOC_HOST,
          DriverCall.MODULE_LOAD_DATA);

  private static void assertNothingAllocatedWhileCapturing(List<LoggedCall> calls) {
    int captures = 0;
    boolean capturing = false;
    for (LoggedCall call : calls) {
      if (call.call() == DriverCall.STREAM_BEGIN_CAPTURE) {
        capturing = true;
        captures++;
      } else if (call.call() == DriverCall.STREAM_END_CAPTURE) {
        capturing = false;
      } else if (capturing && ALLOCATIONS.contains(call.call())) {
        throw new AssertionError("allocated while a stream captured: " + call);
      }
    }
    assertTrue(captures > 8, "the log saw the captures: " + captures);
  }

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
