// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.kotlin

import cuda.graph.CudaPlatform
import cuda.graph.DeviceBuffer
import cuda.graph.ElementType
import cuda.graph.simulator.Simulator
import cuda.graph.spi.DriverCall
import cuda.graph.spi.HandleKind
import cuda.graph.testkit.InstrumentedDriver
import java.time.Duration
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

class CoroutinesTests {

  @Test
  fun awaitSuspendsUntilTheGpuWorkIsDone() = runBlocking {
    CudaPlatform.forDriver(
        Simulator.builder().executionDelay(Duration.ofMillis(5)).build(),
        "simulator",
      )
      .use { platform ->
        platform.defaultDevice().newStream().use { stream ->
          val buffer = DeviceBuffer.fromArray(intArrayOf(1, 2, 3)).await(stream)
          buffer.use { assertEquals(listOf(1, 2, 3), it.toIntArray().await(stream).toList()) }
        }
      }
  }

  @Test
  fun aCancelledAwaitNeverReleasesMemoryTheGpuStillUses() = runBlocking {
    val simulator =
      InstrumentedDriver(Simulator.builder().executionDelay(Duration.ofMillis(500)).build())
    CudaPlatform.forDriver(simulator, "simulator").use { platform ->
      platform.defaultDevice().newStream().use { stream ->
        val buffer = DeviceBuffer.zeros(ElementType.I32, 1024).syncOn(stream)
        val freesBefore = simulator.calls().count(DriverCall.MEM_FREE_ASYNC)
        // The fill is queued behind a 500 ms delay; the coroutine gives up waiting after 5 ms. (At
        // 40 ms a slow start of the coroutine machinery on a loaded machine let the fill finish
        // first.) Started undispatched, the coroutine enqueues the fill before async returns: a
        // dispatched start could be cancelled by the timeout before it enqueued anything.
        val waiting = async(start = CoroutineStart.UNDISPATCHED) { buffer.fill(9).await(stream) }
        assertFailsWith<CancellationException> { withTimeout(5) { waiting.await() } }
        waiting.cancel()
        buffer.close()
        // The owner closed it and nobody waits any more, but the queued fill still holds it.
        assertEquals(
          freesBefore,
          simulator.calls().count(DriverCall.MEM_FREE_ASYNC),
          "freed while the fill was queued",
        )
        assertEquals(1, simulator.ledger().live(HandleKind.DEVICE_MEMORY))
        stream.synchronize()
        val deadline = System.nanoTime() + 5_000_000_000L
        while (
          simulator.ledger().live(HandleKind.DEVICE_MEMORY) != 0L && System.nanoTime() < deadline
        ) Thread.sleep(5)
        assertTrue(
          simulator.ledger().live(HandleKind.DEVICE_MEMORY) == 0L,
          "the memory is freed once the fill completed",
        )
      }
    }
  }
}
