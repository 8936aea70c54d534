// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.graph.CudaGraphImpl;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A captured and instantiated CUDA graph, replayed with one driver call per {@link #launch()}.
 *
 * <p><b>Capture.</b> {@link #capture} runs an op once on a stream in capture mode: its GPU work is
 * recorded, not executed, then the graph is instantiated, uploaded and the stream synchronized.
 * Capture holds the execution lock (nested execution fails) and ends the capture on every path:
 * success, a driver error, a {@code RuntimeException} or an {@code Error} inside the op. Whatever
 * fails, no graph or exec handle is leaked and the stream is left out of capture mode and usable.
 * Allocating, freeing or staging inside a capture fails with {@link GraphCaptureException}:
 * allocate every buffer before capturing; the graph replays into the same addresses.
 *
 * <p><b>Output.</b> {@link #takeOutput()} returns what the op produced during capture: handles
 * (buffers, values), not computed data. The data behind them is first computed by a launch: read it
 * after {@code graph.launch().syncOn(graph.stream())}.
 *
 * <p><b>Lifetimes.</b> The instantiated graph is owned jointly by this object and every {@link
 * GraphLaunch} it handed out; {@link #close()} gives up this object's share, and the exec is
 * destroyed once the last launch's work is done, or when the platform closes, whichever comes
 * first: closing the platform destroys every graph still alive, whatever launches are still out.
 * Buffers used by the captured work stay allocated as long as the graph, even if closed earlier.
 * Frees requested while any capture is in progress are deferred until it ends, so they cannot
 * invalidate it.
 *
 * <p><b>Updates.</b> {@link #update} enqueues a graph node (typically a copy of new input into a
 * buffer the graph reads) on {@link #stream()}: it is ordered before a launch executed on that same
 * stream. It does not wait: a failure the driver reports only once the update's work is observed is
 * thrown, once, by the graph's next {@link #update} or {@link #launch()}. {@link Module} packages
 * that protocol so it cannot be used out of order, and observes each forward's copy and replay as
 * one synchronized execution.
 *
 * <p><b>Changing a graph without capturing it again.</b> {@link #replaceNode} gives a node that
 * {@link Scope#recordNode} recorded new parameters (a kernel's arguments and shape, a copy's or
 * fill's buffers, a foreign node's work of the same shape), checked like the node itself, and
 * {@link #setEnabled} switches a kernel, copy or fill node off and on; both change the instantiated
 * graph in place for launches executed afterwards. {@link #recapture} captures the work again and
 * updates the instantiated graph in place where the topology allows, or instantiates it anew, and
 * says which happened. Buffers the graph no longer references after such a change are given back
 * once every launch that could still use them is done; the ones it references are leased as long as
 * the graph can replay them.
 *
 * <p>Thread-safe, except that {@link #takeOutput()} hands the output out once per capture. CUDA
 * allows no two calls on one graph at once, so the library serializes them: launches of one graph
 * from several threads, and changes and queries made while it launches, run one driver call at a
 * time. While a capture or recapture runs on a stream, work that other threads execute on that
 * stream waits until the capture has ended, so it is never recorded into the graph.
 *
 * <p>For example, a graph that copies {@code x} into {@code y}, replayed on new input that each
 * step's update copies into {@code x} from pinned host memory, then recaptured with other work:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=cuda-graph}
 *
 * @param <T> the type of the captured op's output
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface CudaGraph<T extends @Nullable Object> extends AutoCloseable
    permits CudaGraphImpl {

  /**
   * Captures {@code op} on {@code stream} in {@link CaptureMode#RELAXED} mode; see the class doc.
   *
   * @param <T> the type of the op's output
   * @param stream the stream to capture on; {@link #update} and {@link #stream()} use it later
   * @param op the op run once in capture mode; its GPU work becomes the graph
   * @return the instantiated and uploaded graph, holding the op's output
   */
  static <T extends @Nullable Object> CudaGraph<T> capture(Stream stream, DeviceOp<T> op) {
    return CudaGraphImpl.capture(stream, CaptureMode.RELAXED, op);
  }

  /**
   * Captures {@code op} on {@code stream} in the given mode.
   *
   * @param <T> the type of the op's output
   * @param stream the stream to capture on; {@link #update} and {@link #stream()} use it later
   * @param mode which threads' potentially unsafe CUDA calls fail and invalidate the capture
   * @param op the op run once in capture mode; its GPU work becomes the graph
   * @return the instantiated and uploaded graph, holding the op's output
   * @throws CudaDriverError if a driver step fails (the op's own failure wins over a failure to end
   *     the capture, which is attached as suppressed)
   * @throws GraphCaptureException if the op allocates, frees or stages memory, or the driver ends
   *     the capture without a graph
   * @throws ReentrantExecutionException if this thread is already executing or capturing
   */
  static <T extends @Nullable Object> CudaGraph<T> capture(
      Stream stream, CaptureMode mode, DeviceOp<T> op) {
    return CudaGraphImpl.capture(stream, mode, op);
  }

  /**
   * Captures what {@code body} records with {@link Scope#record} on {@code stream}, in relaxed
   * mode; {@code body}'s exceptions propagate after the capture has been ended.
   *
   * @param stream the stream to capture on; {@link #update} and {@link #stream()} use it later
   * @param body records the graph's nodes through the {@link Scope} it is given, on this thread
   * @return the instantiated and uploaded graph, whose output is null
   */
  static CudaGraph<@Nullable Void> scope(Stream stream, ScopeBody body) {
    return CudaGraphImpl.scope(stream, body);
  }

  /**
   * Captures what {@code body} records, as {@link #scope} does, and keeps what it returns as the
   * graph's output, for {@link #takeOutput()}: the {@link RecordedNode}s to change later, the
   * buffers the graph computes, a record of several. The name differs from {@link #scope} because a
   * lambda such as {@code s -> s.record(node)} fits both a body and a function.
   *
   * @param <T> the type of what {@code body} returns
   * @param stream the stream to capture on; {@link #update} and {@link #stream()} use it later
   * @param body records the graph's nodes through the {@link Scope} it is given, on this thread,
   *     and returns the graph's output
   * @return the instantiated and uploaded graph, whose output is what {@code body} returned
   */
  static <T extends @Nullable Object> CudaGraph<T> scopeReturning(
      Stream stream, ScopeFunction<T> body) {
    return CudaGraphImpl.scopeReturning(stream, body);
  }

  /**
   * {@return the op's output from capture}: handles whose data is computed by launches. Returns it
   * once; later calls fail.
   *
   * @throws IllegalStateException if the output was already taken
   */
  T takeOutput();

  /**
   * Enqueues {@code node} on the graph's {@link #stream()} now, without waiting: typically a copy
   * of new input into a buffer the graph reads. It is ordered before any launch later executed on
   * the same stream (and after earlier ones). Takes the execution lock.
   *
   * @param node the node to enqueue; its leases are released once its work completes
   * @throws IllegalStateException if the graph is closed, or if the work of an earlier update
   *     failed after it was enqueued (reported once; the driver's error is the cause)
   */
  void update(GraphNode<@Nullable Void> node);

  /**
   * {@return an op that replays the graph on whichever stream executes it}, as the graph is when
   * the op executes (after the changes applied before then); it shares ownership of the graph, so
   * it stays valid after {@link #close()}
   *
   * @throws IllegalStateException if the graph is closed, or if the work of an earlier {@link
   *     #update} failed after it was enqueued (reported once; the driver's error is the cause)
   */
  @CheckReturnValue
  GraphLaunch launch();

  /** {@return the stream the graph was captured on, where {@link #update} enqueues} */
  Stream stream();

  /** {@return the number of nodes in the graph} */
  int nodeCount();

  /**
   * {@return the bytes the graph's allocation nodes take in its current capture}: the sum of the
   * byte sizes of the temporaries ({@link Scope#temporary}) it recorded, as requested; 0 for a
   * graph without temporaries. A recapture changes it to the new capture's; it stays readable after
   * {@link #close()}.
   *
   * <p>This is what the graph asks for, not what the device spends on it: the driver rounds each
   * allocation up to its granularity, and lets graphs share their memory when their launches cannot
   * overlap (graphs launched one after the other on one stream need as much as the largest of
   * them). {@link Device#graphMemory()} reports what the device's graphs hold.
   */
  long temporaryBytes();

  /**
   * Writes the graph in Graphviz DOT form to {@code path}.
   *
   * @param path the file the driver writes, replacing any existing one
   */
  void writeDot(Path path);

  /**
   * Gives up this object's share of the graph; launches already handed out still replay.
   * Idempotent.
   */
  void close();

  /** {@return whether {@link #close()} was called} */
  boolean isClosed();

  /**
   * Captures {@code op} again on {@link #stream()}, in the mode of the first capture, and applies
   * it: in place ({@code cuGraphExecUpdate}) when the driver can express the change as an update
   * and no node is switched off by {@link #setEnabled}, else by instantiating the new capture.
   * Either way, every launch executed afterwards replays the new capture, also one made by {@link
   * #launch()} before the recapture; launches executed before it replay the old one. The new
   * capture's nodes start enabled, whatever {@link #setEnabled} did to the old one's. The output
   * becomes the new op's, available again to {@link #takeOutput()}, and nodes the old capture
   * recorded become stale.
   *
   * @param op the op run once in capture mode; its GPU work becomes the graph
   * @return how the new capture was applied, with the driver's reason when not in place
   * @throws IllegalStateException if the graph is closed, or was made by {@link #scope}
   * @throws GraphCaptureException if the op allocates, frees or stages memory (the graph is left as
   *     it was)
   */
  GraphUpdate recapture(DeviceOp<T> op);

  /**
   * Records {@code body} again, like {@link #scope}, and applies it as {@link #recapture(DeviceOp)}
   * does.
   *
   * @param body records the graph's nodes through the {@link Scope} it is given
   * @return how the new recording was applied, with the driver's reason when not in place
   * @throws IllegalStateException if the graph is closed, or was made by {@link #capture} or by
   *     {@link #scopeReturning} (whose output a body cannot give: use {@link #recaptureReturning})
   */
  GraphUpdate recapture(ScopeBody body);

  /**
   * Records {@code body} again, like {@link #scopeReturning}, and applies it as {@link
   * #recapture(DeviceOp)} does; what {@code body} returns becomes the output, available again to
   * {@link #takeOutput()}. Nodes recorded by the earlier capture become stale, so a body that
   * records nodes to change later returns the new ones here.
   *
   * @param body records the graph's nodes through the {@link Scope} it is given, and returns the
   *     graph's new output
   * @return how the new recording was applied, with the driver's reason when not in place
   * @throws IllegalStateException if the graph is closed, or was made by {@link #capture}
   */
  GraphUpdate recaptureReturning(ScopeFunction<T> body);

  /**
   * Gives {@code node} the parameters of {@code replacement} in the instantiated graph, for
   * launches executed afterwards: a launch of the same kernel (other arguments, other shape), a
   * copy in the same direction, a fill of elements of the same size, or, for a foreign node (which
   * {@link Scope#recordNode} recorded as one child-graph node), a {@link GraphNode#foreign} node
   * whose work enqueues driver nodes of the same types in the same order, e.g. a matrix product of
   * the same shape and plan on other buffers. The replacement's work is called once, its driver
   * nodes captured into a graph of their own that the node takes ({@code
   * cuGraphExecChildGraphNodeSetParams}). A kernel launch keeps the node's kind of launch: a
   * programmatic dependent launch replaces only a programmatic one, a plain launch only a plain one
   * (the edge from the kernel before is the instantiated graph's, and does not change in place). A
   * kernel launch may pass the conditions of the capture that recorded {@code node}. The
   * replacement's buffers are leased as long as the graph can replay them; the node's previous ones
   * are given back once the launches made before are done. A refused or failed replacement changes
   * nothing and gives its buffers back.
   *
   * @param node a node {@link Scope#recordNode} recorded in this graph's current capture
   * @param replacement the node whose parameters {@code node} takes; it is used up, not executed
   * @throws IllegalArgumentException if {@code replacement} is not of {@code node}'s kind (another
   *     kernel, kind of launch, direction or element size; for a foreign node, work that enqueues
   *     other driver nodes), passes a condition of another capture, or its buffers live on another
   *     device
   * @throws IllegalStateException if the graph is closed, or {@code node} is stale or of another
   *     graph
   */
  void replaceNode(RecordedNode node, GraphNode<@Nullable Void> replacement);

  /**
   * Switches {@code node} off or on for launches executed afterwards, until the graph is
   * recaptured; a node switched off does no work but still orders the nodes after it. The driver
   * switches kernel, copy and fill nodes only: a foreign node is left out by recapturing without
   * it.
   *
   * @param node a kernel, copy or fill node {@link Scope#recordNode} recorded in this graph's
   *     current capture
   * @param enabled whether later launches run the node's work
   * @throws IllegalArgumentException if {@code node} is a foreign node ({@link
   *     NodeKind#CHILD_GRAPH})
   * @throws IllegalStateException if the graph is closed, or {@code node} is stale or of another
   *     graph
   */
  void setEnabled(RecordedNode node, boolean enabled);

  /**
   * {@return whether later launches run {@code node}'s work}
   *
   * @param node a kernel, copy or fill node {@link Scope#recordNode} recorded in this graph's
   *     current capture
   * @throws IllegalArgumentException if {@code node} is a foreign node ({@link
   *     NodeKind#CHILD_GRAPH}), which the driver cannot switch off
   * @throws IllegalStateException if the graph is closed, or {@code node} is stale or of another
   *     graph
   */
  boolean isEnabled(RecordedNode node);

  /**
   * {@return what each top-level node of the graph does, in the order the nodes were recorded};
   * conditional nodes count once, without their bodies
   */
  List<NodeKind> nodeKinds();
}
