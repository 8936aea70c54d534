// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The host-function registry and its upcall stub, driven the way the driver drives them: by calling
 * the stub's native address with the registration id as {@code userData}.
 */
class HostFunctionsTests {

  /** A downcall into the upcall stub: native code calling {@code void fn(void* userData)}. */
  private static final MethodHandle CALL_STUB =
      Ffm.downcall(HostFunctions.stub(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG));

  private final Object owner = new Object();

  @Test
  void aOneShotFunctionRunsOnceThroughTheStubAndIsForgotten() throws Throwable {
    AtomicInteger runs = new AtomicInteger();
    long id = HostFunctions.register(runs::incrementAndGet, owner, false);
    assertTrue(HostFunctions.isRegistered(id));
    CALL_STUB.invokeExact(id);
    assertEquals(1, runs.get());
    assertFalse(HostFunctions.isRegistered(id));
    CALL_STUB.invokeExact(id); // the driver would never do this; it logs and returns
    assertEquals(1, runs.get());
  }

  @Test
  void aRepeatingFunctionRunsOnEveryCallUntilItsOwnerForgetsIt() throws Throwable {
    AtomicInteger runs = new AtomicInteger();
    long id = HostFunctions.register(runs::incrementAndGet, owner, true);
    for (int i = 0; i < 3; i++) {
      CALL_STUB.invokeExact(id);
    }
    assertEquals(3, runs.get());
    HostFunctions.forgetRepeating(owner);
    assertFalse(HostFunctions.isRegistered(id));
  }

  @Test
  void whatAFunctionThrowsNeverLeavesTheUpcall() throws Throwable {
    long id =
        HostFunctions.register(
            () -> {
              throw new IllegalStateException("thrown on purpose by a test host function");
            },
            owner,
            false);
    // An exception escaping an upcall would terminate the JVM; reaching the next line is the test.
    CALL_STUB.invokeExact(id);
    assertFalse(HostFunctions.isRegistered(id));
    assertDoesNotThrow(() -> HostFunctions.invoke(Long.MAX_VALUE));
    assertEquals(0, HostFunctions.unreportedFailures());
  }

  @Test
  void forgettingOneOwnerKeepsOthersAndOneShots() {
    Object other = new Object();
    long repeating = HostFunctions.register(() -> {}, owner, true);
    long oneShot = HostFunctions.register(() -> {}, owner, false);
    long othersRepeating = HostFunctions.register(() -> {}, other, true);
    HostFunctions.forgetRepeating(owner);
    assertFalse(HostFunctions.isRegistered(repeating));
    assertTrue(HostFunctions.isRegistered(oneShot));
    assertTrue(HostFunctions.isRegistered(othersRepeating));
    HostFunctions.unregister(oneShot);
    HostFunctions.forgetRepeating(other);
    assertFalse(HostFunctions.isRegistered(oneShot));
    assertFalse(HostFunctions.isRegistered(othersRepeating));
  }
}
