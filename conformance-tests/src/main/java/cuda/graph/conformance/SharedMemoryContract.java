// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.DriverCall;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Shared memory above a device's default for a block (48 KiB, {@code MAX_SHARED_MEMORY_PER_BLOCK}):
 * the library opts the kernel in ({@code cuFuncSetAttribute} with {@code
 * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}) before its first launch that asks for more,
 * once for each larger amount, on a stream and under capture; at or under the default it makes no
 * such call. Without the opt-in the driver refuses such a launch. A block's shared memory is the
 * kernel's static shared memory ({@code __shared__} variables) plus the launch's dynamic amount, so
 * a kernel with static shared memory opts in already at 48 KiB of dynamic, and a launch whose two
 * amounts together pass the device's opt-in limit is refused before the driver sees it.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface SharedMemoryContract extends ConformanceContract {

  /** The default a block gets without opting in, on every device the library supports. */
  int DEFAULT = 48 * 1024;

  /** Launches at the default, then above it eagerly and captured: one opt-in per larger amount. */
  @Test
  default void aLaunchAskingForMoreSharedMemoryThanTheDefaultRunsAfterOneOptIn() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      ConformanceKernels.load(stream.device());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      LaunchConfig one = LaunchConfig.of(1, 32);
      s.driver().calls().clear();
      ConformanceKernels.INC.launch(one.withSharedMemory(DEFAULT), 1, counter).syncOn(stream);
      assertEquals(
          0,
          s.driver().calls().count(DriverCall.FUNC_SET_ATTRIBUTE),
          "a launch at the default opts nothing in");
      for (int i = 0; i < 3; i++) {
        ConformanceKernels.INC.launch(one.withSharedMemory(64 * 1024), 1, counter).syncOn(stream);
      }
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, ConformanceKernels.INC.launch(one.withSharedMemory(96 * 1024), 1, counter))) {
        graph.launch().syncOn(stream);
        graph.launch().syncOn(stream);
      }
      ConformanceKernels.INC.launch(one.withSharedMemory(64 * 1024), 1, counter).syncOn(stream);
      assertEquals(
          2,
          s.driver().calls().count(DriverCall.FUNC_SET_ATTRIBUTE),
          "one opt-in for 64 KiB, one more for 96 KiB, none for a smaller amount after them");
      assertArrayEquals(new int[] {1 + 3 + 2 + 1}, counter.toIntArray().syncOn(stream));
    }
  }

  /**
   * A kernel with static shared memory: a launch whose dynamic amount passes the opt-in limit only
   * beside the static one is refused before the driver, eagerly and captured, with a message that
   * names the kernel, both amounts and the limit; one at exactly the default opts in once and runs.
   */
  @Test
  default void aKernelsStaticSharedMemoryCountsBesideTheDynamicAmount() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      ConformanceKernels.load(stream.device());
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      LaunchConfig one = LaunchConfig.of(1, 32);
      int optin = stream.device().attribute(Device.Attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
      // Within the opt-in limit alone, over it beside the kernel's static shared memory.
      LaunchConfig over =
          one.withSharedMemory(optin - ConformanceKernels.INC_STAGED_STATIC_SHARED_BYTES + 1);
      s.driver().calls().clear();
      IllegalArgumentException eager =
          assertThrows(
              IllegalArgumentException.class,
              () -> ConformanceKernels.INC_STAGED.launch(over, 1, counter).syncOn(stream));
      IllegalArgumentException captured =
          assertThrows(
              IllegalArgumentException.class,
              () -> {
                try (CudaGraph<@Nullable Void> graph =
                    CudaGraph.capture(
                        stream, ConformanceKernels.INC_STAGED.launch(over, 1, counter))) {
                  graph.launch().syncOn(stream);
                }
              });
      for (IllegalArgumentException e : List.of(eager, captured)) {
        for (String part :
            List.of(
                "inc_staged",
                over.sharedMemoryBytes() + " bytes of dynamic shared memory",
                "static shared memory",
                String.valueOf(optin),
                "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN")) {
          assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
      }
      assertEquals(0, s.driver().calls().count(DriverCall.LAUNCH_KERNEL), "refused before");
      assertEquals(0, s.driver().calls().count(DriverCall.FUNC_SET_ATTRIBUTE), "no opt-in either");

      ConformanceKernels.INC_STAGED
          .launch(one.withSharedMemory(DEFAULT), 1, counter)
          .syncOn(stream);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream,
              ConformanceKernels.INC_STAGED.launch(one.withSharedMemory(DEFAULT), 1, counter))) {
        graph.launch().syncOn(stream);
      }
      assertEquals(
          1,
          s.driver().calls().count(DriverCall.FUNC_SET_ATTRIBUTE),
          "48 KiB of dynamic shared memory beside static shared memory is more than the default:"
              + " one opt-in, before the first such launch");
      assertArrayEquals(new int[] {2}, counter.toIntArray().syncOn(stream));
    }
  }
}
