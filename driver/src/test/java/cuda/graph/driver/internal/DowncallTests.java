// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.WrongMethodTypeException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Lazy linking, with plain method handles standing in for downcalls: nothing is linked until the
 * first call, then once, and a failed link is retried.
 */
class DowncallTests {

  private static final MethodType INT_TO_INT = MethodType.methodType(int.class, int.class);

  private static int plusOne(int x) {
    return x + 1;
  }

  private static MethodHandle plusOne() {
    try {
      return MethodHandles.lookup().findStatic(DowncallTests.class, "plusOne", INT_TO_INT);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void linksOnTheFirstCallAndOnlyThen() throws Throwable {
    AtomicInteger links = new AtomicInteger();
    MethodHandle handle =
        Downcall.lazy(
            INT_TO_INT,
            () -> {
              links.incrementAndGet();
              return plusOne();
            });
    assertEquals(INT_TO_INT, handle.type());
    assertEquals(0, links.get(), "made, not linked");
    assertEquals(42, (int) handle.invokeExact(41));
    assertEquals(1, links.get());
    for (int i = 0; i < 1000; i++) {
      assertEquals(i + 1, (int) handle.invokeExact(i));
    }
    assertEquals(1, links.get(), "linked once");
  }

  @Test
  void aFailedLinkPropagatesAndIsTriedAgain() throws Throwable {
    AtomicInteger links = new AtomicInteger();
    MethodHandle handle =
        Downcall.lazy(
            INT_TO_INT,
            () -> {
              if (links.incrementAndGet() == 1) {
                throw new IllegalStateException("no CUDA driver library is bound yet");
              }
              return plusOne();
            });
    IllegalStateException failure =
        assertThrows(IllegalStateException.class, () -> invoke(handle, 1));
    assertEquals("no CUDA driver library is bound yet", failure.getMessage());
    assertEquals(3, (int) handle.invokeExact(2));
    assertEquals(2, links.get());
  }

  @Test
  void aLinkerOfTheWrongTypeIsRefusedBeforeAnythingIsKept() {
    MethodHandle handle =
        Downcall.lazy(MethodType.methodType(int.class, long.class), DowncallTests::plusOne);
    assertThrows(WrongMethodTypeException.class, () -> invoke(handle, 1L));
    assertThrows(WrongMethodTypeException.class, () -> invoke(handle, 1L));
  }

  @Test
  void rethrowPassesUncheckedThrowablesAndRefusesCheckedOnes() {
    IllegalStateException unchecked = new IllegalStateException("closed arena");
    assertSame(unchecked, Downcall.rethrow(unchecked));
    UnsatisfiedLinkError error = new UnsatisfiedLinkError("no symbol");
    assertSame(error, assertThrows(UnsatisfiedLinkError.class, () -> Downcall.rethrow(error)));
    AssertionError refused =
        assertThrows(
            AssertionError.class, () -> Downcall.rethrow(new java.io.IOException("checked")));
    assertEquals("checked", refused.getCause().getMessage());
  }

  private static int invoke(MethodHandle handle, int x) throws Throwable {
    return (int) handle.invokeExact(x);
  }

  private static int invoke(MethodHandle handle, long x) throws Throwable {
    return (int) handle.invokeExact(x);
  }
}
