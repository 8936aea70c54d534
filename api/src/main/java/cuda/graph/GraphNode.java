// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.kernel.KernelLaunchOp;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.ops.FillOp;
import cuda.graph.internal.ops.ForeignNodeOp;
import cuda.graph.internal.ops.HostCallbackOp;
import cuda.graph.internal.ops.MapOp;
import cuda.graph.internal.ops.NodeOp;
import cuda.graph.internal.ops.OnceGuard;
import cuda.graph.internal.ops.OpLists;
import cuda.graph.internal.ops.ParallelOp;
import cuda.graph.internal.ops.ThenOp;
import cuda.graph.internal.ops.ValueOp;
import cuda.graph.internal.ops.ZipAllOp;
import cuda.graph.internal.ops.ZipOp;
import cuda.graph.internal.runtime.DeviceBufferImpl;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An op that neither allocates nor frees memory, so it can be recorded into a CUDA graph and
 * replayed: values, kernel launches, copies and fills between existing buffers, host callbacks, and
 * compositions of graph nodes. Ops that allocate, free or stage through Java arrays are not graph
 * nodes, so {@code Scope.record} and {@code CudaGraph.update} reject them at compile time.
 *
 * <p>Composing graph nodes with {@link #map}, {@link #andThen(GraphNode)}, {@link #thenNode} and
 * {@link #zip(GraphNode, BiFunction)} keeps the property.
 *
 * <p>For example, a sequence of a fill and a copy, in parallel with another fill, captured as one
 * graph of two branches:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=graph-node}
 *
 * @param <T> the result type
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface GraphNode<T extends @Nullable Object> extends DeviceOp<T>
    permits ValueOp, KernelLaunchOp, CopyOp, FillOp, HostCallbackOp, ForeignNodeOp, NodeOp {

  @Override
  @CheckReturnValue
  default <R extends @Nullable Object> GraphNode<R> map(Function<? super T, ? extends R> function) {
    return new NodeOp<>(new MapOp<>(this, Objects.requireNonNull(function, "function")));
  }

  /**
   * {@return a graph node that runs this node, then the graph node {@code next} returns for its
   * result}
   *
   * @param <R> the type of the result of the node {@code next} returns
   * @param next called on the executing thread with this node's result once its work is enqueued
   *     (or recorded); it must return a new graph node, not null
   */
  @CheckReturnValue
  default <R extends @Nullable Object> GraphNode<R> thenNode(
      Function<? super T, ? extends GraphNode<R>> next) {
    return new NodeOp<>(new ThenOp<>(this, Objects.requireNonNull(next, "next"), "thenNode"));
  }

  /**
   * {@return a graph node that runs this node then {@code next}, with {@code next}'s result}
   *
   * @param <R> the type of {@code next}'s result
   * @param next the node run after this one; this node's result is dropped
   */
  @CheckReturnValue
  default <R extends @Nullable Object> GraphNode<R> andThen(GraphNode<R> next) {
    Objects.requireNonNull(next, "next");
    OnceGuard.adopt(next); // the function below holds it: whether it runs is the chain's
    return thenNode(ignored -> next);
  }

  /**
   * {@return a graph node that runs this node then {@code other} and combines their results}
   *
   * @param <U> the type of {@code other}'s result
   * @param <R> the type of the combined result
   * @param other the node run after this one
   * @param combine called on the executing thread with both results once both nodes' work is
   *     enqueued (or recorded)
   */
  @CheckReturnValue
  default <U extends @Nullable Object, R extends @Nullable Object> GraphNode<R> zip(
      GraphNode<U> other, BiFunction<? super T, ? super U, ? extends R> combine) {
    return new NodeOp<>(
        new ZipOp<>(
            this,
            Objects.requireNonNull(other, "other"),
            Objects.requireNonNull(combine, "combine")));
  }

  /**
   * {@return a graph node that runs {@code nodes} in order and produces nothing}
   *
   * @param nodes the nodes, run in argument order; the array is copied when this method is called
   */
  @CheckReturnValue
  static GraphNode<@Nullable Void> sequence(GraphNode<?>... nodes) {
    return sequence(OpLists.copyWithoutNulls(nodes, "nodes"));
  }

  /**
   * {@return a graph node that runs {@code nodes} in order and produces nothing}
   *
   * @param nodes the nodes, run in list order; the list is copied when this method is called
   */
  @CheckReturnValue
  static GraphNode<@Nullable Void> sequence(List<? extends GraphNode<?>> nodes) {
    List<GraphNode<?>> parts = OpLists.copyWithoutNulls(nodes, "nodes");
    return new NodeOp<>(
        new MapOp<>(new ZipAllOp<>(parts), ignored -> null),
        "sequence(" + parts.size() + " nodes)");
  }

  /**
   * {@return a graph node whose work another CUDA library enqueues on the raw stream}: NCCL
   * collectives, cuBLAS calls, anything that is stream-ordered and records into a graph capture
   * (the library's own rules for capture apply, e.g. a warm-up call before the first capture).
   *
   * <p>Unlike {@link DeviceOp#withRawStream}, the node says what memory the work touches: each
   * buffer of {@code buffers} is checked to live on the executing stream's device and is leased
   * like a kernel argument (until the eager execution's work is done, or as long as a graph it was
   * captured into exists), and {@link ForeignStream#address} hands out only those addresses. The
   * work runs once per execution of the node: once when executed eagerly, once when captured (the
   * graph then replays what it enqueued). The library cannot see what the foreign code does, so the
   * work must enqueue only asynchronous work on the given stream, not synchronize it, and touch no
   * memory but the declared buffers.
   *
   * <p>{@link Scope#recordNode} records the node as one child-graph node, whatever number of driver
   * nodes its work enqueues, and {@link CudaGraph#replaceNode} can later give that node the work of
   * another foreign node that enqueues driver nodes of the same types in the same order (for a
   * matrix product: one of the same shape and plan, on other buffers).
   *
   * @param name what the node is called in messages and graph descriptions, e.g. {@code
   *     "ncclAllReduce"}
   * @param buffers every device buffer the work reads or writes; the list is copied when this
   *     method is called
   * @param work called on the executing thread with the raw stream and the buffers' addresses
   * @throws IllegalArgumentException if {@code name} is blank
   */
  @CheckReturnValue
  static GraphNode<@Nullable Void> foreign(
      String name, List<? extends DeviceBuffer<?>> buffers, ForeignWork work) {
    if (Objects.requireNonNull(name, "name").isBlank()) {
      throw new IllegalArgumentException("a foreign node needs a name for its messages");
    }
    List<DeviceBuffer<?>> declared = OpLists.copyWithoutNulls(buffers, "buffers");
    declared.forEach(DeviceBufferImpl::requireLiveIfTemporary);
    return new ForeignNodeOp(name, declared, Objects.requireNonNull(work, "work"));
  }

  /**
   * {@return a graph node running {@code branches} as parallel branches}: captured, they become
   * branches of the graph that depend on what came before and join before what comes after;
   * executed eagerly, they run concurrently on auxiliary streams the library owns. The results are
   * listed in branch order.
   *
   * @param <T> the type of the branches' results
   * @param branches the branches; the first runs on the executing stream itself
   */
  @CheckReturnValue
  static <T extends @Nullable Object> GraphNode<List<T>> parallel(
      List<? extends GraphNode<? extends T>> branches) {
    return new NodeOp<>(ParallelOp.of(branches));
  }
}
