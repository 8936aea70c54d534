// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.kotlin

import cuda.graph.Buckets
import cuda.graph.CudaDriverError
import cuda.graph.CudaException
import cuda.graph.CudaGraph
import cuda.graph.CudaPlatform
import cuda.graph.CudaProviderException
import cuda.graph.Device
import cuda.graph.DeviceBuffer
import cuda.graph.DeviceOp
import cuda.graph.ElementType
import cuda.graph.GraphCache
import cuda.graph.GraphCaptureException
import cuda.graph.GraphNode
import cuda.graph.ReentrantExecutionException
import cuda.graph.Stream
import cuda.graph.simulator.Simulator
import kotlin.reflect.KFunction
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

// Functions whose inferred return types show how Kotlin reads the Java API's nullness.
private fun deviceName(device: Device) = device.name()

private fun valueResult(op: DeviceOp<Int>, stream: Stream) = op.syncOn(stream)

private fun voidResult(op: GraphNode<Void?>, stream: Stream) = op.syncOn(stream)

private fun newStream(device: Device) = device.newStream()

/**
 * Maps every library exception to a label; compiles only because the hierarchy is sealed and Kotlin
 * sees it.
 */
private fun kind(e: CudaException): String =
  when (e) {
    is CudaDriverError -> "driver ${e.code()}"
    is CudaProviderException -> "provider"
    is ReentrantExecutionException -> "reentrant"
    is GraphCaptureException -> "capture"
  }

class KotlinInteropTests {

  @Test
  fun kotlinSeesTheJavaApisNullnessNotPlatformTypes() {
    // A platform type would print as "kotlin.String!"; JSpecify's @NullMarked makes it definite.
    assertEquals("kotlin.String", (::deviceName as KFunction<*>).returnType.toString())
    assertEquals("cuda.graph.Stream", (::newStream as KFunction<*>).returnType.toString())
    assertEquals("kotlin.Int", (::valueResult as KFunction<*>).returnType.toString())
    assertEquals("java.lang.Void?", (::voidResult as KFunction<*>).returnType.toString())
  }

  @Test
  fun aWhenOverTheSealedExceptionsIsExhaustiveWithoutElse() {
    CudaPlatform.forDriver(Simulator.builder().deviceMemoryBytes(1 shl 20).build(), "simulator")
      .use { platform ->
        platform.defaultDevice().newStream().use { stream ->
          val oom =
            assertFailsWith<CudaDriverError> {
              DeviceBuffer.zeros(ElementType.F32, 1L shl 30).syncOn(stream)
            }
          assertEquals("driver 2", kind(oom))
          val nested =
            assertFailsWith<ReentrantExecutionException> {
              DeviceOp.value(1)
                .then { DeviceOp.value(it + DeviceOp.value(2).syncOn(stream)) }
                .syncOn(stream)
            }
          assertEquals("reentrant", kind(nested))
        }
      }
  }

  @Test
  fun theDslCapturesRecordedNodesAndInfixZipPairsResults() {
    CudaPlatform.forDriver(Simulator.create(), "simulator").use { platform ->
      platform.defaultDevice().newStream().use { stream ->
        val pair = (DeviceOp.value(2) zip DeviceOp.value("x")).syncOn(stream)
        assertEquals(2 to "x", pair)
        DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream).use { buffer ->
          val graph: CudaGraph<Void?> =
            cudaGraph(stream) {
              +buffer.fill(7)
              assertEquals(5, record(DeviceOp.value(5)))
            }
          graph.use { repeat(2) { graph.launch().syncOn(stream) } }
          assertEquals(listOf(7, 7, 7, 7), buffer.toIntArray().syncOn(stream).toList())
        }
      }
    }
  }

  @Test
  fun aGraphCacheFromKotlinRecordsEachBucketOnceWithItsTemporaries() {
    CudaPlatform.forDriver(Simulator.create(), "simulator").use { platform ->
      platform.defaultDevice().newStream().use { stream ->
        DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream).use { out ->
          var recorded = 0
          stream
            .graphCache<Int>(GraphCache.Settings.budget(1L shl 20)) { rows ->
              recorded++
              val scratch = temporary(ElementType.I32, rows.toLong())
              +scratch.fill(rows)
              +out.slice(0, rows.toLong()).copyFrom(scratch)
            }
            .use { cache ->
              val bucket = Buckets.of(2, 4, 8).cover(3)
              repeat(2) { cache.launch(bucket.size).syncOn(stream) }
              assertEquals(1, recorded)
              assertEquals(1, bucket.padding())
              assertEquals(16L, cache.stats(4).orElseThrow().graphMemoryBytes())
              assertEquals(listOf(4, 4, 4, 4, 0, 0, 0, 0), out.toIntArray().syncOn(stream).toList())
            }
        }
      }
    }
  }
}
