// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.EventFlags;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Events: creation, record (captured or not), waits (forking and joining captures), queries,
 * timing.
 */
final class EventCalls {

  private static final int KNOWN_FLAGS =
      EventFlags.BLOCKING_SYNC | EventFlags.DISABLE_TIMING | EventFlags.INTERPROCESS;

  private final SimState state;

  EventCalls(SimState state) {
    this.state = state;
  }

  CuEvent create(int flags) {
    SimContext context = state.currentContext(DriverCall.EVENT_CREATE);
    if ((flags & ~KNOWN_FLAGS) != 0) {
      throw invalid(DriverCall.EVENT_CREATE, "unknown event flags 0x" + Integer.toHexString(flags));
    }
    if ((flags & EventFlags.INTERPROCESS) != 0 && (flags & EventFlags.DISABLE_TIMING) == 0) {
      throw invalid(
          DriverCall.EVENT_CREATE, "CU_EVENT_INTERPROCESS requires CU_EVENT_DISABLE_TIMING");
    }
    long address = state.handles.newAddress(SimEvent.class);
    SimEvent event = new SimEvent(new CuEvent(address), context, flags);
    state.adopt(address, event, context);
    return event.handle;
  }

  void destroy(CuEvent handle) {
    SimEvent event = state.resolve(handle, SimEvent.class, DriverCall.EVENT_DESTROY);
    state.unregister(handle, event, event.context, "was destroyed by cuEventDestroy_v2");
  }

  void record(CuEvent eventHandle, CuStream streamHandle, int flags, DriverCall call) {
    if (flags != 0 && flags != EventFlags.RECORD_EXTERNAL) {
      throw invalid(call, "event record flags are 0 or CU_EVENT_RECORD_EXTERNAL (1), got " + flags);
    }
    SimEvent event = state.resolve(eventHandle, SimEvent.class, call);
    SimStream stream = state.stream(streamHandle, call);
    state.checkSticky(stream.context, call);
    if (event.context != stream.context) {
      throw invalid(call, event.handle + " and " + stream + " belong to different contexts");
    }
    CaptureSequence capture = stream.capture;
    if (capture == null && flags == EventFlags.RECORD_EXTERNAL) {
      throw fail(
          CuResult.ILLEGAL_STATE, call, "CU_EVENT_RECORD_EXTERNAL is only meaningful in a capture");
    }
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, true);
    }
    SimState.checkNotInvalidated(stream, call);
    if (capture != null) {
      event.recorded = null;
      event.capture = capture;
      if (flags == EventFlags.RECORD_EXTERNAL) {
        Node node = state.addNode(stream, new Op.RecordEvent(event));
        event.capturedNodes = new LinkedHashSet<>(List.of(node));
      } else {
        event.capturedNodes = new LinkedHashSet<>(stream.captureDependencies);
      }
      return;
    }
    Command marker = state.enqueue(stream, new Op.Empty("record " + event.handle), List.of());
    event.recorded = marker.done;
    event.capture = null;
  }

  void streamWaitEvent(CuStream streamHandle, CuEvent eventHandle, int flags) {
    DriverCall call = DriverCall.STREAM_WAIT_EVENT;
    if (flags != 0 && flags != EventFlags.WAIT_EXTERNAL) {
      throw invalid(call, "wait flags are 0 or CU_EVENT_WAIT_EXTERNAL (1), got " + flags);
    }
    SimStream stream = state.stream(streamHandle, call);
    SimEvent event = state.resolve(eventHandle, SimEvent.class, call);
    state.checkSticky(stream.context, call);
    CaptureSequence capture = stream.capture;
    if (capture == null && flags == EventFlags.WAIT_EXTERNAL) {
      throw fail(
          CuResult.ILLEGAL_STATE, call, "CU_EVENT_WAIT_EXTERNAL is only meaningful in a capture");
    }
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, true);
    }
    SimState.checkNotInvalidated(stream, call);
    CaptureSequence eventCapture = event.capture;
    if (eventCapture != null) {
      if (eventCapture.ended) {
        throw invalid(
            call,
            event.handle + " was last recorded in a capture that has ended; record it again first");
      }
      if (capture == null) {
        // Fork: the stream joins the event's capture, depending on the event's nodes.
        stream.capture = eventCapture;
        eventCapture.members.add(stream);
        stream.captureDependencies.clear();
        stream.captureDependencies.addAll(event.capturedNodes);
      } else if (capture == eventCapture) {
        stream.captureDependencies.addAll(event.capturedNodes);
      } else {
        capture.invalidate();
        eventCapture.invalidate();
        throw fail(
            CuResult.STREAM_CAPTURE_MERGE,
            call,
            "waiting would merge " + capture + " with " + eventCapture + "; both are invalidated");
      }
      return;
    }
    Completion recorded = event.recorded;
    if (recorded == null) {
      return; // a never-recorded event stands for no work
    }
    if (capture != null) {
      if (flags == EventFlags.WAIT_EXTERNAL) {
        state.addNode(stream, new Op.WaitEvent(event));
        return;
      }
      capture.invalidate();
      throw fail(
          CuResult.STREAM_CAPTURE_ISOLATION,
          call,
          event.handle
              + " was recorded outside "
              + capture
              + "; a capture cannot depend on uncaptured work (use CU_EVENT_WAIT_EXTERNAL for an"
              + " external wait node); the capture is invalidated");
    }
    state.enqueue(stream, new Op.Empty("wait " + event.handle), List.of(recorded));
  }

  /** Checks for query and synchronize; returns what to wait for. */
  Completion prepareWait(CuEvent handle, DriverCall call) {
    SimEvent event = state.resolve(handle, SimEvent.class, call);
    state.checkSticky(event.context, call);
    CaptureSequence capture = event.capture;
    if (capture != null) {
      if (capture.ended) {
        throw invalid(
            call,
            event.handle + " was last recorded in a capture that has ended; record it again first");
      }
      capture.invalidate();
      throw fail(
          CuResult.CAPTURED_EVENT,
          call,
          event.handle
              + " was last recorded in "
              + capture
              + "; it cannot be queried or waited on; the capture is invalidated");
    }
    Completion recorded = event.recorded;
    if (recorded == null) {
      return Completion.DONE;
    }
    state.checkUnsafe(call);
    return recorded;
  }

  boolean query(CuEvent handle) {
    DriverCall call = DriverCall.EVENT_QUERY;
    Completion recorded = prepareWait(handle, call);
    boolean done = recorded.isDone();
    if (done) {
      state.checkSticky(state.resolve(handle, SimEvent.class, call).context, call);
    }
    return done;
  }

  float elapsedTime(CuEvent start, CuEvent end) {
    DriverCall call = DriverCall.EVENT_ELAPSED_TIME;
    SimEvent a = state.resolve(start, SimEvent.class, call);
    SimEvent b = state.resolve(end, SimEvent.class, call);
    state.checkSticky(a.context, call);
    for (SimEvent e : List.of(a, b)) {
      if (e.timingDisabled()) {
        throw fail(
            CuResult.INVALID_HANDLE, call, e.handle + " was created with CU_EVENT_DISABLE_TIMING");
      }
      if (e.capture != null) {
        throw fail(
            e.capture.ended ? CuResult.INVALID_VALUE : CuResult.CAPTURED_EVENT,
            call,
            e.handle + " was last recorded in a capture");
      }
      if (e.recorded == null) {
        throw fail(CuResult.INVALID_HANDLE, call, e.handle + " was never recorded");
      }
    }
    for (SimEvent e : List.of(a, b)) {
      if (!e.recorded.isDone()) {
        throw fail(CuResult.NOT_READY, call, e.handle + "'s recorded work has not completed");
      }
    }
    return (b.recorded.finishedNanos() - a.recorded.finishedNanos()) / 1_000_000f;
  }

  static CaptureStatus statusOf(SimStream stream) {
    return stream.capture == null ? CaptureStatus.NONE : stream.capture.status;
  }
}
