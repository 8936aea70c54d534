// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.graph.ChainedModule;
import cuda.graph.internal.graph.GraphModule;
import java.util.Objects;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Graph-backed inference: {@link #forward} puts the input into the graph's pre-allocated input
 * buffer, replays the graph on the graph's own stream, waits, and returns the output. Because the
 * copy and the launch are issued by the module on one stream, the launch always sees the new input:
 * the "update, then launch on the same stream" protocol is guaranteed by construction. The copy and
 * the replay are one execution, synchronized before {@code forward} returns, so whatever fails in
 * either is thrown by that {@code forward}.
 *
 * <p>Modules are made by {@link #capture} and composed with {@link #andThen}; each owns what it
 * captured and {@link #close()} releases it. {@code forward} calls are serialized per module
 * (concurrent callers wait). In Java, import this type with a single-type import ({@code import
 * cuda.graph.Module;}), which shadows {@code java.lang.Module}.
 *
 * <p>For example, a module that doubles four floats with a kernel ({@code SAXPY}: {@code y = a * x
 * + y}), its input staged through pinned memory and its output read from a pinned buffer that the
 * captured op returns:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=module}
 *
 * @param <I> the input type
 * @param <O> the output type
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface Module<I, O extends @Nullable Object> extends AutoCloseable
    permits GraphModule, ChainedModule {

  /**
   * Runs the module on {@code input} and returns its output once the work is done.
   *
   * @param input copied into the graph's input buffer by the module's {@link InputBinding}
   * @return what the module's output function made of the captured output after the replay
   * @throws IllegalStateException if the module (or its platform) is closed
   * @throws CudaDriverError if the driver fails the copy or the replay, when it is enqueued or
   *     while it runs
   */
  O forward(I input);

  /**
   * {@return a module that runs this one, then {@code next} on this one's output; it owns both}
   *
   * @param <R> the output type of {@code next}
   * @param next the module fed this one's output; closed with the returned module
   */
  default <R extends @Nullable Object> Module<I, R> andThen(Module<? super O, R> next) {
    return new ChainedModule<>(this, Objects.requireNonNull(next, "next"));
  }

  /** Releases the module's graph(s) and what it owns. Idempotent. */
  @Override
  void close();

  /**
   * Captures a module on {@code stream}: {@code forward} is the op to replay, built over the
   * pre-allocated input buffer that {@code input} copies into; {@code output} turns the captured
   * op's output (handles) into each forward's result once the replay completed, e.g. {@code
   * hostBuffer -> hostBuffer.toFloatArray()}.
   *
   * @param <I> the input type
   * @param <C> the type of the captured op's output
   * @param <O> the output type
   * @param stream the stream the graph is captured on and every {@code forward} replays on
   * @param input how each forward's input reaches the buffer {@code forward} reads
   * @param forward the op captured once, in relaxed mode, and replayed by every {@code forward}
   * @param output called after each replay has completed, with the captured op's output
   * @return a module that owns the captured graph
   * @throws GraphCaptureException if {@code forward} allocates, frees or stages memory
   */
  static <I, C extends @Nullable Object, O extends @Nullable Object> Module<I, O> capture(
      Stream stream,
      InputBinding<I> input,
      DeviceOp<C> forward,
      Function<? super C, ? extends O> output) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    CudaGraph<C> graph = CudaGraph.capture(stream, forward);
    return new GraphModule<>(graph, input, graph.takeOutput(), output);
  }
}
