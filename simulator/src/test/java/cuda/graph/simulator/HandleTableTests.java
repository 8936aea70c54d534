// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.ModuleImage;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulator's handle table: a destroyed handle used or destroyed again, or a handle it never
 * created, is undefined behaviour, reported as {@link UndefinedBehaviorException}.
 */
@Timeout(20)
class HandleTableTests {

  @AutoClose final SimFixture f = SimFixture.start();

  @Test
  void destroyingAStreamTwiceIsUndefinedBehaviour() {
    CuStream s = f.newStream();
    f.driver.streamDestroy(s);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.streamDestroy(s));
  }

  @Test
  void usingADestroyedStreamIsUndefinedBehaviour() {
    long p = f.allocInt();
    CuStream s = f.newStream();
    f.driver.streamDestroy(s);
    assertThrows(UndefinedBehaviorException.class, () -> f.inc(s, p));
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.streamSynchronize(s));
  }

  @Test
  void destroyingEventsGraphsAndExecsTwiceIsUndefinedBehaviour() {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventDestroy(e);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.eventDestroy(e));
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.eventQuery(e));

    CuGraph g = f.driver.graphCreate(0);
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphDestroy(g);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphDestroy(g));
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphInstantiate(g, 0));
    f.driver.graphExecDestroy(exec);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphExecDestroy(exec));
  }

  @Test
  void unloadingAModuleTwiceOrUsingItsFunctionsIsUndefinedBehaviour() {
    CuModule m =
        f.driver.moduleLoadData(
            ModuleImage.ptx(SimFixture.ptx("gone")).withJavaKernel("gone", l -> {}));
    CuFunction gone = f.driver.moduleGetFunction(m, "gone");
    f.driver.moduleUnload(m);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.moduleUnload(m));
    assertThrows(
        UndefinedBehaviorException.class,
        () -> f.driver.launchKernel(gone, 1, 1, 1, 1, 1, 1, 0, f.stream, f.noArgs()));
  }

  /**
   * The table remembers every destroyed handle in one bit (values are never reused), so a long run
   * stays in bounded memory; the call that destroyed a handle is named for the latest thousands.
   */
  @Test
  void aHandleDestroyedLongAgoIsStillRecognisedAndARecentOneNamesItsDestroyer() {
    CuEvent first = f.driver.eventCreate(0);
    f.driver.eventDestroy(first);
    CuEvent last = null;
    for (int i = 0; i < 5000; i++) {
      last = f.driver.eventCreate(0);
      f.driver.eventDestroy(last);
    }
    CuEvent recent = last;
    UndefinedBehaviorException old =
        assertThrows(UndefinedBehaviorException.class, () -> f.driver.eventQuery(first));
    org.junit.jupiter.api.Assertions.assertTrue(
        old.getMessage().contains("was destroyed earlier"), old.getMessage());
    UndefinedBehaviorException fresh =
        assertThrows(UndefinedBehaviorException.class, () -> f.driver.eventQuery(recent));
    org.junit.jupiter.api.Assertions.assertTrue(
        fresh.getMessage().contains("was destroyed by cuEventDestroy"), fresh.getMessage());
  }

  @Test
  void aHandleThatWasNeverCreatedIsUndefinedBehaviour() {
    assertThrows(
        UndefinedBehaviorException.class,
        () -> f.driver.streamSynchronize(new CuStream(0xDEAD_0000L)));
    assertThrows(
        UndefinedBehaviorException.class, () -> f.driver.eventQuery(new CuEvent(0xDEAD_0000L)));
  }
}
