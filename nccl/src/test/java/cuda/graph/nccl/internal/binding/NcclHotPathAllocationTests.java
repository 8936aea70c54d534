// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The collectives and group calls allocate nothing once compiled, measured against a fake whose
 * stubs allocate nothing either: rounds of calls are counted with the thread's allocation counter
 * until the JIT has done its work, and one round must come in under a byte per call.
 */
class NcclHotPathAllocationTests {

  private static final int CALLS_PER_ROUND = 10_000;
  private static final int MAX_ROUNDS = 40;

  @Test
  void collectivesAndGroupsAllocateNothingOnceCompiled() {
    AllocationCounter counter = AllocationCounter.find();
    assumeTrue(
        counter != null,
        "this runtime has no per-thread allocation counter (module jdk.management)");
    try (FakeNccl fake = FakeNccl.quiet()) {
      NcclLibrary nccl = fake.bind();
      List<Long> perRound = new ArrayList<>();
      boolean quiet = false;
      for (int round = 0; round < MAX_ROUNDS && !quiet; round++) {
        long before = counter.bytes();
        for (int i = 0; i < CALLS_PER_ROUND; i++) {
          nccl.groupStart();
          nccl.allReduce(0x10, 0x20, i, NcclDataTypes.FLOAT32, 0, 0xC0, 0x50);
          nccl.broadcast(0x10, 0x20, i, NcclDataTypes.FLOAT32, 0, 0xC0, 0x50);
          nccl.reduce(0x10, 0x20, i, NcclDataTypes.FLOAT32, 0, 0, 0xC0, 0x50);
          nccl.allGather(0x10, 0x20, i, NcclDataTypes.FLOAT32, 0xC0, 0x50);
          nccl.reduceScatter(0x10, 0x20, i, NcclDataTypes.FLOAT32, 0, 0xC0, 0x50);
          nccl.send(0x10, i, NcclDataTypes.FLOAT32, 1, 0xC0, 0x50);
          nccl.recv(0x20, i, NcclDataTypes.FLOAT32, 1, 0xC0, 0x50);
          nccl.groupEnd();
        }
        long allocated = counter.bytes() - before;
        perRound.add(allocated);
        quiet = allocated < CALLS_PER_ROUND;
      }
      assertTrue(
          quiet, "bytes allocated per round of " + CALLS_PER_ROUND + " x 9 calls: " + perRound);
    }
  }

  /**
   * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}, reached by core
   * reflection: the tests run patched into module {@code cuda.graph.nccl}, which does not read the
   * management modules, and core reflection needs no readability.
   */
  private record AllocationCounter(Object bean, Method read) {

    static @Nullable AllocationCounter find() {
      try {
        Object bean =
            Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getThreadMXBean")
                .invoke(null);
        Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
        if (!extended.isInstance(bean)) {
          return null;
        }
        return new AllocationCounter(bean, extended.getMethod("getCurrentThreadAllocatedBytes"));
      } catch (ReflectiveOperationException | LinkageError absent) {
        return null;
      }
    }

    long bytes() {
      try {
        return (long) read.invoke(bean);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("the allocation counter failed", e);
      }
    }
  }
}
