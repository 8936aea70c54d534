// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.SimulatorSettings;
import cuda.graph.simulator.UndefinedBehaviorException;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state of one simulator and the rules every call shares: initialization, the current context,
 * sticky errors, handle resolution, the capture rules of the driver specification (§9.1) and
 * submission of work to streams. Everything here runs under {@link #lock}.
 */
final class SimState {

  final ReentrantLock lock = new ReentrantLock();
  final SimulatorSettings settings;
  final SimDevice[] devices;
  final DeviceMemory memory = new DeviceMemory();
  final HandleTable handles;
  final ThreadLocal<Boolean> inHostFunction = ThreadLocal.withInitial(() -> false);
  final OpExecutor executor = new OpExecutor(memory, inHostFunction);
  final Engine engine;
  final ThreadLocal<SimContext> current = new ThreadLocal<>();
  final ThreadLocal<CaptureMode> threadMode = ThreadLocal.withInitial(() -> CaptureMode.GLOBAL);

  /** Captures that have begun and not ended. */
  final Set<CaptureSequence> captures = new LinkedHashSet<>();

  long nextCaptureId = 1;
  boolean initialized;
  boolean closed;

  SimState(SimulatorSettings settings) {
    this.settings = settings;
    this.handles = new HandleTable(settings.reusesHandleValues());
    this.devices = new SimDevice[settings.devices()];
    for (int i = 0; i < devices.length; i++) {
      devices[i] =
          new SimDevice(
              i,
              settings.deviceName(),
              settings.deviceMemoryBytes(),
              settings.graphMemoryMappingUnit());
    }
    this.engine =
        settings.seed().isPresent()
            ? new DeterministicEngine(lock, executor, settings.seed().getAsLong())
            : new AsyncEngine(lock, executor, settings.executionDelay());
  }

  // ---- failures

  static CudaDriverException fail(int status, DriverCall call, String detail) {
    return new CudaDriverException(status, call, detail);
  }

  static CudaDriverException invalid(DriverCall call, String detail) {
    return new CudaDriverException(CuResult.INVALID_VALUE, call, detail);
  }

  // ---- rule 1: initialization, current context, sticky errors

  void requireInit(DriverCall call) {
    if (closed) {
      throw fail(CuResult.DEINITIALIZED, call, "this simulator was closed");
    }
    if (!initialized) {
      throw fail(CuResult.NOT_INITIALIZED, call, "call cuInit(0) first");
    }
  }

  SimDevice device(int ordinal, DriverCall call) {
    requireInit(call);
    if (ordinal < 0 || ordinal >= devices.length) {
      throw fail(
          CuResult.INVALID_DEVICE,
          call,
          "device " + ordinal + " does not exist; this simulator has " + devices.length);
    }
    return devices[ordinal];
  }

  SimContext currentContext(DriverCall call) {
    requireInit(call);
    SimContext context = current.get();
    if (context == null) {
      throw fail(
          CuResult.INVALID_CONTEXT,
          call,
          "no context is current on thread "
              + Thread.currentThread().getName()
              + "; retain the device's primary context and make it current (cuCtxSetCurrent)"
              + " first");
    }
    if (context.destroyed) {
      throw fail(
          CuResult.CONTEXT_IS_DESTROYED,
          call,
          "the current context was destroyed by releasing its last retain");
    }
    checkSticky(context, call);
    return context;
  }

  void checkSticky(SimContext context, DriverCall call) {
    int sticky = context.stickyError;
    if (sticky != 0) {
      throw fail(sticky, call, "sticky error from earlier device work: " + context.stickyDetail);
    }
  }

  // ---- handles

  <T> T resolve(CuHandle handle, Class<T> type, DriverCall call) {
    requireInit(call);
    return handles.resolve(handle, type, call);
  }

  /**
   * Resolves a stream, including the legacy and per-thread default streams of the current context.
   */
  SimStream stream(CuStream handle, DriverCall call) {
    requireInit(call);
    if (handle.address() == CuStream.NULL.address()
        || handle.address() == CuStream.LEGACY.address()) {
      return currentContext(call).legacy;
    }
    if (handle.address() == CuStream.PER_THREAD.address()) {
      SimContext context = currentContext(call);
      return context.perThread.computeIfAbsent(
          Thread.currentThread(),
          t -> {
            SimStream s =
                new SimStream(CuStream.PER_THREAD, context, SimStream.Kind.PER_THREAD, true);
            context.streams.add(s);
            return s;
          });
    }
    SimStream stream = handles.resolve(handle, SimStream.class, call);
    return stream;
  }

  /** Registers an object constructed with a handle value from {@code handles.newAddress}. */
  void adopt(long address, HandleTable.Handled object, SimContext owner) {
    handles.add(address, object);
    owner.owned.add(object);
  }

  long register(HandleTable.Handled object, SimContext owner) {
    long address = handles.register(object);
    owner.owned.add(object);
    return address;
  }

  void unregister(CuHandle handle, HandleTable.Handled object, SimContext owner, String how) {
    handles.unregister(handle.address(), how);
    owner.owned.remove(object);
  }

  // ---- memory argument checks (rule 2)

  static void checkHost(MemorySegment host, long bytes, DriverCall call) {
    if (!host.isNative()) {
      throw invalid(
          call,
          "host memory must be native (off-heap) memory, such as pinned memory from cuMemAllocHost;"
              + " got a heap segment");
    }
    if (host.byteSize() < bytes) {
      throw invalid(
          call, "the host buffer holds " + host.byteSize() + " bytes but the copy moves " + bytes);
    }
  }

  void checkDevice(long address, long bytes, DriverCall call) {
    if (bytes < 0) {
      throw invalid(call, "negative byte count " + bytes);
    }
    Allocation a = memory.containing(address, Math.max(bytes, 1));
    if (a == null || (a.kind != Allocation.Kind.GRAPH && a.freeRequested)) {
      throw invalid(
          call,
          "[0x"
              + Long.toHexString(address)
              + ", +"
              + bytes
              + ") is not inside a live device allocation");
    }
  }

  // ---- capture rules

  /** Rule 3: a call on the legacy stream while a blocking stream of its context captures. */
  void checkLegacyUse(SimContext context, DriverCall call, boolean invalidates) {
    for (SimStream s : context.streams) {
      CaptureSequence c = s.capture;
      if (s.blocking && c != null) {
        if (invalidates) {
          c.invalidate();
        }
        throw fail(
            CuResult.STREAM_CAPTURE_IMPLICIT,
            call,
            "the legacy stream would depend on "
                + s
                + ", a blocking stream that is capturing ("
                + c
                + ")");
      }
    }
  }

  /** The captures that prohibit the calling thread from potentially unsafe calls (§3.2). */
  List<CaptureSequence> prohibitingCaptures() {
    Thread me = Thread.currentThread();
    CaptureMode mode = threadMode.get();
    List<CaptureSequence> result = new ArrayList<>();
    for (CaptureSequence c : captures) {
      boolean own = c.thread == me && c.mode != CaptureMode.RELAXED;
      boolean prohibits =
          switch (mode) {
            case GLOBAL -> own || c.mode == CaptureMode.GLOBAL;
            case THREAD_LOCAL -> own;
            case RELAXED -> false;
          };
      if (prohibits) {
        result.add(c);
      }
    }
    return result;
  }

  /** Rule 5: a potentially unsafe call fails and invalidates the captures that prohibit it. */
  void checkUnsafe(DriverCall call) {
    List<CaptureSequence> prohibiting = prohibitingCaptures();
    if (!prohibiting.isEmpty()) {
      prohibiting.forEach(CaptureSequence::invalidate);
      throw fail(
          CuResult.STREAM_CAPTURE_UNSUPPORTED,
          call,
          "potentially unsafe while "
              + prohibiting.get(0)
              + " is in progress (thread capture mode "
              + threadMode.get()
              + "); the capture is invalidated");
    }
  }

  /** Rule 4: synchronizing or querying a capturing stream invalidates its capture. */
  static void checkNotCapturing(SimStream stream, DriverCall call) {
    CaptureSequence c = stream.capture;
    if (c != null) {
      c.invalidate();
      throw fail(
          CuResult.STREAM_CAPTURE_UNSUPPORTED,
          call,
          stream + " is capturing (" + c + "); the capture is invalidated");
    }
  }

  /** Rule 6: further work on a stream whose capture was invalidated. */
  static void checkNotInvalidated(SimStream stream, DriverCall call) {
    CaptureSequence c = stream.capture;
    if (c != null && c.status == CaptureStatus.INVALIDATED) {
      throw fail(
          CuResult.STREAM_CAPTURE_INVALIDATED,
          call,
          c + " was invalidated by an earlier call; end it to leave capture mode");
    }
  }

  // ---- submitting work (rules 3, 6, 8)

  /**
   * Submits asynchronous work to a stream after its arguments were validated: captured as a node
   * when the stream captures, queued otherwise.
   */
  void submit(DriverCall call, SimStream stream, Op op) {
    if (stream.kind == SimStream.Kind.LEGACY) {
      checkLegacyUse(stream.context, call, true);
    }
    checkNotInvalidated(stream, call);
    if (stream.capture != null) {
      addNode(stream, op);
    } else {
      enqueue(stream, op, List.of());
    }
  }

  /** Appends a node to a capturing stream's graph, after the stream's current dependencies. */
  Node addNode(SimStream stream, Op op) {
    CaptureSequence c = stream.capture;
    Node node = c.graph.add(op, new ArrayList<>(stream.captureDependencies));
    node.handle = new cuda.graph.spi.CuGraphNode(handles.register(node));
    stream.captureDependencies.clear();
    stream.captureDependencies.add(node);
    return node;
  }

  /** Queues an op on a stream, ordered as the legacy-stream rules require. */
  Command enqueue(SimStream stream, Op op, List<Completion> extraPrerequisites) {
    List<Completion> prerequisites = new ArrayList<>();
    for (Completion c : extraPrerequisites) {
      if (!c.isDone()) {
        prerequisites.add(c);
      }
    }
    SimContext context = stream.context;
    if (stream.kind == SimStream.Kind.LEGACY) {
      for (SimStream s : context.streams) {
        if (s != stream && s.blocking && !s.tail.isDone()) {
          prerequisites.add(s.tail);
        }
      }
    } else if (stream.blocking && !context.legacy.tail.isDone()) {
      prerequisites.add(context.legacy.tail);
    }
    Command command = new Command(stream, op, List.copyOf(prerequisites));
    stream.tail = command.done;
    engine.enqueue(command);
    return command;
  }

  /**
   * Ends a capture for all its member streams (it leaves capture mode; no graph is produced here).
   */
  void endCapture(CaptureSequence capture) {
    for (SimStream member : capture.members) {
      member.capture = null;
      member.captureDependencies.clear();
    }
    capture.ended = true;
    capture.graph.capturing = null;
    captures.remove(capture);
  }

  /**
   * Discards what a failed capture built: the graph it made, which never reached the caller, or,
   * for a capture into an existing graph, only the nodes it added (the graph stays its owner's).
   */
  void discardCapturedWork(CaptureSequence capture) {
    if (capture.intoExistingGraph) {
      removeNodesFrom(
          capture.graph, capture.firstNode, "was captured by a capture that failed, and discarded");
    } else {
      destroyGraph(
          capture.graph,
          "was discarded when its capture failed",
          "belonged to a discarded capture graph");
    }
  }

  /**
   * Destroys a graph and what it owns: its nodes, its conditional handles and, recursively, the
   * bodies of its conditional nodes.
   */
  void destroyGraph(SimGraph graph, String graphHow, String nodeHow) {
    removeNodesFrom(graph, 0, nodeHow);
    for (SimCondition condition : graph.conditions) {
      condition.destroyed = true;
    }
    unregister(graph.handle, graph, graph.context, graphHow);
  }

  /** Removes a graph's nodes from index {@code first} on, with the bodies of conditional ones. */
  void removeNodesFrom(SimGraph graph, int first, String how) {
    List<Node> removed = graph.nodes.subList(first, graph.nodes.size());
    for (Node node : removed) {
      handles.unregister(node.handle.address(), how);
      if (node.op instanceof Op.Conditional conditional) {
        conditional.condition().node = null;
        for (SimGraph body : conditional.bodies()) {
          destroyGraph(
              body,
              "was the body of a conditional node that was destroyed",
              "belonged to the body of a conditional node that was destroyed");
        }
      }
    }
    removed.clear();
  }

  static UndefinedBehaviorException undefined(String message) {
    return new UndefinedBehaviorException(message);
  }
}
