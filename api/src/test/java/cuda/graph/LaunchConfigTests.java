// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Each {@code with*} of {@link LaunchConfig} changes its own field and keeps all the others. */
class LaunchConfigTests {

  @Test
  void sharedMemorySetAfterProgrammaticLaunchKeepsTheLaunchProgrammatic() {
    LaunchConfig config = LaunchConfig.of(4, 32).withProgrammaticDependentLaunch();
    LaunchConfig withShared = config.withSharedMemory(64);
    assertTrue(withShared.programmaticDependentLaunch(), withShared::toString);
    assertEquals(new LaunchConfig(Dim3.of(4), Dim3.of(32), 64, true), withShared);
  }

  /** One {@code with*} call, applied to a config and to the expected values of its fields. */
  sealed interface With permits SharedMemory, Programmatic {
    LaunchConfig apply(LaunchConfig config);

    LaunchConfig expected(LaunchConfig before);
  }

  record SharedMemory(int bytes) implements With {
    @Override
    public LaunchConfig apply(LaunchConfig config) {
      return config.withSharedMemory(bytes);
    }

    @Override
    public LaunchConfig expected(LaunchConfig before) {
      return new LaunchConfig(
          before.grid(), before.block(), bytes, before.programmaticDependentLaunch());
    }
  }

  record Programmatic() implements With {
    @Override
    public LaunchConfig apply(LaunchConfig config) {
      return config.withProgrammaticDependentLaunch();
    }

    @Override
    public LaunchConfig expected(LaunchConfig before) {
      return new LaunchConfig(before.grid(), before.block(), before.sharedMemoryBytes(), true);
    }
  }

  @Provide
  Arbitrary<List<With>> calls() {
    Arbitrary<With> shared =
        Arbitraries.integers().between(0, 1 << 16).map(bytes -> (With) new SharedMemory(bytes));
    Arbitrary<With> programmatic = Arbitraries.just(new Programmatic());
    return Arbitraries.oneOf(shared, programmatic).list().ofMaxSize(8);
  }

  @Property(tries = 200)
  void everyWithKeepsTheFieldsItDoesNotSet(
      @ForAll @IntRange(min = 1, max = 1 << 16) int gridX,
      @ForAll @IntRange(min = 1, max = 1024) int blockY,
      @ForAll @IntRange(min = 0, max = 1 << 16) int sharedMemory,
      @ForAll boolean programmatic,
      @ForAll("calls") List<With> calls) {
    LaunchConfig config =
        new LaunchConfig(new Dim3(gridX, 2, 1), new Dim3(1, blockY, 3), sharedMemory, programmatic);
    for (With call : calls) {
      LaunchConfig expected = call.expected(config);
      config = call.apply(config);
      assertEquals(expected, config, () -> "after " + call + " of " + calls);
    }
  }
}
