// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Compositions as long as {@code GraphNode.sequence} takes (100,000 nodes), built one combinator at
 * a time, run eagerly, captured and recorded, and describe themselves, all on a thread with a 512
 * KiB stack: nothing may recurse once per composed op (a 2,000-node {@code andThen} chain used to
 * overflow a default stack).
 */
class LongChainTests {

  private static final int N = 100_000;
  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);

  private CudaPlatform platform;
  private Stream stream;
  private DeviceBuffer<Integer> counter;

  @BeforeEach
  void openPlatform() {
    platform = SimulatorPlatforms.simulator();
    stream = platform.defaultDevice().newStream();
    counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
  }

  @AfterEach
  void closePlatform() {
    counter.close();
    stream.close();
    platform.close();
  }

  /** Runs {@code work} on a fresh thread with a small stack and rethrows what it threw. */
  private static void onASmallStack(Runnable work) throws Exception {
    AtomicReference<@Nullable Throwable> thrown = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                work.run();
              } catch (Throwable t) {
                thrown.set(t);
              }
            },
            "small-stack",
            512 * 1024);
    thread.start();
    thread.join();
    Throwable t = thrown.get();
    if (t instanceof Exception e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
  }

  /**
   * {@code addOne(counter)} then {@code i} appended to {@code order}: N such pairs, left-nested.
   */
  private GraphNode<@Nullable Void> leftNested(List<Integer> order) {
    GraphNode<@Nullable Void> chain = step(0, order);
    for (int i = 1; i < N; i++) {
      chain = chain.andThen(step(i, order));
    }
    return chain;
  }

  private GraphNode<@Nullable Void> step(int i, List<Integer> order) {
    return i % 2 == 0
        ? KernelFixtures.ADD_ONE.launch(ONE, 1, counter)
        : DeviceOp.hostCallback(() -> order.add(i));
  }

  private static List<Integer> odd(int n) {
    List<Integer> expected = new ArrayList<>(n / 2);
    for (int i = 1; i < n; i += 2) {
      expected.add(i);
    }
    return expected;
  }

  private int count() {
    return counter.toIntArray().syncOn(stream)[0];
  }

  @Test
  void aHundredThousandLeftNestedAndThenNodesRunEagerlyOnASmallStack() throws Exception {
    List<Integer> order = new ArrayList<>();
    GraphNode<@Nullable Void> chain = leftNested(order);
    onASmallStack(() -> chain.syncOn(stream));
    assertEquals(N / 2, count());
    assertEquals(odd(N), order);
  }

  @Test
  void aHundredThousandLeftNestedAndThenNodesAreCapturedAndReplayedOnASmallStack()
      throws Exception {
    List<Integer> order = new ArrayList<>();
    GraphNode<@Nullable Void> chain = leftNested(order);
    onASmallStack(
        () -> {
          try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, chain)) {
            graph.launch().syncOn(stream);
          }
        });
    assertEquals(N / 2, count());
    assertEquals(odd(N), order);
  }

  @Test
  void aHundredThousandLeftNestedAndThenNodesAreRecordedInAScopeOnASmallStack() throws Exception {
    List<Integer> order = new ArrayList<>();
    GraphNode<@Nullable Void> chain = leftNested(order);
    onASmallStack(
        () -> {
          try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, s -> s.record(chain))) {
            graph.launch().syncOn(stream);
            graph.launch().syncOn(stream);
          }
        });
    assertEquals(N, count());
    List<Integer> twice = new ArrayList<>(odd(N));
    twice.addAll(odd(N));
    assertEquals(twice, order);
  }

  @Test
  void aHundredThousandRightNestedAndThenNodesRunEagerlyOnASmallStack() throws Exception {
    List<Integer> order = new ArrayList<>();
    GraphNode<@Nullable Void> chain = step(N - 1, order);
    for (int i = N - 2; i >= 0; i--) {
      chain = step(i, order).andThen(chain);
    }
    GraphNode<@Nullable Void> built = chain;
    onASmallStack(() -> built.syncOn(stream));
    assertEquals(N / 2, count());
    assertEquals(odd(N), order);
  }

  @Test
  void aHundredThousandMapsThensAndZipsRunOnASmallStack() throws Exception {
    DeviceOp<Integer> maps = DeviceOp.value(0);
    DeviceOp<Integer> thens = DeviceOp.value(0);
    DeviceOp<Integer> zips = DeviceOp.value(0);
    for (int i = 0; i < N; i++) {
      maps = maps.map(x -> x + 1);
      thens = thens.then(x -> DeviceOp.value(x + 1));
      zips = zips.zip(DeviceOp.value(1), Integer::sum);
    }
    DeviceOp<Integer> m = maps;
    DeviceOp<Integer> t = thens;
    DeviceOp<Integer> z = zips;
    AtomicReference<@Nullable List<Integer>> results = new AtomicReference<>();
    onASmallStack(() -> results.set(List.of(m.syncOn(stream), t.syncOn(stream), z.syncOn(stream))));
    assertEquals(List.of(N, N, N), results.get());
  }

  @Test
  void aHundredThousandMapsOrThensAroundAnArrayReadCompleteAsynchronouslyOnASmallStack()
      throws Exception {
    DeviceOp<int[]> read = counter.toIntArray();
    for (int i = 0; i < N; i++) {
      read = read.map(a -> new int[] {a[0] + 1});
    }
    DeviceOp<int[]> rightNested = counter.toIntArray();
    for (int i = 0; i < N; i++) {
      rightNested = DeviceOp.value(i).andThen(rightNested);
    }
    DeviceOp<int[]> mapped = read;
    DeviceOp<int[]> thenned = rightNested;
    AtomicReference<int @Nullable []> first = new AtomicReference<>();
    AtomicReference<int @Nullable []> second = new AtomicReference<>();
    onASmallStack(
        () -> {
          first.set(mapped.asyncOn(stream).join());
          second.set(thenned.asyncOn(stream).join());
        });
    assertArrayEquals(new int[] {N}, first.get());
    assertArrayEquals(new int[] {0}, second.get());
  }

  @Test
  void aHundredThousandNodeChainDescribesItselfShortlyOnASmallStack() throws Exception {
    GraphNode<@Nullable Void> chain = leftNested(new ArrayList<>());
    AtomicReference<String> description = new AtomicReference<>();
    onASmallStack(() -> description.set(chain.toString()));
    assertTrue(description.get().length() < 1_000, description.get());
    assertTrue(
        description
            .get()
            .endsWith("(99993 more calls)....thenNode(...).thenNode(...).thenNode(...)"),
        description.get());

    chain.syncOn(stream);
    onASmallStack(
        () -> {
          IllegalStateException again =
              assertThrows(IllegalStateException.class, () -> chain.syncOn(stream));
          assertTrue(again.getMessage().contains("already executed"), again.getMessage());
          assertTrue(again.getMessage().length() < 2_000, again.getMessage());
        });
  }
}
