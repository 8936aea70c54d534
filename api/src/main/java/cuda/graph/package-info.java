// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The public API of cuda-graph: compose GPU work as lazy ops, run it on CUDA streams, and capture
 * it into CUDA graphs that replay with one driver call. Every public type of the library's core is
 * in this package; the implementation is in packages the module does not export.
 *
 * <h2>The families, and the type to start from in each</h2>
 *
 * <ul>
 *   <li><b>Platform and devices.</b> {@link CudaPlatform} is the driver the process uses, chosen
 *       among the installed providers ({@link CudaPlatform#system()}); it lists its {@link
 *       Device}s, which describe a GPU ({@link ComputeCapability}, {@link Device.Attribute}) and
 *       make its streams, events and host buffers. {@link SchedulingPolicy} picks the stream for
 *       {@link DeviceOp#sync()} and {@link DeviceOp#async()}.
 *   <li><b>Buffers and element types.</b> {@link DeviceBuffer} is device memory of one {@link
 *       ElementType}; {@link HostBuffer} is pinned host memory for asynchronous copies, and {@link
 *       MappedHostBuffer} host memory that kernels reach directly while the host reads it.
 *   <li><b>Ops and execution.</b> {@link DeviceOp} is a lazy description of GPU work, composed with
 *       {@code then}, {@code map} and {@code zip} and executed once, on a stream ({@code syncOn},
 *       {@code asyncOn}) or on the one the policy picks. Methods that build ops carry {@link
 *       CheckReturnValue}, so IDEs and Error Prone flag a built op that is dropped. {@link
 *       RawStreamFunction}, {@link ForeignWork} and {@link ForeignStream} let other CUDA libraries
 *       enqueue work inside an op.
 *   <li><b>Graphs, nodes and scopes.</b> {@link GraphNode} is the family of ops that can be
 *       recorded into a graph; {@link CudaGraph} captures an op, or a {@link ScopeBody} (a {@link
 *       ScopeFunction} when the body returns the graph's output) recording through a {@link Scope},
 *       and replays it as a {@link GraphLaunch}. A graph changes by {@link CudaGraph#recapture}
 *       (which reports a {@link GraphUpdate}) or node by node through a {@link RecordedNode};
 *       {@link NodeKind} and {@link GraphMemory} describe what a graph holds. {@link Module} is
 *       graph-backed inference (input copied in, graph replayed, output returned), and {@link
 *       GraphCache} a graph per shape bucket ({@link Buckets}) within a memory budget.
 *   <li><b>Conditions and loops.</b> A {@link GraphCondition}, made by {@link Scope#condition} and
 *       set by kernels on the device, drives the conditional nodes of {@link Scope#ifThen}, {@link
 *       Scope#ifThenElse}, {@link Scope#whileLoop} and {@link Scope#switchOf}.
 *   <li><b>Kernels.</b> {@link KernelImage} is device code (PTX, cubin, fatbin or CUDA source
 *       compiled at run time); a {@link Kernel} of it, declared with its {@link KernelParam}s, is
 *       launched with a {@link LaunchConfig} ({@link Dim3} grid and block). A {@link JavaKernel}
 *       sees a launch as a {@link KernelCall}: it is the reference the simulator runs and tests
 *       compare with.
 *   <li><b>Events and streams.</b> A {@link Stream} runs work in submission order; a {@link
 *       CudaEvent} orders work across streams and times it. {@link CaptureMode} says how a capture
 *       on a stream treats other threads' calls.
 *   <li><b>Errors.</b> {@link CudaException}, unchecked and sealed, is the root of what the library
 *       throws: {@link CudaDriverError} (a driver call failed; its message names the call and what
 *       to do), {@link CudaProviderException} (no usable driver), {@link
 *       ReentrantExecutionException} (an op executed inside another) and {@link
 *       GraphCaptureException} (work a graph cannot hold). Misuse found before any driver call (a
 *       closed buffer, a wrong argument) is an {@link IllegalStateException} or {@link
 *       IllegalArgumentException} naming the problem.
 * </ul>
 *
 * <h2>What the package guarantees</h2>
 *
 * <ul>
 *   <li><b>Closed types.</b> The handles users hold (platform, devices, streams, events, buffers,
 *       kernels, graphs, ops) are sealed interfaces that the library alone implements, and the
 *       exception hierarchy is sealed, so a {@code switch} over them is exhaustive; the functional
 *       interfaces ({@link ScopeBody}, {@link ScopeFunction}, {@link JavaKernel}, {@link
 *       InputBinding}, ...) are what users implement. Nothing in this package returns or accepts
 *       {@code null} unless its type says {@code @Nullable}.
 *   <li><b>Threads.</b> Platforms, devices, streams, events, kernels, images and graphs are safe to
 *       use from any thread. Execution is not reentrant: each thread executes one op at a time, and
 *       an op executed inside another's function, or inside a capture, fails with {@link
 *       ReentrantExecutionException}. A {@link Scope} belongs to the thread capturing. A host
 *       buffer is not safe for concurrent writes.
 *   <li><b>Results.</b> An op's result reaches the caller only after the GPU work that produced it
 *       has completed; separately executed ops are ordered only on one stream.
 *   <li><b>Lifetimes.</b> Handles are {@link AutoCloseable}, and {@code close()} is idempotent. A
 *       closed buffer, stream, event or graph is released only once no queued work, pending launch
 *       or captured graph still uses it; buffers, streams and events dropped without {@code
 *       close()} are released by a cleaner. The system platform lives as long as the process; one
 *       made with {@link CudaPlatform#forDriver} is closed by its caller, which waits for its work
 *       and then releases its graphs, memory and contexts.
 * </ul>
 */
@NullMarked
package cuda.graph;

import org.jspecify.annotations.NullMarked;
