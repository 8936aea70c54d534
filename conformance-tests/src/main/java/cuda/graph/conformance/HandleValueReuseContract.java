// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import java.util.HashSet;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * The driver hands a destroyed graph's handle value to a graph it makes later: what the real driver
 * does (its handles are addresses of driver memory freed and allocated again) and what the
 * simulator models when built with {@code reuseHandleValues(true)}, as every simulator binding of
 * this kit is, so that a caller or an instrument that keys anything on a value past its destroy
 * fails without a GPU. Checked at the driver, with no instrument in between: empty captures are
 * begun, their graph read with {@code cuStreamGetCaptureInfo}, ended and destroyed, and the values
 * compared. On an H200 (driver 580) 1,989 of 2,000 such graphs had a destroyed graph's value
 * (benchmarks/runs/2026-12-03-changing-graphs/handle-reuse.txt); a driver that never reuses a value
 * fails here.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public interface HandleValueReuseContract extends ConformanceContract {

  /** How many captures are begun, ended and destroyed. */
  int CAPTURES = 1000;

  /**
   * Each capture's graph is the one {@code cuStreamEndCapture} returns, and nine in ten or more
   * have the value of a graph destroyed before (all but the first, on the simulator).
   */
  @Test
  default void aCapturesGraphIsTheOneEndCaptureReturnsAndTakesADestroyedGraphsValue() {
    try (CudaDriver driver = openDriver()) {
      driver.init(0);
      int device = driver.deviceGet(0);
      CuContext context = driver.devicePrimaryCtxRetain(device);
      try {
        driver.ctxSetCurrent(context);
        CuStream stream = driver.streamCreate(1);
        Set<Long> destroyed = new HashSet<>();
        int reused = 0;
        for (int i = 0; i < CAPTURES; i++) {
          driver.streamBeginCapture(stream, CaptureMode.RELAXED);
          CuGraph capturing = driver.streamGetCaptureInfo(stream).graph();
          CuGraph ended = driver.streamEndCapture(stream);
          int capture = i;
          assertNotNull(capturing, () -> "capture " + capture + " has no graph while it runs");
          assertEquals(capturing, ended, "capture " + i + ": the graph end capture returns");
          if (destroyed.contains(capturing.address())) {
            reused++;
          }
          driver.graphDestroy(ended);
          destroyed.add(ended.address());
        }
        driver.streamDestroy(stream);
        int times = reused;
        assertTrue(
            reused >= CAPTURES * 9 / 10,
            () ->
                times
                    + " of "
                    + CAPTURES
                    + " capture graphs had the value of a graph destroyed before; the real driver"
                    + " hands destroyed values out again (1,989 of 2,000 on an H200)");
      } finally {
        driver.ctxSetCurrent(null);
        driver.devicePrimaryCtxRelease(device);
      }
    }
  }
}
