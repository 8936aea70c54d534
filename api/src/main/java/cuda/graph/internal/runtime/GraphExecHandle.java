// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Owns an instantiated graph: the {@code CUgraph} it came from, the {@code CUgraphExec} that
 * replays it, and the leases on every buffer the captured work uses. Shared by the {@link
 * cuda.graph.CudaGraph} and every {@link cuda.graph.GraphLaunch} it handed out (reference counted),
 * so a launch can never replay a destroyed exec; the exec and graph are destroyed exactly once,
 * after the last owner (and the last launch's work) is done, or when the platform closes, whichever
 * comes first. Both are destroyed and the buffers' leases released whatever fails; failures are
 * thrown to the release queue, which logs them (a failed destroy is never retried).
 *
 * <p>The exec can change in place (a node's parameters, or a whole recapture applied by {@code
 * cuGraphExecUpdate}). Launches enqueued before a change may still replay the old parameters, so
 * the leases a change drops are not released at once: they are retired into the current
 * <em>epoch</em>, which every launch holds while its work runs, and released when the epoch's last
 * launch is done and every earlier epoch has ended. Launches take an epoch without locking; changes
 * are serialized by the handle's lock.
 */
public final class GraphExecHandle {

  public final DeviceImpl device;

  /** The graph the exec was instantiated from: its nodes name the exec's nodes in updates. */
  public final CuGraph graph;

  public final CuGraphExec exec;
  public final RefCount lifetime;

  /** How long instantiating and uploading this exec took, in nanoseconds; set once, when made. */
  public volatile long instantiateNanos, uploadNanos;

  private final AtomicBoolean destroyed = new AtomicBoolean();
  private final Object lock = new Object();

  private List<RefCount> baseLeases;
  private Map<Integer, List<RefCount>> nodeLeases;
  private @Nullable CuGraph recaptured;
  private @Nullable List<CuGraphNode> nodes;
  private volatile Epoch epoch = new Epoch(null);

  /**
   * The nodes (by index) switched off now: the driver keeps a node's disabled state through {@code
   * cuGraphExecUpdate}, but a recapture's nodes start enabled, so a recapture of an exec with a
   * node switched off is instantiated anew.
   */
  private final BitSet disabled = new BitSet();

  /**
   * @param bufferLeases the leases of the captured work that no replaceable node owns
   * @param nodeLeases the leases of each replaceable node, by its index in {@code graph}'s nodes
   */
  public GraphExecHandle(
      DeviceImpl device,
      CuGraph graph,
      CuGraphExec exec,
      List<RefCount> bufferLeases,
      Map<Integer, List<RefCount>> nodeLeases) {
    this.device = device;
    this.graph = graph;
    this.exec = exec;
    this.baseLeases = List.copyOf(bufferLeases);
    this.nodeLeases = new HashMap<>(nodeLeases);
    findExclusives();
    this.lifetime = device.lifetime(this::destroy);
    device.platform().graphInstantiated(this);
  }

  /**
   * {@return a reference to the current epoch, for a launch to hold while its work runs} The caller
   * holds a share of {@link #lifetime}, so the handle is alive and always has a current epoch.
   */
  public RefCount enterLaunch() {
    while (true) {
      Epoch e = epoch;
      if (e.references.tryAcquire()) {
        return e.references;
      }
      Thread.onSpinWait(); // a change is replacing the epoch: the next one is being published
    }
  }

  /**
   * Replays the exec on {@code stream}, serialized with every other call on the exec. The caller
   * holds a share of {@link #lifetime} and an epoch.
   */
  public void launch(TranslatingDriver driver, StreamImpl stream) {
    ExclusiveUse[] ordered = exclusives;
    if (ordered.length == 0) {
      synchronized (lock) {
        driver.graphLaunch(exec, stream.handle());
      }
      return;
    }
    // The graph uses exclusive buffers: after their last uses on other streams, and before the
    // next ones (the device's lock held from the waits to the records).
    java.util.concurrent.locks.ReentrantLock order = ordered[0].lock();
    order.lock();
    try {
      for (ExclusiveUse x : ordered) {
        x.orderAfterLastUse(driver, stream);
      }
      synchronized (lock) {
        driver.graphLaunch(exec, stream.handle());
      }
      for (ExclusiveUse x : ordered) {
        x.usedOn(driver, stream);
      }
    } finally {
      order.unlock();
    }
  }

  /** The exclusive buffers the exec's nodes use now, from its leases; none for most graphs. */
  private volatile ExclusiveUse[] exclusives = new ExclusiveUse[0];

  /** Recomputes {@link #exclusives} from the leases the exec holds now; under the lock. */
  private void findExclusives() {
    java.util.Set<ExclusiveUse> found =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (RefCount lease : baseLeases) {
      if (lease.exclusive() != null) {
        found.add(lease.exclusive());
      }
    }
    for (List<RefCount> leases : nodeLeases.values()) {
      for (RefCount lease : leases) {
        if (lease.exclusive() != null) {
          found.add(lease.exclusive());
        }
      }
    }
    exclusives = found.toArray(new ExclusiveUse[0]);
  }

  /** {@return the node of the instantiation graph at {@code index}, in creation order} */
  public CuGraphNode node(int index) {
    synchronized (lock) {
      return nodeLocked(index);
    }
  }

  private CuGraphNode nodeLocked(int index) {
    List<CuGraphNode> all = nodes;
    if (all == null) {
      all = device.platform().driver().graphGetNodes(graph);
      nodes = all;
    }
    return all.get(index);
  }

  /**
   * {@return what {@code query} answers about the graph the exec replays now (the latest applied
   * recapture, or the original)}, asked under the handle's lock, so no change destroys that graph
   * while the query reads it.
   */
  public <R> R queryCurrentGraph(Function<CuGraph, R> query) {
    synchronized (lock) {
      CuGraph g = recaptured;
      return query.apply(g != null ? g : graph);
    }
  }

  /**
   * Switches fill node {@code index} on or off without {@code cuGraphNodeSetEnabled}: off, the node
   * fills one element of {@code scratch}; on, it fills what {@code on} says again. The driver's own
   * switch is not used for memset nodes: switched off with it, a memset node stops ordering the
   * nodes around it (nodes after it ran before nodes before it on an H100, driver 580), while a
   * node pointed at scratch memory keeps its edges. Serialized with every other call on the exec.
   */
  public void switchFill(int index, boolean enabled, FillParams on, long scratch) {
    synchronized (lock) {
      CuGraphNode node = nodeLocked(index);
      var driver = device.platform().driver();
      if (enabled) {
        driver.graphExecMemsetNodeSetParams(
            exec, node, on.address(), on.elementSize(), on.value(), on.count());
      } else {
        driver.graphExecMemsetNodeSetParams(exec, node, scratch, on.elementSize(), 0, 1);
      }
      disabled.set(index, !enabled);
    }
  }

  /** {@return whether node {@code index} is switched off by the library (a fill)} */
  public boolean isSwitchedOff(int index) {
    synchronized (lock) {
      return disabled.get(index);
    }
  }

  /**
   * What a fill node fills when switched on.
   *
   * @param address where its first element is
   * @param elementSize 1, 2 or 4 bytes
   * @param value the element's bits
   * @param count how many elements
   */
  public record FillParams(long address, int elementSize, int value, long count) {}

  /** Switches node {@code index} on or off; serialized with every other call on the exec. */
  public void setEnabled(int index, boolean enabled) {
    synchronized (lock) {
      device.platform().driver().graphNodeSetEnabled(exec, nodeLocked(index), enabled);
      disabled.set(index, !enabled);
    }
  }

  /** {@return whether node {@code index} is switched on, as the driver says} */
  public boolean isEnabled(int index) {
    synchronized (lock) {
      return device.platform().driver().graphNodeGetEnabled(exec, nodeLocked(index));
    }
  }

  /**
   * Runs {@code change} on the exec and, when it succeeds, gives node {@code index} the leases of
   * {@code replacement} (taken out of it), retiring the ones the node had. On failure the new
   * leases stay in {@code replacement}, whose owner releases them, and the node keeps its own.
   */
  public void changeNode(int index, Execution replacement, Runnable change) {
    synchronized (lock) {
      change.run();
      List<RefCount> old = nodeLeases.put(index, List.copyOf(replacement.transferLeases()));
      findExclusives();
      retire(old == null ? List.of() : old);
    }
  }

  /**
   * {@return whether a node of the exec is switched off now} A recapture is then instantiated anew:
   * the driver keeps a node's switched-off state through {@code cuGraphExecUpdate}, and switching
   * the node back on around an update was seen to replay stale parameters on the H200.
   */
  public boolean hasDisabledNodes() {
    synchronized (lock) {
      return !disabled.isEmpty();
    }
  }

  /**
   * Applies a recapture in place: runs {@code update} ({@code cuGraphExecUpdate} with {@code
   * newGraph}) and, when it succeeds, takes {@code newGraph} and the new leases, retiring the old
   * ones. On failure nothing changes and {@code newGraph} and the leases stay the caller's. The
   * graph the exec was last updated from is destroyed through the release queue, so a failure to
   * destroy it is logged and never mistaken for a failed update. The caller makes sure no node is
   * switched off ({@link #hasDisabledNodes()}).
   */
  public void replaceAll(
      CuGraph newGraph,
      List<RefCount> bufferLeases,
      Map<Integer, List<RefCount>> newNodeLeases,
      Runnable update) {
    synchronized (lock) {
      update.run();
      List<RefCount> old = new ArrayList<>(baseLeases);
      nodeLeases.values().forEach(old::addAll);
      baseLeases = List.copyOf(bufferLeases);
      nodeLeases = new HashMap<>(newNodeLeases);
      findExclusives();
      CuGraph previous = recaptured;
      recaptured = newGraph;
      retire(old);
      if (previous != null) {
        // The exec no longer refers to a graph it was updated from.
        device.release(driver -> driver.graphDestroy(previous));
      }
    }
  }

  /** Starts a new epoch; the old one ends, with {@code leases}, after its launches are done. */
  private void retire(List<RefCount> leases) {
    Epoch old = epoch;
    old.retired.addAll(leases);
    Epoch next = new Epoch(old);
    epoch = next;
    old.references.closeOwner();
  }

  /**
   * Destroys the graph now, whoever still holds a share: the platform is closing, all work has
   * stopped and nothing can launch it any more.
   */
  void destroyAtClose() {
    device.release(this::destroy);
  }

  private void destroy(TranslatingDriver driver) {
    if (!destroyed.compareAndSet(false, true)) {
      return;
    }
    device.platform().graphDestroyed(this);
    @Nullable RuntimeException failure = null;
    try {
      driver.graphExecDestroy(exec);
    } catch (RuntimeException e) {
      failure = e;
    }
    List<RefCount> leases;
    CuGraph lastRecapture;
    synchronized (lock) {
      leases = new ArrayList<>(baseLeases);
      nodeLeases.values().forEach(leases::addAll);
      lastRecapture = recaptured;
    }
    for (CuGraph g : lastRecapture == null ? List.of(graph) : List.of(graph, lastRecapture)) {
      try {
        driver.graphDestroy(g);
      } catch (RuntimeException e) {
        failure = also(failure, e);
      }
    }
    for (RefCount lease : leases) {
      failure = releaseOne(lease, failure);
    }
    try {
      epoch.references.closeOwner();
    } catch (RuntimeException e) {
      failure = also(failure, e);
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static @Nullable RuntimeException releaseOne(
      RefCount lease, @Nullable RuntimeException failure) {
    try {
      lease.release();
    } catch (RuntimeException e) {
      return also(failure, e);
    }
    return failure;
  }

  private static RuntimeException also(@Nullable RuntimeException first, RuntimeException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  /**
   * The launches made between two changes of the exec, and the leases the second change retired. An
   * epoch ends once its owner (the handle, until the next change) and every launch holding it let
   * go, and not before the epoch before it ended: a launch of an earlier epoch may still use what a
   * later change retired.
   */
  private static final class Epoch {
    final RefCount references = new RefCount(this::end);
    final List<RefCount> retired = new ArrayList<>();
    private @Nullable Epoch successor;

    Epoch(@Nullable Epoch predecessor) {
      if (predecessor != null) {
        references.retain(); // released when the predecessor ends
        predecessor.successor = this;
      }
    }

    private void end() {
      @Nullable RuntimeException failure = null;
      for (RefCount lease : retired) {
        failure = releaseOne(lease, failure);
      }
      retired.clear();
      Epoch next = successor;
      if (next != null) {
        try {
          next.references.release();
        } catch (RuntimeException e) {
          failure = also(failure, e);
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }
}
