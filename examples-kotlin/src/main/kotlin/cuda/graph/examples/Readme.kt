// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples

import cuda.graph.CudaPlatform
import cuda.graph.DeviceBuffer
import cuda.graph.ElementType
import cuda.graph.kotlin.await
import cuda.graph.kotlin.cudaGraph
import kotlinx.coroutines.runBlocking

/** The Kotlin guide's example: record a graph with the DSL, replay it, await the result. */
fun main() = runBlocking {
  val platform = CudaPlatform.system() // the GPU if there is one, else the simulator
  platform.defaultDevice().newStream().use { stream ->
    DeviceBuffer.zeros(ElementType.F32, 4).await(stream).use { buffer ->
      // Only GraphNodes can be recorded: the compiler rejects allocations here.
      cudaGraph(stream) { +buffer.fill(2f) }
        .use { graph -> graph.launch().await(stream) } // one cuGraphLaunch
      // Suspends until the copy is done; no thread blocks, and memory in use is never freed.
      val values = buffer.toFloatArray().await(stream)
      println("on ${platform.providerId()}: ${values.joinToString()}")
    }
  }
}
