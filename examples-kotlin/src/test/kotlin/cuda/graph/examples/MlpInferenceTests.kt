// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples

import cuda.graph.CudaPlatform
import cuda.graph.simulator.Simulator
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertTrue

class MlpInferenceTests {

  @Test
  fun graphReplayAndEagerExecutionBothEqualThePureJavaReference() {
    val model = MlpWeights(listOf(32, 64, 48, 16), seed = 7)
    CudaPlatform.forDriver(Simulator.create(), "simulator").use { platform ->
      platform.defaultDevice().newStream().use { stream ->
        val report = compareEagerAndGraph(model, stream, steps = 12)
        // The Java reference uses fma like the device code: results agree exactly.
        assertEquals(0f, report.maxErrorEager)
        assertEquals(0f, report.maxErrorGraph)
        assertEquals(0f, report.maxEagerGraphDifference)
        assertEquals(12, report.steps)
        assertTrue(report.eagerMicrosPerStep > 0 && report.graphMicrosPerStep > 0)
      }
    }
  }

  @Test
  fun theReferenceIsNotTrivial() {
    val model = MlpWeights(listOf(8, 16, 4), seed = 3)
    val a = model.reference(FloatArray(8) { it.toFloat() })
    val b = model.reference(FloatArray(8) { -it.toFloat() })
    assertTrue(
      a.any { it != 0f } && !a.contentEquals(b),
      "different inputs give different, non-zero outputs",
    )
  }
}
