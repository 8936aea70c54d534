// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Random op trees built from {@code value}, array-backed buffers read back (through a kernel),
 * {@code map}, {@code then}, {@code zip} and {@code shared} (a shared op consumed in two places of
 * the tree) evaluate on the simulator to what a pure-Java evaluation of the same tree gives, and
 * every op in them executes exactly once.
 *
 * <p>200 tries per property: a try builds a fresh deterministic simulator (seeded by the try, so a
 * failure replays) and runs a tree of up to ~30 ops in a few milliseconds, so the property stays
 * around a second while covering trees of depth 0 to 5 with every node kind at every level.
 */
class OpTreePropertyTests {

  /** An expression tree: what to build as ops and what to compute in Java. */
  sealed interface Expr permits Leaf, ArrayLeaf, MapAdd, ThenMul, Zip, SharedTwice {}

  /** {@code value(v)}. */
  record Leaf(int value) implements Expr {}

  /**
   * A buffer made from {@code data}, incremented by a kernel, read back and summed: {@code
   * sum(data) + length}.
   */
  record ArrayLeaf(int[] data) implements Expr {
    @Override
    public String toString() {
      return "ArrayLeaf" + java.util.Arrays.toString(data);
    }
  }

  /** {@code e.map(x -> x + k)}. */
  record MapAdd(Expr e, int k) implements Expr {}

  /** {@code e.then(x -> value(x * k))}. */
  record ThenMul(Expr e, int k) implements Expr {}

  /** {@code zip(a, b, (x, y) -> 31 * x + y)}: not commutative, so swapped sides show. */
  record Zip(Expr a, Expr b) implements Expr {}

  /**
   * {@code s = e.shared(); zip(s.map(x -> x ^ k), s, (x, y) -> x - y)}: one shared op consumed
   * twice.
   */
  record SharedTwice(Expr e, int k) implements Expr {}

  static int evaluate(Expr expr) {
    return switch (expr) {
      case Leaf l -> l.value();
      case ArrayLeaf a -> {
        int sum = a.data().length;
        for (int x : a.data()) {
          sum += x;
        }
        yield sum;
      }
      case MapAdd m -> evaluate(m.e()) + m.k();
      case ThenMul t -> evaluate(t.e()) * t.k();
      case Zip z -> 31 * evaluate(z.a()) + evaluate(z.b());
      case SharedTwice s -> {
        int v = evaluate(s.e());
        yield (v ^ s.k()) - v;
      }
    };
  }

  /** Builds the ops of a tree, giving every function of every node a counter of its executions. */
  static final class Builder {
    final Map<Object, AtomicInteger> executions = new IdentityHashMap<>();

    private AtomicInteger counter(Object node) {
      AtomicInteger c = new AtomicInteger();
      // Keyed by a fresh object: the same record value may occur twice in a tree.
      executions.put(
          new Object() {
            @Override
            public String toString() {
              return String.valueOf(node);
            }
          },
          c);
      return c;
    }

    DeviceOp<Integer> build(Expr expr) {
      return switch (expr) {
        case Leaf l -> {
          AtomicInteger runs = counter(l);
          yield DeviceOp.value(l.value())
              .map(
                  x -> {
                    runs.incrementAndGet();
                    return x;
                  });
        }
        case ArrayLeaf a -> {
          AtomicInteger runs = counter(a);
          int n = a.data().length;
          yield DeviceBuffer.fromArray(a.data())
              .then(
                  b -> {
                    runs.incrementAndGet();
                    return KernelFixtures.ADD_ONE
                        .launch(LaunchConfig.covering(n, 32), n, b)
                        .andThen(b.toIntArray())
                        .zip(
                            b.free(),
                            (array, ignored) -> {
                              int sum = 0;
                              for (int x : array) {
                                sum += x;
                              }
                              return sum;
                            });
                  });
        }
        case MapAdd m -> {
          AtomicInteger runs = counter(m);
          yield build(m.e())
              .map(
                  x -> {
                    runs.incrementAndGet();
                    return x + m.k();
                  });
        }
        case ThenMul t -> {
          AtomicInteger runs = counter(t);
          yield build(t.e())
              .then(
                  x -> {
                    runs.incrementAndGet();
                    return DeviceOp.value(x * t.k());
                  });
        }
        case Zip z -> {
          AtomicInteger runs = counter(z);
          yield DeviceOp.zip(
              build(z.a()),
              build(z.b()),
              (x, y) -> {
                runs.incrementAndGet();
                return 31 * x + y;
              });
        }
        case SharedTwice s -> {
          AtomicInteger sourceRuns = counter("source of " + s);
          AtomicInteger combineRuns = counter(s);
          DeviceOp<Integer> shared =
              build(s.e())
                  .map(
                      x -> {
                        sourceRuns.incrementAndGet();
                        return x;
                      })
                  .shared();
          yield DeviceOp.zip(
              shared.map(x -> x ^ s.k()),
              shared,
              (x, y) -> {
                combineRuns.incrementAndGet();
                return x - y;
              });
        }
      };
    }
  }

  @Provide
  Arbitrary<Expr> trees() {
    return tree(5);
  }

  private Arbitrary<Expr> tree(int depth) {
    Arbitrary<Integer> small = Arbitraries.integers().between(-1000, 1000);
    Arbitrary<Expr> leaf = small.map(Leaf::new);
    Arbitrary<Expr> arrayLeaf =
        Arbitraries.integers()
            .between(-1000, 1000)
            .array(int[].class)
            .ofMinSize(1)
            .ofMaxSize(40)
            .map(ArrayLeaf::new);
    if (depth == 0) {
      return Arbitraries.oneOf(leaf, arrayLeaf);
    }
    Arbitrary<Expr> child = Arbitraries.lazy(() -> tree(depth - 1));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(1, leaf),
        net.jqwik.api.Tuple.of(1, arrayLeaf),
        net.jqwik.api.Tuple.of(2, Combinators.combine(child, small).as(MapAdd::new)),
        net.jqwik.api.Tuple.of(2, Combinators.combine(child, small).as(ThenMul::new)),
        net.jqwik.api.Tuple.of(3, Combinators.combine(child, child).as(Zip::new)),
        net.jqwik.api.Tuple.of(2, Combinators.combine(child, small).as(SharedTwice::new)));
  }

  // Edge cases off: those of a recursive arbitrary are mostly single leaves, which the random trees
  // cover anyway.
  @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
  void aRandomOpTreeComputesWhatJavaComputesAndEveryOpRunsOnce(
      @ForAll("trees") Expr tree, @ForAll long seed, @ForAll boolean asFuture) {
    InstrumentedDriver simulator =
        SimulatorPlatforms.instrumented(Simulator.builder().deterministic(seed).build());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator);
        Stream stream = platform.defaultDevice().newStream()) {
      Builder builder = new Builder();
      DeviceOp<Integer> op = builder.build(tree);
      int functions = builder.executions.size();
      Statistics.label("functions in the tree")
          .collect(
              functions <= 1 ? "1" : functions <= 5 ? "2-5" : functions <= 15 ? "6-15" : "16+");
      Statistics.label("has a shared op").collect(tree.toString().contains("SharedTwice"));
      Statistics.label("has a buffer").collect(tree.toString().contains("ArrayLeaf"));

      int result = asFuture ? op.asyncOn(stream).join() : op.syncOn(stream);

      assertEquals(evaluate(tree), result, tree::toString);
      List<String> notOnce = new ArrayList<>();
      builder.executions.forEach(
          (node, runs) -> {
            if (runs.get() != 1) {
              notOnce.add(node + " ran " + runs.get() + " times");
            }
          });
      assertEquals(List.of(), notOnce);
      assertEquals(
          0,
          simulator.ledger().live(HandleKind.DEVICE_MEMORY),
          "every buffer of the tree was freed");
      assertThrows(
          IllegalStateException.class,
          () -> op.syncOn(stream),
          "an executed tree cannot run again");
    }
  }
}
