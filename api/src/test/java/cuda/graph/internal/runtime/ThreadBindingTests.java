// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.DriverCall;
import cuda.graph.testkit.InstrumentedDriver;
import org.junit.jupiter.api.Test;

/**
 * The current context is the thread's, for the whole process: two platforms over one real driver
 * share it (here: two translating drivers over one simulator, as two platforms over libcuda).
 */
class ThreadBindingTests {

  @Test
  void aPlatformBindsAgainAfterAnotherPlatformMadeNoContextCurrentOnTheThread() {
    try (InstrumentedDriver driver = new InstrumentedDriver(Simulator.create())) {
      driver.init(0);
      CuContext context = driver.devicePrimaryCtxRetain(driver.deviceGet(0));
      ThreadBinding first = new ThreadBinding(new TranslatingDriver(driver));
      ThreadBinding second = new ThreadBinding(new TranslatingDriver(driver));

      first.bind(context);
      second.bind(context); // another driver object: it cannot know the first one's binding
      second.bind(context); // already bound through it: no call
      assertEquals(2, driver.calls().count(DriverCall.CTX_SET_CURRENT));

      first.forget(); // the first platform closes: it makes no context current on this thread
      driver.ctxSetCurrent(null);
      second.bind(context);

      assertEquals(4, driver.calls().count(DriverCall.CTX_SET_CURRENT), "bound again");
      assertEquals(context, driver.ctxGetCurrent());
      driver.devicePrimaryCtxRelease(driver.deviceGet(0));
    }
  }
}
