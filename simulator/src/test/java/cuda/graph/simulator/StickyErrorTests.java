// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.StreamFlags;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sticky device errors: spec §2.2.3 (measured after a kernel wrote to address 8). */
@Timeout(20)
class StickyErrorTests {

  @AutoClose final SimFixture f = SimFixture.start();

  private void pokeAddress8() {
    f.launch("poke", f.stream, f.ptrArg(8));
  }

  @Test
  void illegalAddressIsReportedBySynchronizeAndStaysSticky() {
    pokeAddress8();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
  }

  @Test
  void afterTheFaultEveryContextUsingCallReturns700() {
    CuStream other = f.newStream();
    pokeAddress8();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(700, () -> f.driver.streamQuery(other));
    assertStatus(700, () -> f.driver.memAlloc(256));
    assertStatus(700, () -> f.driver.streamCreate(StreamFlags.NON_BLOCKING));
    assertStatus(700, () -> f.driver.streamBeginCapture(other, CaptureMode.GLOBAL));
  }

  @Test
  void contextFreeCallsStillSucceedAfterTheFault() {
    pokeAddress8();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    assertEquals(f.context, f.driver.ctxGetCurrent());
    assertEquals(
        1024,
        f.driver.deviceGetAttribute(DeviceAttribute.MAX_THREADS_PER_BLOCK, f.driver.deviceGet(0)));
    assertDoesNotThrow(() -> f.driver.ctxSetCurrent(null));
    assertNull(f.driver.ctxGetCurrent());
  }

  @Test
  void stickyErrorTakesPrecedenceOverArgumentErrors() {
    pokeAddress8();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(
        700,
        () -> f.driver.launchKernel(f.fn("probe"), 1, 1, 1, 1025, 1, 1, 0, f.stream, f.noArgs()));
  }

  @Test
  void releasingThePrimaryContextSucceedsButTheNextRetainReturns700() {
    pokeAddress8();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    int device = f.driver.deviceGet(0);
    assertDoesNotThrow(() -> f.driver.devicePrimaryCtxRelease(device));
    assertStatus(700, () -> f.driver.devicePrimaryCtxRetain(device));
  }

  @Test
  void kernelTouchingFreedMemoryFailsWithIllegalAddress() {
    long p = f.driver.memAlloc(256);
    f.driver.memFree(p);
    f.inc(f.stream, p);
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
  }

  @Test
  void kernelAccessStraddlingTheEndOfAnAllocationFailsWithIllegalAddress() {
    long p = f.driver.memAlloc(256);
    f.launch("pokeRange", f.stream, f.ptrLongArgs(p + 252, 8));
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
  }

  @Test
  void kernelAccessInsideAnAllocationIsFine() {
    long p = f.driver.memAlloc(256);
    f.launch("pokeRange", f.stream, f.ptrLongArgs(p, 256));
    assertDoesNotThrow(() -> f.driver.streamSynchronize(f.stream));
  }

  @Test
  void hostFunctionsAreNotCalledOnceTheContextHasAStickyError() {
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    pokeAddress8();
    f.driver.launchHostFunc(f.stream, calls::incrementAndGet);
    gate.countDown();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    assertEquals(0, calls.get());
  }

  @Test
  void stickyErrorDoesNotLeakIntoAnotherSimulator() {
    pokeAddress8();
    assertStatus(700, () -> f.driver.streamSynchronize(f.stream));
    try (SimFixture other = SimFixture.start()) {
      long p = other.allocInt();
      other.store(other.stream, p, 1);
      assertDoesNotThrow(() -> other.driver.streamSynchronize(other.stream));
      assertEquals(1, other.readInt(p));
    }
  }
}
