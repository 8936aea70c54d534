// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.exec.ExecutionLock;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.exec.SharedOp;
import cuda.graph.internal.ops.AllocateOp;
import cuda.graph.internal.ops.ArrayReadOp;
import cuda.graph.internal.ops.ArrayWriteOp;
import cuda.graph.internal.ops.EventRecordOp;
import cuda.graph.internal.ops.EventWaitOp;
import cuda.graph.internal.ops.FreeOp;
import cuda.graph.internal.ops.HostCallbackOp;
import cuda.graph.internal.ops.MapOp;
import cuda.graph.internal.ops.OnceGuard;
import cuda.graph.internal.ops.OpLists;
import cuda.graph.internal.ops.ParallelOp;
import cuda.graph.internal.ops.RawStreamOp;
import cuda.graph.internal.ops.ThenOp;
import cuda.graph.internal.ops.ValueOp;
import cuda.graph.internal.ops.ZipAllOp;
import cuda.graph.internal.ops.ZipOp;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A lazy description of GPU work that produces a {@code T}. Nothing runs until the op is executed
 * with {@link #syncOn}, {@link #sync}, {@link #asyncOn} or {@link #async} (or recorded into a
 * graph); an op executes at most once.
 *
 * <p><b>Ordering.</b> An op and everything composed into it ({@link #then}, {@link #map}, {@link
 * #zip}) runs on one stream, in composition order, so each part sees the results of the parts
 * before it. Separately executed ops are ordered only if they run on the same stream.
 *
 * <p><b>Results.</b> A result is handed to the caller only once the GPU work producing it has
 * completed: {@code syncOn} synchronizes the stream before returning, and a future completes only
 * after its work. Buffers an op uses stay allocated until that work completed, even if closed
 * meanwhile.
 *
 * <p><b>Nesting.</b> Execution holds a thread-local, non-reentrant lock: executing an op inside
 * another op's function (or during a graph capture) fails with {@link ReentrantExecutionException};
 * compose the inner op instead.
 *
 * <p>The set of op kinds is closed ({@code sealed}): ops are made by this library's factories
 * ({@link #value}, {@link DeviceBuffer}, {@link Kernel#launch}, ...). {@link GraphNode} is the
 * sub-family of ops that can be recorded into a graph.
 *
 * <p>For example, an op built, then run and waited for, and another run as a future:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=device-op}
 *
 * @param <T> the result type
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface DeviceOp<T extends @Nullable Object>
    permits GraphNode,
        MapOp,
        ParallelOp,
        ThenOp,
        ZipOp,
        ZipAllOp,
        SharedOp,
        AllocateOp,
        FreeOp,
        ArrayReadOp,
        ArrayWriteOp,
        EventRecordOp,
        EventWaitOp,
        RawStreamOp,
        GraphLaunch {

  // ---- composition

  /**
   * {@return an op that transforms this op's result on the host}
   *
   * @param <R> the type of the new result
   * @param function applied on the executing thread once this op's work is enqueued, not completed:
   *     it sees handles whose data the GPU may not have computed yet; after a read into a Java
   *     array submitted with {@link #asyncOn}, once the read has completed, on the thread that
   *     completes the future
   */
  @CheckReturnValue
  default <R extends @Nullable Object> DeviceOp<R> map(Function<? super T, ? extends R> function) {
    return new MapOp<>(this, Objects.requireNonNull(function, "function"));
  }

  /**
   * {@return an op that runs this op, passes its result to {@code next}, and runs the op {@code
   * next} returns on the same stream, after this op's work}
   *
   * @param <R> the type of the result of the op {@code next} returns
   * @param next called on the executing thread with this op's result once its work is enqueued; it
   *     must return a new op, not null, and must not execute ops itself
   */
  @CheckReturnValue
  default <R extends @Nullable Object> DeviceOp<R> then(
      Function<? super T, ? extends DeviceOp<R>> next) {
    return new ThenOp<>(this, Objects.requireNonNull(next, "next"), "then");
  }

  /**
   * {@return an op that runs this op, then {@code next}, on the same stream, with {@code next}'s
   * result}
   *
   * @param <R> the type of {@code next}'s result
   * @param next the op run after this one; this op's result is dropped
   */
  @CheckReturnValue
  default <R extends @Nullable Object> DeviceOp<R> andThen(DeviceOp<R> next) {
    Objects.requireNonNull(next, "next");
    OnceGuard.adopt(next); // the function below holds it: whether it runs is the chain's
    return then(ignored -> next);
  }

  /**
   * {@return an op that runs this op then {@code other} on the same stream, and combines their
   * results}
   *
   * @param <U> the type of {@code other}'s result
   * @param <R> the type of the combined result
   * @param other the op run after this one
   * @param combine called on the executing thread with both results once both ops' work is
   *     enqueued; when the second op ends in a read into a Java array submitted with {@link
   *     #asyncOn}, once that read has completed, on the thread that completes the future
   */
  @CheckReturnValue
  default <U extends @Nullable Object, R extends @Nullable Object> DeviceOp<R> zip(
      DeviceOp<U> other, BiFunction<? super T, ? super U, ? extends R> combine) {
    return zip(this, Objects.requireNonNull(other, "other"), combine);
  }

  /**
   * {@return an op that executes this op once, however many consumers execute it, and gives every
   * consumer the same result (or the same failure)}
   *
   * <p>The shared op may be executed any number of times, from any threads: the first execution
   * runs this op; later ones wait for it and, on another stream, are ordered after its work on the
   * GPU.
   */
  @CheckReturnValue
  default DeviceOp<T> shared() {
    return new SharedOp<>(this);
  }

  // ---- execution

  /**
   * Executes this op on {@code stream}, waits for its work to complete and returns its result.
   *
   * @param stream the stream the op's work is enqueued on and synchronized
   * @return the op's result, whose data the completed work has computed
   * @throws CudaDriverError if the driver reports a failure; a failure of the stream's work is
   *     reported in preference to a failure of the op's own code
   * @throws ReentrantExecutionException if this thread is already executing an op or capturing
   * @throws IllegalStateException if the op was already executed or the stream is closed
   */
  default T syncOn(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    return Executor.syncOn(this, stream);
  }

  /**
   * Executes this op on the stream the current platform's {@link SchedulingPolicy} picks; see
   * {@link #syncOn}.
   *
   * @return the op's result, whose data the completed work has computed
   * @throws IllegalStateException if the current platform sees no device or is closed, or its
   *     policy returns no stream, a closed one, or one of another device
   */
  default T sync() {
    OnceGuard.adopt(this); // handed to an execution, even if no stream can be had
    return syncOn(policyStream());
  }

  /**
   * Submits this op to {@code stream} and returns a future that completes with its result once its
   * work has completed on the GPU. The calling thread enqueues the work and returns without waiting
   * for it, and no thread is blocked per pending future.
   *
   * <p><b>Reads into Java arrays.</b> A read ({@code toFloatArray()} and the like) in tail position
   * (the op itself, the op a {@code then} or {@code andThen} chain runs last, under {@code map},
   * the second part of a {@code zip}) only enqueues its copy into pinned staging; the array is
   * made, and the {@code map}s and the {@code zip} combination after it applied, once the copy is
   * seen complete, on the thread that completes the future. A read whose result the op needs on the
   * host before more device work (the source of a {@code then}, the first part of a {@code zip}, a
   * {@link #shared()} op) still waits for its stream inside this call, as under {@link #syncOn}.
   *
   * <p><b>Failures</b> complete the future exceptionally (with {@link CudaDriverError}, {@link
   * ReentrantExecutionException}, ...). An op that fails on submission (its own code, a driver call
   * made while enqueuing, the completion event) returns a future that is already failed; what the
   * op did enqueue still runs, and the buffers it uses stay allocated until it has. If the platform
   * is closed before the work completes, the future fails with an {@link IllegalStateException}
   * saying so: every future completes.
   *
   * <p><b>Dependent stages</b> never run on the thread that observes completions: a stage
   * registered before completion runs on the thread that completes the future (a thread waiting in
   * {@code join()} or {@code get()}, or else one of the library's completer threads, as many as
   * there are completions in progress), one registered after completion on the registering thread,
   * as usual. A stage that blocks holds up its own thread only.
   *
   * @param stream the stream the op's work is enqueued on
   * @return a future completed with the op's result once its work has completed on the GPU
   */
  default CompletableFuture<T> asyncOn(Stream stream) {
    Objects.requireNonNull(stream, "stream");
    return Executor.asyncOn(this, stream);
  }

  /**
   * Submits this op to the stream the current platform's policy picks; see {@link #asyncOn}.
   *
   * @return a future completed with the op's result once its work has completed on the GPU
   * @throws IllegalStateException if the current platform sees no device or is closed, or its
   *     policy returns no stream, a closed one, or one of another device
   */
  default CompletableFuture<T> async() {
    OnceGuard.adopt(this); // handed to an execution, even if no stream can be had
    return asyncOn(policyStream());
  }

  /**
   * {@return the stream the current platform's policy picks for its default device}, checked
   * against {@link SchedulingPolicy#nextStream}'s contract so that a bad answer names the policy
   */
  private static Stream policyStream() {
    CudaPlatform platform = CudaPlatform.current();
    Device device = platform.defaultDevice();
    SchedulingPolicy policy = platform.schedulingPolicy();
    @Nullable Stream stream = policy.nextStream(device);
    String problem;
    if (stream == null) {
      problem = "returned null instead of a stream";
    } else if (stream.device().platform() != platform) {
      problem = "returned " + stream + ", which belongs to another platform";
    } else if (stream.device() != device) {
      problem = "returned " + stream + ", which belongs to device " + stream.device().ordinal();
    } else if (stream.isClosed()) {
      problem = "returned " + stream + ", which is closed";
    } else {
      return stream;
    }
    throw new IllegalStateException(
        "the scheduling policy "
            + policy
            + " of "
            + platform
            + " "
            + problem
            + " for device "
            + device.ordinal()
            + " ("
            + device
            + "): nextStream must return an open stream of the device it is given; fix the policy,"
            + " or install another with CudaPlatform.setSchedulingPolicy");
  }

  // ---- factories

  /**
   * {@return an op that produces {@code value} without GPU work; a graph node}
   *
   * @param <T> the type of the value
   * @param value the op's result, possibly null
   */
  @CheckReturnValue
  static <T extends @Nullable Object> GraphNode<T> value(T value) {
    return new ValueOp<>(value);
  }

  /**
   * {@return an op that runs {@code a} then {@code b} on one stream and combines their results}
   *
   * @param <A> the type of {@code a}'s result
   * @param <B> the type of {@code b}'s result
   * @param <R> the type of the combined result
   * @param a the op run first
   * @param b the op run second, after {@code a}'s work
   * @param combine called on the executing thread with both results once both ops' work is
   *     enqueued; when the second op ends in a read into a Java array submitted with {@link
   *     #asyncOn}, once that read has completed, on the thread that completes the future
   */
  static <A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object>
      @CheckReturnValue DeviceOp<R> zip(
          DeviceOp<A> a, DeviceOp<B> b, BiFunction<? super A, ? super B, ? extends R> combine) {
    return new ZipOp<>(
        Objects.requireNonNull(a, "a"),
        Objects.requireNonNull(b, "b"),
        Objects.requireNonNull(combine, "combine"));
  }

  /**
   * {@return an op running {@code branches} concurrently}: each branch after the first runs on an
   * auxiliary stream the library owns, ordered after the work before the op (an event) and joined
   * back before the work after it (another event); captured, the branches become parallel branches
   * of the graph. Streams and events are the library's: reused, and destroyed with the platform.
   * The results are listed in branch order.
   *
   * @param <T> the type of the branches' results
   * @param branches the branches; the first runs on the executing stream itself
   */
  @CheckReturnValue
  static <T extends @Nullable Object> DeviceOp<List<T>> parallel(
      List<? extends DeviceOp<? extends T>> branches) {
    return ParallelOp.of(branches);
  }

  /**
   * {@return an op that runs every op of {@code ops} in order on one stream and lists their
   * results}
   *
   * @param <T> the common supertype of the ops' results
   * @param ops the ops, run in list order; the list is copied when this method is called
   */
  @CheckReturnValue
  static <T extends @Nullable Object> DeviceOp<List<T>> zipAll(
      List<? extends DeviceOp<? extends T>> ops) {
    return new ZipAllOp<>(OpLists.copyWithoutNulls(ops, "ops"));
  }

  /**
   * The escape hatch for calling other CUDA libraries (cuBLAS, NCCL, ...): an op whose function
   * receives the raw stream at execution time and must only enqueue asynchronous work on it.
   *
   * <p>Unchecked: the library cannot see what the function does, so it can neither lease the memory
   * the function touches nor keep it out of a graph capture. The function must not synchronize the
   * stream, must not keep the raw handle past its return, and must leave the thread's current
   * context as it found it (or the next op re-binds it).
   *
   * @param <T> the type of the function's result
   * @param function called on the executing thread with the raw stream and its device; what it
   *     returns is the op's result
   * @return an op that is not a graph node
   */
  @CheckReturnValue
  static <T extends @Nullable Object> DeviceOp<T> withRawStream(RawStreamFunction<T> function) {
    return new RawStreamOp<>(Objects.requireNonNull(function, "function"));
  }

  /**
   * {@return a graph node that runs {@code callback} on a driver thread once the work before it on
   * the stream is done}; the callback must not call CUDA or block for long, and what it throws is
   * logged and dropped
   *
   * @param callback run once per execution of the node (once per replay of a graph it is recorded
   *     into)
   */
  @CheckReturnValue
  static GraphNode<@Nullable Void> hostCallback(Runnable callback) {
    return new HostCallbackOp(Objects.requireNonNull(callback, "callback"));
  }

  /** {@return whether the calling thread is executing an op or capturing a graph right now} */
  static boolean isExecuting() {
    return ExecutionLock.isHeld();
  }
}
