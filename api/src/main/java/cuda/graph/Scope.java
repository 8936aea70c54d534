// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.graph.ScopeImpl;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Records graph nodes into the graph {@link CudaGraph#scope} or {@link CudaGraph#scopeReturning} is
 * capturing.
 *
 * <p>{@link #record} accepts only {@link GraphNode}s, so allocating, freeing and staging ops are
 * rejected at compile time; the node's work is recorded, not run, and its result holds valid
 * handles whose data is computed when the graph is launched. Executing any op inside the scope
 * ({@code sync}, {@code syncOn}, {@code async}) fails with {@link ReentrantExecutionException}. A
 * scope belongs to the capturing thread and is dead once the capture ends.
 *
 * <p><b>Control flow on the device.</b> {@link #condition} makes a condition that kernels of the
 * graph set on the device; {@link #ifThen}, {@link #ifThenElse}, {@link #whileLoop} and {@link
 * #switchOf} record conditional nodes whose bodies are recorded, like this scope, by a {@link
 * ScopeBody} given its own scope (valid only while the body runs). Bodies nest, hold only
 * GraphNodes, and are recorded once; what runs, and how often, is decided on the device at each
 * launch. A body may not record host callbacks or event nodes (the driver refuses them in
 * conditional bodies when the graph is instantiated).
 *
 * <p><b>Parallel branches.</b> Record {@link GraphNode#parallel} to give the graph branches that
 * run concurrently and join before whatever is recorded next.
 *
 * <p><b>Temporaries.</b> {@link #temporary} gives the graph scratch memory of its own: an
 * allocation node where it is called and a free node after everything the scope records, so the
 * memory exists only while a replay runs. Allocating any other way stays refused in a capture.
 *
 * <p>For example, a WHILE node whose body runs until a kernel ({@code COUNTDOWN}: {@code counter[0]
 * -= 1}, then it sets its {@link KernelParam#CONDITION} argument to whether {@code counter[0]} is
 * still positive) clears the condition, and two fills recorded as nodes to change later, which the
 * body returns through {@link CudaGraph#scopeReturning} in a record of its own:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=scope-nodes}
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=scope}
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface Scope permits ScopeImpl {

  /**
   * Records {@code node} into the graph and returns its (not yet computed) result.
   *
   * @param <T> the type of the node's result
   * @param node the node whose work is recorded, not run
   * @return the node's result: valid handles whose data is computed when the graph is launched
   * @throws IllegalStateException if called off the capturing thread or after the capture ended
   */
  <T extends @Nullable Object> T record(GraphNode<T> node);

  /**
   * Records {@code node}, a single kernel launch, copy, fill or foreign node, and returns a handle
   * to the graph node it became, so that {@link CudaGraph#replaceNode} (and, for a kernel, copy or
   * fill, {@link CudaGraph#setEnabled}) can change it later without capturing again.
   *
   * <p>A {@link GraphNode#foreign} node's work may enqueue several driver nodes (a cuBLASLt matrix
   * product enqueues one or more kernels, sometimes fills), so it is recorded as one child-graph
   * node ({@link NodeKind#CHILD_GRAPH}): its work is called once, on an auxiliary stream capturing
   * into a graph of its own, and the node, added after the work recorded so far and before the work
   * recorded next, runs that graph. Its buffers are leased as {@link #record} leases them. {@link
   * CudaGraph#replaceNode} then gives it the work of a foreign node of the same shape.
   *
   * @param node a {@link Kernel#launch}, a {@link DeviceBuffer#copyFrom}/{@link
   *     DeviceBuffer#copyTo}, a {@link DeviceBuffer#fill} or a {@link GraphNode#foreign} node, not
   *     a composition
   * @return the recorded node, valid for the graph this scope records
   * @throws IllegalArgumentException if {@code node} is not one kernel launch, copy, fill or
   *     foreign node
   * @throws IllegalStateException if called off the capturing thread, after the capture ended, or
   *     inside a conditional body (whose nodes are changed by recapturing)
   */
  RecordedNode recordNode(GraphNode<@Nullable Void> node);

  /**
   * Allocates a temporary: device memory that exists only while a replay of this graph runs, for
   * the graph's own nodes to use as scratch space.
   *
   * <p>The capture records an allocation node here ({@code cuMemAllocAsync} on the capturing
   * stream) and, once the scope's body has returned, a free node after everything the scope
   * recorded ({@code cuMemFreeAsync}, after parallel branches have joined and conditional nodes),
   * so the graph owns the memory. The address is fixed for the graph's lifetime; the contents are
   * not: they are undefined when a replay starts and do not survive it (write before reading, in
   * every replay), and the driver may give the memory to other graphs' allocations in between.
   *
   * <p>Only nodes recorded by this capture may use the buffer: kernel launches, copies, fills and
   * foreign nodes recorded through this scope, its conditional bodies and parallel branches. Every
   * other use fails with {@link IllegalStateException}, naming the temporary and its capture,
   * before any driver call: an op executed outside a capture or recorded by another capture
   * (another graph, or a later recapture of this one), a node built after this capture ended, a
   * read into or write from the host, {@link DeviceBuffer#duplicate}, {@link DeviceBuffer#free} and
   * {@link DeviceBuffer#close} (the buffer is released with the graph; it is {@linkplain
   * DeviceBuffer#isClosed() closed} once the capture has ended). It holds no lease and does not
   * keep the graph alive; its {@linkplain DeviceBuffer#slice slices} are temporaries of the same
   * capture.
   *
   * <p>Driver rules for graphs with memory nodes that the library follows for you: a recapture that
   * has temporaries, or replaces a capture that had some, is instantiated anew ({@link
   * GraphUpdate.Reinstantiated} says so) rather than updated in place, because an in-place update
   * keeps the allocation nodes the exec was instantiated with; each graph is instantiated once, as
   * the driver allows one exec per graph with memory nodes; launches of one exec run one after the
   * other, so a replay's temporaries are never shared with another replay of the same graph.
   *
   * @param <T> the Java type of one element
   * @param type the element type
   * @param length the number of elements, at least 1
   * @return the temporary, usable by this capture's nodes only
   * @throws IllegalArgumentException if {@code length} is not positive, or the byte size would
   *     overflow a {@code long}
   * @throws IllegalStateException if called off the capturing thread, after the capture ended, or
   *     inside a conditional body (CUDA allows no allocation node there: allocate it before the
   *     conditional node and use it in the body)
   */
  <T> DeviceBuffer<T> temporary(ElementType<T> type, long length);

  /**
   * Creates a condition for a conditional node of this scope's graph; every launch starts with it
   * at {@code defaultValue}.
   *
   * @param defaultValue the value at the start of every launch: for IF and WHILE, non-zero means
   *     true; for SWITCH, the case to run
   * @return the condition, to pass to kernels as a {@link KernelParam#CONDITION} argument and to
   *     test in a conditional node of this scope
   * @throws IllegalStateException if called off the capturing thread or after the capture ended
   */
  GraphCondition condition(int defaultValue);

  /**
   * Records an IF node: {@code body} runs once when {@code condition} is non-zero at this point of
   * a launch.
   *
   * @param condition a condition this scope made
   * @param body records the conditional body through the scope it is given
   * @throws IllegalArgumentException if {@code condition} was made by another scope
   */
  void ifThen(GraphCondition condition, ScopeBody body);

  /**
   * Records an IF node with two bodies: {@code then} runs when {@code condition} is non-zero at
   * this point of a launch, {@code otherwise} when it is zero. Needs a CUDA 12.8 driver.
   *
   * @param condition a condition this scope made
   * @param then records the body run when the condition is non-zero
   * @param otherwise records the body run when it is zero
   * @throws IllegalArgumentException if {@code condition} was made by another scope
   */
  void ifThenElse(GraphCondition condition, ScopeBody then, ScopeBody otherwise);

  /**
   * Records a WHILE node: {@code body} runs as long as {@code condition} is non-zero, tested before
   * the first run and after each; a kernel of the body typically updates it.
   *
   * @param condition a condition this scope made
   * @param body records the loop's body through the scope it is given
   * @throws IllegalArgumentException if {@code condition} was made by another scope
   */
  void whileLoop(GraphCondition condition, ScopeBody body);

  /**
   * Records a SWITCH node: case {@code n} of {@code cases} runs when {@code condition} is {@code n}
   * at this point of a launch, none when it is not below {@code cases.size()}. Needs a CUDA 12.8
   * driver.
   *
   * @param condition a condition this scope made
   * @param cases one body per value, from 0; at least one
   * @throws IllegalArgumentException if {@code condition} was made by another scope, or {@code
   *     cases} is empty
   */
  void switchOf(GraphCondition condition, List<ScopeBody> cases);
}
