// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import java.util.HashSet;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Asks a provider's driver whether the graph a capturing stream records into (which the driver
 * creates implicitly at {@code cuStreamBeginCapture}) can have the address of a graph destroyed
 * earlier: empty captures are begun, their graph read with {@code cuStreamGetCaptureInfo}, ended
 * and destroyed, and the addresses compared. Prints one line per provider; the real driver reuses
 * addresses, which is what made the instruments report use after destroy for live graphs.
 *
 * <p>{@code java ... HandleReuseProbe [provider] [captures]}, provider {@code cuda} by default.
 */
public final class HandleReuseProbe {

  private HandleReuseProbe() {}

  public static void main(String[] args) {
    String id = args.length > 0 ? args[0] : "cuda";
    int captures = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    CudaDriverProvider provider =
        ServiceLoader.load(CudaDriverProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.id().equals(id))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no provider " + id));
    try (CudaDriver driver = provider.open()) {
      driver.init(0);
      int device = driver.deviceGet(0);
      CuContext context = driver.devicePrimaryCtxRetain(device);
      driver.ctxSetCurrent(context);
      CuStream stream = driver.streamCreate(1);
      Set<Long> destroyed = new HashSet<>();
      int reused = 0;
      int sameAsEnd = 0;
      for (int i = 0; i < captures; i++) {
        driver.streamBeginCapture(stream, CaptureMode.RELAXED);
        CaptureInfo info = driver.streamGetCaptureInfo(stream);
        CuGraph implicit = info.graph();
        CuGraph ended = driver.streamEndCapture(stream);
        if (implicit != null && destroyed.contains(implicit.address())) {
          reused++;
        }
        if (implicit != null && implicit.equals(ended)) {
          sameAsEnd++;
        }
        if (ended != null) {
          driver.graphDestroy(ended);
          destroyed.add(ended.address());
        }
      }
      driver.streamDestroy(stream);
      driver.ctxSetCurrent(null);
      driver.devicePrimaryCtxRelease(device);
      System.out.printf(
          "handle-reuse %s: %d captures, implicit capture graph had a destroyed graph's address %d"
              + " times, was the graph cuStreamEndCapture returned %d times%n",
          id, captures, reused, sameAsEnd);
    }
  }
}
