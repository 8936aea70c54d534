// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
@file:JvmName("MlpInference")

package cuda.graph.examples

import cuda.graph.CudaPlatform
import cuda.graph.ElementType
import cuda.graph.HostBuffer
import cuda.graph.InputBinding
import cuda.graph.Stream
import cuda.graph.kotlin.module
import kotlin.math.abs
import kotlin.random.Random

/** What one comparison of eager execution and graph replay measured. */
data class InferenceReport(
  val steps: Int,
  val eagerMicrosPerStep: Double,
  val graphMicrosPerStep: Double,
  val maxErrorEager: Float,
  val maxErrorGraph: Float,
  val maxEagerGraphDifference: Float,
) {
  val speedup: Double
    get() = eagerMicrosPerStep / graphMicrosPerStep
}

/**
 * Runs [steps] inference steps of [model] eagerly (copy in, one launch per layer, copy out, wait)
 * and then as a captured graph replayed through a [cuda.graph.Module], on the current platform;
 * compares every output with the pure-Java reference. [progress] receives a line now and then.
 */
fun compareEagerAndGraph(
  model: MlpWeights,
  stream: Stream,
  steps: Int,
  progress: (String) -> Unit = {},
): InferenceReport {
  val device = stream.device()
  val inputs =
    List(steps) { step ->
      Random(1000L + step).let { r -> FloatArray(model.inputSize) { r.nextFloat() * 2 - 1 } }
    }
  val references = inputs.map(model::reference)
  DeviceMlp(model, stream).use { mlp ->
    device.allocateHost(ElementType.F32, model.inputSize.toLong()).use { staging ->
      device.allocateHost(ElementType.F32, model.outputSize.toLong()).use { result ->
        // Eager: the same work as the graph, submitted op by op each step.
        val eagerOutputs = ArrayList<FloatArray>(steps)
        val eagerNanos =
          timed(steps, "eager", progress) { step ->
            staging.write(inputs[step])
            mlp.input
              .copyFrom(staging)
              .andThen(mlp.forward())
              .andThen(mlp.output.copyTo(result))
              .syncOn(stream)
            eagerOutputs += result.toFloatArray()
          }
        // Graph: captured once; each step copies the input in and replays it.
        val graphOutputs = ArrayList<FloatArray>(steps)
        val forward = mlp.forward().andThen(mlp.output.copyTo(result)).map { result }
        stream
          .module(InputBinding.floats(staging, mlp.input), forward, HostBuffer<Float>::toFloatArray)
          .use { module ->
            val graphNanos =
              timed(steps, "graph", progress) { step ->
                graphOutputs += module.forward(inputs[step])
              }
            return InferenceReport(
              steps = steps,
              eagerMicrosPerStep = eagerNanos / 1e3 / steps,
              graphMicrosPerStep = graphNanos / 1e3 / steps,
              maxErrorEager = maxError(eagerOutputs, references),
              maxErrorGraph = maxError(graphOutputs, references),
              maxEagerGraphDifference = maxError(eagerOutputs, graphOutputs),
            )
          }
      }
    }
  }
}

private inline fun timed(
  steps: Int,
  label: String,
  progress: (String) -> Unit,
  step: (Int) -> Unit,
): Long {
  val every = maxOf(1, steps / 10)
  val start = System.nanoTime()
  for (i in 0 until steps) {
    step(i)
    if ((i + 1) % every == 0 && i + 1 < steps) progress("  $label: ${i + 1}/$steps steps")
  }
  return System.nanoTime() - start
}

private fun maxError(a: List<FloatArray>, b: List<FloatArray>): Float =
  a.indices.maxOf { s -> a[s].indices.maxOf { i -> abs(a[s][i] - b[s][i]) } }

/**
 * The example: an MLP inference loop (512 → 1024 → 1024 → 1024 → 256, ReLU), eager versus graph
 * replay. Runs on the GPU when one is present, on the simulator otherwise, and says which.
 * Argument: the number of steps (default 1000 on a GPU, 20 on the simulator).
 */
fun main(args: Array<String>) {
  val platform = CudaPlatform.system()
  val device = platform.defaultDevice()
  val onGpu = platform.providerId() != "simulator"
  println(
    if (onGpu) "Running on ${device.name()} through the '${platform.providerId()}' provider."
    else
      "No GPU provider is available: running on the CUDA simulator (${device.name()}); kernels run their Java references, so this checks the results, not the speed."
  )
  val steps = args.firstOrNull()?.toInt() ?: if (onGpu) 1000 else 20
  val model = MlpWeights(listOf(512, 1024, 1024, 1024, 256), seed = 42)
  println(
    "MLP ${model.sizes.joinToString(" -> ")}, ${model.weights.size} layers, $steps steps per mode"
  )
  device.newStream().use { stream ->
    val report = compareEagerAndGraph(model, stream, steps) { println(it) }
    if (onGpu) {
      println("eager: %.1f us/step".format(report.eagerMicrosPerStep))
      println("graph: %.1f us/step".format(report.graphMicrosPerStep))
      println("speedup of graph replay over eager: %.2fx".format(report.speedup))
    } else {
      // Java kernels and a model of the driver: their times vary run to run and say nothing
      // about a GPU, so no time and no ratio is printed as if it did.
      println(
        "timings: none on the simulator (its times say nothing about a GPU); run it on a GPU for" +
          " eager and graph times"
      )
    }
    println(
      "largest error against the Java reference: eager %.3g, graph %.3g; eager vs graph %.3g"
        .format(report.maxErrorEager, report.maxErrorGraph, report.maxEagerGraphDifference)
    )
  }
}
