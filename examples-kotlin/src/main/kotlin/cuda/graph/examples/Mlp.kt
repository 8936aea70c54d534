// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples

import cuda.graph.DeviceBuffer
import cuda.graph.ElementType
import cuda.graph.GraphNode
import cuda.graph.Kernel
import cuda.graph.KernelImage
import cuda.graph.KernelParam
import cuda.graph.LaunchConfig
import cuda.graph.Stream
import cuda.graph.kotlin.nodes
import java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED
import kotlin.random.Random

/** The dense-layer kernel `y = act(W x + b)`, from PTX, with its Java reference. */
object MlpKernels {
  val dense: Kernel =
    KernelImage.ptxResource(MlpKernels::class.java, "mlp.ptx")
      .withReference("dense") { call ->
        val inputs = call.i32(0)
        val outputs = call.i32(1)
        val w = call.memory(2, 4L * inputs * outputs)
        val b = call.memory(3, 4L * outputs)
        val x = call.memory(4, 4L * inputs)
        val y = call.memory(5, 4L * outputs)
        val relu = call.i32(6) != 0
        for (j in 0 until outputs) {
          var acc = b.getAtIndex(JAVA_FLOAT_UNALIGNED, j.toLong())
          val row = j.toLong() * inputs
          for (i in 0 until inputs) {
            // fma, as the GPU computes `acc += w * x`: results match bit for bit.
            acc =
              Math.fma(
                w.getAtIndex(JAVA_FLOAT_UNALIGNED, row + i),
                x.getAtIndex(JAVA_FLOAT_UNALIGNED, i.toLong()),
                acc,
              )
          }
          y.setAtIndex(JAVA_FLOAT_UNALIGNED, j.toLong(), if (relu && acc < 0f) 0f else acc)
        }
      }
      .kernel(
        "dense",
        KernelParam.I32,
        KernelParam.I32,
        KernelParam.pointer(ElementType.F32),
        KernelParam.pointer(ElementType.F32),
        KernelParam.pointer(ElementType.F32),
        KernelParam.pointer(ElementType.F32),
        KernelParam.I32,
      )
}

/** The weights of a multi-layer perceptron: ReLU between layers, none after the last. */
class MlpWeights(val sizes: List<Int>, seed: Long) {
  val weights: List<FloatArray>
  val biases: List<FloatArray>

  init {
    require(sizes.size >= 2) { "an MLP needs an input and an output size" }
    val random = Random(seed)
    weights =
      sizes.zipWithNext { inputs, outputs ->
        val scale = 1f / kotlin.math.sqrt(inputs.toFloat())
        FloatArray(inputs * outputs) { (random.nextFloat() * 2 - 1) * scale }
      }
    biases = sizes.drop(1).map { n -> FloatArray(n) { (random.nextFloat() * 2 - 1) * 0.1f } }
  }

  val inputSize: Int
    get() = sizes.first()

  val outputSize: Int
    get() = sizes.last()

  /**
   * The forward pass in plain Java arithmetic: the reference the GPU results are checked against.
   */
  fun reference(input: FloatArray): FloatArray {
    var x = input
    for (layer in weights.indices) {
      val inputs = sizes[layer]
      val outputs = sizes[layer + 1]
      val relu = layer < weights.size - 1
      x =
        FloatArray(outputs) { j ->
          var acc = biases[layer][j]
          for (i in 0 until inputs) acc = Math.fma(weights[layer][j * inputs + i], x[i], acc)
          if (relu && acc < 0f) 0f else acc
        }
    }
    return x
  }
}

/**
 * An MLP on a device: weights uploaded once, activations pre-allocated, so the forward pass is a
 * sequence of kernel launches over fixed buffers: exactly what a graph can capture and replay.
 */
class DeviceMlp(val model: MlpWeights, stream: Stream) : AutoCloseable {
  private val weights = model.weights.map { DeviceBuffer.fromArray(it).syncOn(stream) }
  private val biases = model.biases.map { DeviceBuffer.fromArray(it).syncOn(stream) }
  /** activations[0] is the input; activations[last] the output. */
  val activations: List<DeviceBuffer<Float>> =
    model.sizes.map { DeviceBuffer.zeros(ElementType.F32, it.toLong()).syncOn(stream) }

  init {
    MlpKernels.dense.load(stream.device())
  }

  /** The forward pass over [activations]: one launch per layer. */
  fun forward(): GraphNode<Void?> =
    nodes(
      *Array(weights.size) { layer ->
        val outputs = model.sizes[layer + 1]
        MlpKernels.dense.launch(
          LaunchConfig.covering(outputs.toLong(), 128),
          model.sizes[layer],
          outputs,
          weights[layer],
          biases[layer],
          activations[layer],
          activations[layer + 1],
          if (layer < weights.size - 1) 1 else 0,
        )
      }
    )

  val input: DeviceBuffer<Float>
    get() = activations.first()

  val output: DeviceBuffer<Float>
    get() = activations.last()

  override fun close() {
    (weights + biases + activations).forEach { it.close() }
  }
}
