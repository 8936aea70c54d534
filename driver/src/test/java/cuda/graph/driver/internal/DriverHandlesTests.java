// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link FfmCudaDriver}'s handle fields: every one is a {@code static final} (so the JIT folds it)
 * holding the handle of the entry it is named after. Handles of one signature are interchangeable
 * to {@code invokeExact}, so a field holding another entry's handle would call the wrong entry
 * point without any error; this catches it without a GPU.
 */
class DriverHandlesTests {

  /** The entry points of the launch path, which must never go through a non-constant handle. */
  private static final Set<CuEntry> HOT_PATH =
      EnumSet.of(
          CuEntry.LAUNCH_KERNEL,
          CuEntry.GRAPH_LAUNCH,
          CuEntry.STREAM_SYNCHRONIZE,
          CuEntry.STREAM_QUERY,
          CuEntry.EVENT_RECORD,
          CuEntry.EVENT_QUERY,
          CuEntry.STREAM_WAIT_EVENT,
          CuEntry.MEMCPY_HTOD_ASYNC,
          CuEntry.MEMCPY_DTOH_ASYNC,
          CuEntry.MEMCPY_DTOD_ASYNC,
          CuEntry.MEMSET_D8_ASYNC,
          CuEntry.MEMSET_D16_ASYNC,
          CuEntry.MEMSET_D32_ASYNC,
          CuEntry.MEMSET_D2D32_ASYNC);

  @Test
  void everyHandleFieldIsAStaticFinalHoldingTheHandleOfItsNamesake() throws Exception {
    boolean boundBefore = CudaLibrary.isBound();
    EnumSet<CuEntry> held = EnumSet.noneOf(CuEntry.class);
    for (Field field : FfmCudaDriver.class.getDeclaredFields()) {
      if (field.getType() != MethodHandle.class) {
        continue;
      }
      int modifiers = field.getModifiers();
      assertTrue(
          Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers),
          field.getName() + " must be static final");
      CuEntry entry = CuEntry.valueOf(field.getName());
      field.setAccessible(true);
      assertSame(entry.constantHandle(), field.get(null), field.getName());
      held.add(entry);
    }
    assertTrue(held.containsAll(HOT_PATH), "hot path without a static final: " + notIn(held));
    // Holding every handle bound nothing: linking waits for each entry's first call.
    assertEquals(boundBefore, CudaLibrary.isBound());
  }

  private static Set<CuEntry> notIn(Set<CuEntry> held) {
    EnumSet<CuEntry> missing = EnumSet.copyOf(HOT_PATH);
    missing.removeAll(held);
    return missing;
  }
}
