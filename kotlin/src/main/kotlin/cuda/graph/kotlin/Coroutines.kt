// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.kotlin

import cuda.graph.CudaPlatform
import cuda.graph.DeviceOp
import cuda.graph.Stream
import kotlinx.coroutines.future.await

/**
 * Runs this op on [stream] and suspends until its GPU work has completed, without blocking a
 * thread: a read into a Java array at the end of the op (`toFloatArray()`, under `map`, last in a
 * `then` chain) is converted once its copy is seen complete. A read whose result the op needs
 * before more device work (the source of a `then`) still waits for its stream while the op is
 * submitted. The coroutine resumes through its dispatcher; a blocking callback elsewhere never
 * stalls this await.
 *
 * Cancellation: cancelling the coroutine stops waiting, but not the GPU work already submitted, and
 * never releases memory that work still uses: buffers stay leased until the work completes, whoever
 * waits for it. The op's result is then dropped.
 */
suspend fun <T> DeviceOp<T>.await(stream: Stream): T = asyncOn(stream).await()

/**
 * Runs this op on the stream the current platform's policy picks and suspends until it completes;
 * see [await].
 */
suspend fun <T> DeviceOp<T>.await(): T = async().await()

/** Runs [block] with this platform as the one `sync()`, `async()` and [await] use. */
fun <R> CudaPlatform.asCurrent(block: () -> R): R = callAsCurrent { block() }
