// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.CaptureMode;
import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.GraphUpdate;
import cuda.graph.NodeKind;
import cuda.graph.RecordedNode;
import cuda.graph.ScopeBody;
import cuda.graph.ScopeFunction;
import cuda.graph.Stream;
import cuda.graph.internal.events.GraphUpdateEvent;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.exec.GraphLaunchImpl;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.CurrentExec;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.GraphExecHandle;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.GraphExecUpdateException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link CudaGraph}: the capture's stream and mode, the shared exec handle
 * (replaced when a recapture re-instantiates), and the output taken once per capture. Changes
 * (recaptures, node replacements) are serialized by {@code changeLock}; launches never take it.
 */
public final class CudaGraphImpl<T extends @Nullable Object> implements CudaGraph<T> {

  /** What made a graph, which decides how it may be recaptured. */
  enum Origin {
    /** {@link CudaGraph#capture}: recaptured from an op. */
    OP,
    /** {@link CudaGraph#scope}: recaptured from a scope body; its output is null. */
    SCOPE,
    /** {@link CudaGraph#scopeReturning}: recaptured from a scope function giving the output. */
    SCOPE_RETURNING
  }

  private final StreamImpl stream;
  private final CaptureMode mode;
  private final Origin origin;
  private final CurrentExec current;
  private final Object outputLock = new Object();
  private final Object changeLock = new Object();
  private @Nullable T output;
  private boolean outputTaken;
  private boolean closed;

  /**
   * Whether the capture the exec replays has temporaries (allocation and free nodes): a recapture
   * then instantiates anew. Guarded by {@code changeLock}.
   */
  private boolean hasTemporaries;

  /**
   * The bytes the current capture's temporaries take, as requested; see {@link #temporaryBytes}.
   */
  private volatile long temporaryBytes;

  /** How long the first capture took, from its begin to its end, in nanoseconds. */
  private long captureNanos;

  /** Which capture made the recorded nodes that are current: a recapture makes the others stale. */
  private volatile int generation;

  /** What the work of an update failed with after it was enqueued, until reported. */
  private final AtomicReference<@Nullable Throwable> failedUpdate = new AtomicReference<>();

  private CudaGraphImpl(
      StreamImpl stream,
      CaptureMode mode,
      Origin origin,
      GraphExecHandle handle,
      @Nullable T output) {
    this.stream = stream;
    this.mode = mode;
    this.origin = origin;
    this.current = new CurrentExec(handle);
    this.output = output;
    // An unreachable graph gives up its share, so its exec goes once no pending launch needs it.
    CudaPlatformImpl.CLEANER.register(this, current);
  }

  /** A new graph of a capture just instantiated; its recorded nodes become its own. */
  static <T extends @Nullable Object> CudaGraphImpl<T> created(
      StreamImpl stream,
      CaptureMode mode,
      Origin origin,
      GraphExecHandle handle,
      Capture.Captured<T> captured) {
    CudaGraphImpl<T> graph = new CudaGraphImpl<>(stream, mode, origin, handle, captured.output());
    graph.hasTemporaries = captured.hasTemporaries();
    graph.temporaryBytes = captured.temporaryBytes();
    graph.captureNanos = captured.captureNanos();
    for (RecordedNodeImpl node : captured.replaceable()) {
      node.bind(graph, 0);
    }
    return graph;
  }

  /** {@return the implementation of {@code graph}}, which is sealed to it */
  public static CudaGraphImpl<?> of(CudaGraph<?> graph) {
    return (CudaGraphImpl<?>) Objects.requireNonNull(graph, "graph");
  }

  /** See {@link CudaGraph#capture(Stream, CaptureMode, DeviceOp)}. */
  public static <T extends @Nullable Object> CudaGraph<T> capture(
      Stream stream, CaptureMode mode, DeviceOp<T> op) {
    Objects.requireNonNull(op, "op");
    return Capture.newGraph(
        stream,
        mode,
        Origin.OP,
        new Capture.Described("capture of ", "", op),
        (execution, nodes) -> Executor.execute(op, execution));
  }

  /** See {@link CudaGraph#scope}. */
  public static CudaGraph<@Nullable Void> scope(Stream stream, ScopeBody body) {
    Objects.requireNonNull(body, "body");
    return Capture.newGraph(
        stream, CaptureMode.RELAXED, Origin.SCOPE, "scope capture", recordBody(body));
  }

  /** See {@link CudaGraph#scopeReturning}. */
  public static <T extends @Nullable Object> CudaGraph<T> scopeReturning(
      Stream stream, ScopeFunction<T> body) {
    Objects.requireNonNull(body, "body");
    return Capture.newGraph(
        stream, CaptureMode.RELAXED, Origin.SCOPE_RETURNING, "scope capture", recordScope(body));
  }

  /**
   * {@link #scope}, with {@code admission} asked between the capture and the instantiation, with
   * the bytes the capture's temporaries ask for: an instantiated and uploaded graph maps its graph
   * memory, so a refusal after that would map what it refuses, and room made before it is there
   * when the upload maps. What {@code admission} throws refuses the graph: it is destroyed, and the
   * exception thrown (with any failure to destroy it suppressed).
   */
  public static CudaGraph<@Nullable Void> scopeWithin(
      Stream stream, ScopeBody body, LongConsumer admission) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(admission, "admission");
    return Capture.run(
        stream,
        CaptureMode.RELAXED,
        "scope capture",
        recordBody(body),
        (s, captured) -> {
          try {
            admission.accept(captured.temporaryBytes());
          } catch (RuntimeException refused) {
            throw Capture.discard(s, captured, refused);
          }
          return created(
              s, CaptureMode.RELAXED, Origin.SCOPE, Capture.instantiate(s, captured), captured);
        });
  }

  /** Records {@code body} through a top-level scope, collecting the nodes it made replaceable. */
  private static Capture.Recorder<@Nullable Void> recordBody(ScopeBody body) {
    return recordScope(
        scope -> {
          body.record(scope);
          return null;
        });
  }

  /**
   * Records {@code body} through a top-level scope, collecting the nodes it made replaceable; its
   * result is the capture's output.
   */
  private static <T extends @Nullable Object> Capture.Recorder<T> recordScope(
      ScopeFunction<T> body) {
    return (execution, nodes) -> {
      ScopeImpl scope = new ScopeImpl(execution);
      try {
        T output = body.record(scope);
        scope.freeTemporaries();
        return output;
      } finally {
        scope.close();
        nodes.addAll(scope.recorded());
      }
    };
  }

  @Override
  public T takeOutput() {
    synchronized (outputLock) {
      if (outputTaken) {
        throw new IllegalStateException("the output of " + this + " was already taken");
      }
      outputTaken = true;
      T taken = output;
      output = null;
      return taken;
    }
  }

  @Override
  public void update(GraphNode<@Nullable Void> node) {
    Objects.requireNonNull(node, "node");
    synchronized (outputLock) {
      if (closed) {
        throw new IllegalStateException(
            "cannot update "
                + this
                + ": the graph is closed, so no launch of it would see the update; update a graph"
                + " only before closing it");
      }
    }
    reportFailedUpdate();
    Executor.onStream(this, stream, new Update(this, node), CudaGraphImpl::enqueueUpdate);
  }

  private record Update(CudaGraphImpl<?> graph, GraphNode<@Nullable Void> node) {}

  /**
   * Enqueues an update; its leases are released when its work completes, and a failure the driver
   * reports then is kept for the graph's next update or launch.
   */
  private static @Nullable Void enqueueUpdate(StreamImpl stream, Update update) {
    Execution execution = new Execution(stream, null);
    var completions = stream.device().platform().completions();
    try {
      Executor.execute(update.node(), execution);
      execution.enqueued();
    } catch (RuntimeException | Error e) {
      Executor.enqueuedAfterFailure(execution, e);
      Throwable unobservable = completions.releaseWhenDone(execution, null);
      if (unobservable != null) {
        e.addSuppressed(unobservable);
      }
      throw e;
    }
    Throwable unobservable = completions.releaseWhenDone(execution, update.graph()::updateFailed);
    if (unobservable instanceof RuntimeException e) {
      throw e; // no completion event: the work was waited for, and the update reports why
    }
    if (unobservable instanceof Error e) {
      throw e;
    }
    return null;
  }

  /** The work of an update failed after it was enqueued: remembered, reported once. */
  private void updateFailed(Throwable failure) {
    failedUpdate.compareAndSet(null, failure);
  }

  /** Throws (once) what an earlier update's work failed with after it was enqueued. */
  private void reportFailedUpdate() {
    Throwable failure = failedUpdate.getAndSet(null);
    if (failure != null) {
      throw new IllegalStateException(
          "an earlier update of "
              + this
              + " failed after it was enqueued ("
              + failure.getMessage()
              + "), so the graph's input may not be what it was given",
          failure);
    }
  }

  @Override
  public GraphUpdate recapture(DeviceOp<T> op) {
    Objects.requireNonNull(op, "op");
    switch (origin) {
      case OP -> {}
      case SCOPE ->
          throw new IllegalStateException(
              this + " was recorded by CudaGraph.scope: recapture it with recapture(ScopeBody)");
      case SCOPE_RETURNING ->
          throw new IllegalStateException(
              this
                  + " was recorded by CudaGraph.scopeReturning: recapture it with"
                  + " recaptureReturning(ScopeFunction)");
    }
    return recapture(
        new Capture.Described("recapture of ", "", op),
        (execution, nodes) -> Executor.execute(op, execution));
  }

  @Override
  @SuppressWarnings("unchecked") // a graph CudaGraph.scope made has a null output
  public GraphUpdate recapture(ScopeBody body) {
    Objects.requireNonNull(body, "body");
    switch (origin) {
      case SCOPE -> {}
      case OP ->
          throw new IllegalStateException(
              this
                  + " was captured from an op by CudaGraph.capture: recapture it with"
                  + " recapture(op)");
      case SCOPE_RETURNING ->
          // A body returns nothing, so the graph's output would become null.
          throw new IllegalStateException(
              this
                  + " was recorded by CudaGraph.scopeReturning, whose output a ScopeBody cannot"
                  + " give: recapture it with recaptureReturning(ScopeFunction)");
    }
    return recapture(
        "scope recapture", (Capture.Recorder<T>) (Capture.Recorder<?>) recordBody(body));
  }

  @Override
  public GraphUpdate recaptureReturning(ScopeFunction<T> body) {
    Objects.requireNonNull(body, "body");
    if (origin == Origin.OP) {
      throw new IllegalStateException(
          this + " was captured from an op by CudaGraph.capture: recapture it with recapture(op)");
    }
    return recapture("scope recapture", recordScope(body));
  }

  private GraphUpdate recapture(Object what, Capture.Recorder<T> recorder) {
    synchronized (changeLock) {
      requireOpen("recapture");
      return Capture.run(stream, mode, what, recorder, this::apply);
    }
  }

  /**
   * Applies a new capture: in place when {@code cuGraphExecUpdate} accepts it, else as a new exec
   * that replaces the current one (whose launches in flight keep it alive until they are done).
   */
  private GraphUpdate apply(StreamImpl s, Capture.Captured<T> captured) {
    GraphUpdateEvent event = new GraphUpdateEvent();
    event.begin();
    GraphExecHandle before = current.handle();
    @Nullable GraphUpdate result = null;
    try {
      result = applyCapture(s, captured, before);
    } finally {
      if (result instanceof GraphUpdate.Reinstantiated(String why)) {
        commitUpdate(event, GraphUpdateEvent.REINSTANTIATED, before, why, true);
      } else {
        commitUpdate(event, GraphUpdateEvent.IN_PLACE, before, "", result != null);
      }
    }
    int next = generation + 1;
    for (RecordedNodeImpl node : captured.replaceable()) {
      node.bind(this, next);
    }
    generation = next;
    hasTemporaries = captured.hasTemporaries();
    temporaryBytes = captured.temporaryBytes();
    synchronized (outputLock) {
      output = captured.output();
      outputTaken = false;
    }
    return Objects.requireNonNull(result);
  }

  private GraphUpdate applyCapture(
      StreamImpl s, Capture.Captured<T> captured, GraphExecHandle handle) {
    Capture.Leases leases = captured.takeLeases();
    var driver = s.device().platform().driver();
    if (hasTemporaries || captured.hasTemporaries()) {
      // cuGraphExecUpdate keeps the exec's allocation nodes as instantiated, at the addresses of
      // the capture it was made from, while the new capture's nodes use the new capture's
      // addresses: updated in place, they would work in memory no replay allocates.
      GraphExecHandle fresh = Capture.instantiate(s, captured.graph(), leases);
      current.replace(fresh);
      return new GraphUpdate.Reinstantiated(
          GraphUpdate.Reinstantiated.BY_LIBRARY
              + "the "
              + (hasTemporaries ? "graph" : "new capture")
              + " has temporaries (Scope.temporary), and an in-place update keeps the allocation"
              + " nodes the exec was instantiated with, whose addresses the new capture's nodes do"
              + " not use; a graph with temporaries is instantiated anew at each recapture");
    }
    if (handle.hasDisabledNodes()) {
      // An in-place update keeps a switched-off node's state (on the H200, switching it back on
      // around the update replayed stale parameters): a new exec starts with every node enabled.
      GraphExecHandle fresh = Capture.instantiate(s, captured.graph(), leases);
      current.replace(fresh);
      return new GraphUpdate.Reinstantiated(
          GraphUpdate.Reinstantiated.BY_LIBRARY
              + "a node of the graph was switched off by setEnabled, and the driver keeps a node's"
              + " switched-off state through an in-place update; the new capture starts with"
              + " every node enabled");
    }
    try {
      handle.replaceAll(
          captured.graph(),
          leases.base(),
          leases.byNode(),
          () -> driver.graphExecUpdate(handle.exec, captured.graph()));
      return new GraphUpdate.InPlace();
    } catch (CudaDriverError e) {
      if (!(e.getCause() instanceof GraphExecUpdateException refused)) {
        Capture.destroyQuietly(driver, captured.graph(), e);
        leases.releaseAll(e);
        throw e;
      }
      GraphExecHandle fresh = Capture.instantiate(s, captured.graph(), leases);
      current.replace(fresh);
      return new GraphUpdate.Reinstantiated(reason(refused));
    } catch (RuntimeException | Error e) {
      Capture.destroyQuietly(driver, captured.graph(), e);
      leases.releaseAll(e);
      throw e;
    }
  }

  /** Ends and commits an update event when a recording wants it. */
  static void commitUpdate(
      GraphUpdateEvent event,
      String change,
      GraphExecHandle handle,
      @Nullable String detail,
      boolean succeeded) {
    event.end();
    if (event.shouldCommit()) {
      event.change = change;
      event.graph = handle.exec.toString();
      event.detail = detail == null ? "" : detail;
      event.succeeded = succeeded;
      event.commit();
    }
  }

  private static String reason(GraphExecUpdateException refused) {
    return GraphUpdate.Reinstantiated.BY_DRIVER
        + GraphExecUpdateException.resultName(refused.updateResult())
        + (refused.errorNode() == null ? "" : " at " + refused.errorNode());
  }

  @Override
  public void replaceNode(RecordedNode node, GraphNode<@Nullable Void> replacement) {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(replacement, "replacement");
    synchronized (changeLock) {
      requireOpen("replace a node of");
      // Checked under the lock: a recapture in between would leave the node stale.
      RecordedNodeImpl recorded = requireCurrent(node);
      GraphExecHandle handle = current.handle();
      Executor.onStream(
          this,
          stream,
          new NodeReplacement.Request(handle, recorded, replacement),
          NodeReplacement::apply);
    }
  }

  @Override
  public void setEnabled(RecordedNode node, boolean enabled) {
    Objects.requireNonNull(node, "node");
    synchronized (changeLock) {
      requireOpen("enable or disable a node of");
      RecordedNodeImpl recorded = requireSwitchable(requireCurrent(node), "switch", " off or on");
      GraphExecHandle handle = current.handle();
      GraphUpdateEvent event = new GraphUpdateEvent();
      event.begin();
      boolean succeeded = false;
      try {
        handle.device.bind();
        GraphExecHandle.FillParams fill = recorded.fill;
        if (fill != null) {
          handle.switchFill(recorded.index, enabled, fill, handle.device.fillScratch());
        } else {
          handle.setEnabled(recorded.index, enabled);
        }
        succeeded = true;
      } finally {
        commitUpdate(
            event,
            GraphUpdateEvent.NODE_ENABLE,
            handle,
            recorded + (enabled ? " enabled" : " disabled"),
            succeeded);
      }
    }
  }

  @Override
  public boolean isEnabled(RecordedNode node) {
    Objects.requireNonNull(node, "node");
    synchronized (changeLock) {
      requireOpen("ask about a node of");
      RecordedNodeImpl recorded =
          requireSwitchable(requireCurrent(node), "ask whether", " is switched on");
      GraphExecHandle handle = current.handle();
      if (recorded.fill != null) {
        return !handle.isSwitchedOff(recorded.index); // the library switches fills itself
      }
      handle.device.bind();
      return handle.isEnabled(recorded.index);
    }
  }

  /**
   * {@return the node, checked to be one the driver can switch off and on}: {@code
   * cuGraphNodeSetEnabled} takes only kernel, copy and fill nodes, not the child-graph node a
   * foreign node is recorded as, so that is refused before any driver call
   */
  private static RecordedNodeImpl requireSwitchable(
      RecordedNodeImpl node, String action, String what) {
    if (node.kind() == NodeKind.CHILD_GRAPH) {
      throw new IllegalArgumentException(
          "cannot "
              + action
              + " "
              + node
              + what
              + ": it is a foreign node recorded as one child-graph node, and the driver"
              + " (cuGraphNodeSetEnabled) switches only kernel, copy and fill nodes; to leave its"
              + " work out, recapture the graph without the node");
    }
    return node;
  }

  /** {@return the node, checked to be of this graph's current capture} */
  private RecordedNodeImpl requireCurrent(RecordedNode node) {
    RecordedNodeImpl recorded = RecordedNodeImpl.of(Objects.requireNonNull(node, "node"));
    if (!recorded.isCurrentIn(this, generation)) {
      throw new IllegalStateException(
          recorded.isOf(this)
              ? recorded
                  + " is stale: "
                  + this
                  + " was recaptured since it was recorded; use the nodes the latest recapture"
                  + " recorded"
              : recorded
                  + " was not recorded by the capture of "
                  + this
                  + "; use a node that this graph's scope recorded");
    }
    return recorded;
  }

  private void requireOpen(String action) {
    synchronized (outputLock) {
      if (closed) {
        throw new IllegalStateException(
            "cannot "
                + action
                + " "
                + this
                + ": the graph is closed; change a graph only before"
                + " closing it");
      }
    }
  }

  @Override
  public GraphLaunchImpl launch() {
    reportFailedUpdate();
    return new GraphLaunchImpl(current, this);
  }

  /**
   * {@return how long the capture that made this graph took, then its instantiation and upload} in
   * nanoseconds, in that order
   */
  public long[] buildNanos() {
    GraphExecHandle h = current.handle();
    return new long[] {captureNanos, h.instantiateNanos, h.uploadNanos};
  }

  /** {@return whether a launch of this graph is pending or its work not done} */
  public boolean inFlight() {
    return current.inFlight();
  }

  @Override
  public StreamImpl stream() {
    return stream;
  }

  @Override
  public long temporaryBytes() {
    return temporaryBytes;
  }

  @Override
  public int nodeCount() {
    return withGraph((h, g) -> h.device.platform().driver().graphGetNodes(g).size());
  }

  @Override
  public List<NodeKind> nodeKinds() {
    return withGraph(
        (h, g) -> {
          var driver = h.device.platform().driver();
          List<NodeKind> kinds = new ArrayList<>();
          for (CuGraphNode node : driver.graphGetNodes(g)) {
            kinds.add(NodeKinds.of(driver.graphNodeGetType(node)));
          }
          return List.copyOf(kinds);
        });
  }

  @Override
  public void writeDot(Path path) {
    Objects.requireNonNull(path, "path");
    withGraph(
        (h, g) -> {
          h.device.platform().driver().graphDebugDotPrint(g, path, 0);
          return null;
        });
  }

  /**
   * Runs {@code action} on the graph the exec replays now, under the exec's lock, so a recapture on
   * another thread can neither destroy that graph nor call the driver on it meanwhile.
   */
  private <R> R withGraph(BiFunction<GraphExecHandle, CuGraph, R> action) {
    current.acquire(this);
    GraphExecHandle handle;
    try {
      handle = current.acquireCurrent();
    } finally {
      current.release();
    }
    try {
      handle.device.bind();
      return handle.queryCurrentGraph(g -> action.apply(handle, g));
    } finally {
      handle.lifetime.release();
    }
  }

  @Override
  public void close() {
    synchronized (outputLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    synchronized (changeLock) {
      current.run();
    }
  }

  @Override
  public boolean isClosed() {
    synchronized (outputLock) {
      return closed;
    }
  }

  @Override
  public String toString() {
    return "CudaGraph[" + current.handle().exec + " on " + stream + "]";
  }
}
