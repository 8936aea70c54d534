package cuda.graph.kotlin

import cuda.graph.CaptureMode
import cuda.graph.CudaGraph
import cuda.graph.DeviceBuffer
import cuda.graph.DeviceOp
import cuda.graph.ElementType
import cuda.graph.GraphCache
import cuda.graph.GraphNode
import cuda.graph.InputBinding
import cuda.graph.Kernel
import cuda.graph.LaunchConfig
import cuda.graph.Scope
import cuda.graph.Stream

/**
 * Marks the receivers of cuda-graph's Kotlin builders, so that inside a nested builder the outer
 * receiver's members are not called by accident.
 */
@DslMarker
@Target(AnnotationTarget.CLASS, AnnotationTarget.TYPE, AnnotationTarget.TYPEALIAS)
annotation class CudaGraphDsl

/** `cuda.graph.Module` under a name that does not clash with `java.lang.Module`. */
typealias GraphModule<I, O> = cuda.graph.Module<I, O>

/**
 * The receiver of [cudaGraph]: records graph nodes into the graph being captured. Only [GraphNode]s
 * can be recorded, so allocating ops are rejected by the compiler.
 */
@CudaGraphDsl
class GraphRecorder internal constructor(private val scope: Scope) {

  /** Records [node] and returns its (not yet computed) result. */
  fun <T> record(node: GraphNode<T>): T = scope.record(node)

  /** Records this node: `+kernel.launch(...)`. */
  operator fun <T> GraphNode<T>.unaryPlus(): T = scope.record(this)

  /**
   * A buffer of [length] elements of [type] that exists only while a replay of this graph runs; see
   * [Scope.temporary].
   */
  fun <T : Any> temporary(type: ElementType<T>, length: Long): DeviceBuffer<T> =
    scope.temporary(type, length)
}

/**
 * Captures the nodes [block] records on [stream] into a graph (relaxed capture mode); see
 * [CudaGraph.scope]. Exceptions thrown by [block] propagate after the capture has been ended.
 */
fun cudaGraph(stream: Stream, block: GraphRecorder.() -> Unit): CudaGraph<Void?> =
  CudaGraph.scope(stream) { scope -> GraphRecorder(scope).block() }

/**
 * A [GraphCache] on this stream whose graph for a key is what [block] records for it; see
 * [GraphCache.create].
 */
fun <K : Any> Stream.graphCache(
  settings: GraphCache.Settings,
  block: GraphRecorder.(K) -> Unit,
): GraphCache<K> =
  GraphCache.create(this, settings) { key: K, scope -> GraphRecorder(scope).block(key) }

/** Captures the op [build] returns on [stream]; see [CudaGraph.capture]. */
fun <T> captureGraph(
  stream: Stream,
  mode: CaptureMode = CaptureMode.RELAXED,
  build: () -> DeviceOp<T>,
): CudaGraph<T> = CudaGraph.capture(stream, mode, build())

/** Runs this op, then [other], on one stream, pairing their results. */
infix fun <A, B> DeviceOp<A>.zip(other: DeviceOp<B>): DeviceOp<Pair<A, B>> =
  zip(other) { a, b -> a to b }

/** Runs this graph node, then [next]: a graph node again. */
infix fun <T> GraphNode<*>.then(next: GraphNode<T>): GraphNode<T> =
  // andThen drops this node's result, so the type it is read as does not matter.
  @Suppress("UNCHECKED_CAST") (this as GraphNode<Any?>).andThen(next)

/** Graph nodes run in order, as one graph node. */
fun nodes(vararg nodes: GraphNode<*>): GraphNode<Void?> = GraphNode.sequence(*nodes)

/** Launches this kernel on a one-dimensional grid: [grid] blocks of [block] threads. */
fun Kernel.launch(grid: Int, block: Int, vararg arguments: Any): GraphNode<Void?> =
  launch(LaunchConfig.of(grid, block), *arguments)

/**
 * Captures a [GraphModule] on this stream: [forward] is replayed for every input, which [input]
 * copies into the buffer [forward] reads; [output] turns the captured output into each call's
 * result once the replay completed.
 */
fun <I : Any, C, O> Stream.module(
  input: InputBinding<I>,
  forward: DeviceOp<C>,
  output: (C) -> O,
): GraphModule<I, O> =
  cuda.graph.Module.capture(this, input, forward) { captured -> output(captured) }
