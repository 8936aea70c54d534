// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.kotlin

import cuda.graph.CaptureMode
import cuda.graph.CudaGraph
import cuda.graph.DeviceBuffer
import cuda.graph.DeviceOp
import cuda.graph.ElementType
import cuda.graph.GraphCache
import cuda.graph.GraphCondition
import cuda.graph.GraphNode
import cuda.graph.InputBinding
import cuda.graph.Kernel
import cuda.graph.KernelParam
import cuda.graph.LaunchConfig
import cuda.graph.RecordedNode
import cuda.graph.Scope
import cuda.graph.ScopeBody
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
 * The receiver of [cudaGraph], [cudaGraphReturning], [Stream.graphCache] and of the bodies of
 * conditional nodes: records graph nodes into the graph being captured, through a [Scope]. Only
 * [GraphNode]s can be recorded, so allocating ops are rejected by the compiler. A recorder belongs
 * to the capturing thread and is dead once its block returns.
 */
@CudaGraphDsl
class GraphRecorder internal constructor(private val scope: Scope) {

  /** Records [node] and returns its (not yet computed) result. */
  fun <T> record(node: GraphNode<T>): T = scope.record(node)

  /** Records this node: `+kernel.launch(...)`. */
  operator fun <T> GraphNode<T>.unaryPlus(): T = scope.record(this)

  /**
   * Records [node], one kernel launch, copy, fill or foreign node, and returns the graph node it
   * became, for [CudaGraph.replaceNode] and [CudaGraph.setEnabled]; see [Scope.recordNode]. Return
   * it from [cudaGraphReturning]'s block to get it out.
   */
  fun recordNode(node: GraphNode<Void?>): RecordedNode = scope.recordNode(node)

  /**
   * A buffer of [length] elements of [type] that exists only while a replay of this graph runs; see
   * [Scope.temporary].
   */
  fun <T : Any> temporary(type: ElementType<T>, length: Long): DeviceBuffer<T> =
    scope.temporary(type, length)

  /** [temporary] with an `Int` length. */
  fun <T : Any> temporary(type: ElementType<T>, length: Int): DeviceBuffer<T> =
    scope.temporary(type, length.toLong())

  /**
   * A condition that kernels of this graph set on the device (a [KernelParam.CONDITION] argument),
   * at [defaultValue] when each launch starts; see [Scope.condition].
   */
  fun condition(defaultValue: Int): GraphCondition = scope.condition(defaultValue)

  /** An IF node: [body] runs when [condition] is non-zero here; see [Scope.ifThen]. */
  fun ifThen(condition: GraphCondition, body: GraphRecorder.() -> Unit) =
    scope.ifThen(condition, body.asScopeBody())

  /**
   * An IF node with two bodies: [then] runs when [condition] is non-zero here, [otherwise] when it
   * is zero; see [Scope.ifThenElse].
   */
  fun ifThenElse(
    condition: GraphCondition,
    then: GraphRecorder.() -> Unit,
    otherwise: GraphRecorder.() -> Unit,
  ) = scope.ifThenElse(condition, then.asScopeBody(), otherwise.asScopeBody())

  /**
   * A WHILE node: [body] runs as long as [condition] is non-zero, tested before each run; a kernel
   * of the body typically clears it. See [Scope.whileLoop].
   */
  fun whileLoop(condition: GraphCondition, body: GraphRecorder.() -> Unit) =
    scope.whileLoop(condition, body.asScopeBody())

  /**
   * A SWITCH node: case `n` of [cases] runs when [condition] is `n` here, none when it is out of
   * range; see [Scope.switchOf].
   */
  fun switchOf(condition: GraphCondition, vararg cases: GraphRecorder.() -> Unit) =
    scope.switchOf(condition, cases.map { it.asScopeBody() })

  /** A body recorded, like this recorder's block, through a recorder of the body's own scope. */
  private fun (GraphRecorder.() -> Unit).asScopeBody(): ScopeBody = ScopeBody { bodyScope ->
    GraphRecorder(bodyScope).this()
  }
}

/**
 * Captures the nodes [block] records on [stream] into a graph (relaxed capture mode); see
 * [CudaGraph.scope]. Exceptions thrown by [block] propagate after the capture has been ended.
 */
fun cudaGraph(stream: Stream, block: GraphRecorder.() -> Unit): CudaGraph<Void?> =
  CudaGraph.scope(stream) { scope -> GraphRecorder(scope).block() }

/**
 * Captures the nodes [block] records on [stream], as [cudaGraph] does, and keeps what [block]
 * returns as the graph's output ([CudaGraph.takeOutput]): the [RecordedNode]s to change later, the
 * buffers the graph computes. See [CudaGraph.scopeReturning].
 */
fun <T> cudaGraphReturning(stream: Stream, block: GraphRecorder.() -> T): CudaGraph<T> =
  CudaGraph.scopeReturning(stream) { scope -> GraphRecorder(scope).block() }

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
