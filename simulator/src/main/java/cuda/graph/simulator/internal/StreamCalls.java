// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.StreamFlags;

/** Stream creation, destruction, synchronization, queries and host functions. */
final class StreamCalls {

  private final SimState state;

  StreamCalls(SimState state) {
    this.state = state;
  }

  CuStream create(int flags) {
    SimContext context = state.currentContext(DriverCall.STREAM_CREATE);
    if (flags != StreamFlags.DEFAULT && flags != StreamFlags.NON_BLOCKING) {
      throw invalid(
          DriverCall.STREAM_CREATE,
          "stream flags are CU_STREAM_DEFAULT (0) or CU_STREAM_NON_BLOCKING (1), got " + flags);
    }
    long address = state.handles.newAddress(SimStream.class);
    SimStream stream =
        new SimStream(
            new CuStream(address), context, SimStream.Kind.USER, flags == StreamFlags.DEFAULT);
    state.adopt(address, stream, context);
    context.streams.add(stream);
    return stream.handle;
  }

  void destroy(CuStream handle) {
    if (handle.isDefaultStream()) {
      throw fail(
          CuResult.INVALID_HANDLE,
          DriverCall.STREAM_DESTROY,
          handle + " is a default stream and cannot be destroyed");
    }
    SimStream stream = state.resolve(handle, SimStream.class, DriverCall.STREAM_DESTROY);
    CaptureSequence capture = stream.capture;
    if (capture != null) {
      // The driver returns success; the capture cannot survive its stream, so it ends without a
      // graph.
      if (capture.origin == stream) {
        state.endCapture(capture);
        state.discardCapturedWork(capture);
      } else {
        capture.invalidate();
        capture.members.remove(stream);
        stream.capture = null;
        stream.captureDependencies.clear();
      }
    }
    stream.destroyed = true;
    stream.context.streams.remove(stream);
    state.unregister(handle, stream, stream.context, "was destroyed by cuStreamDestroy_v2");
  }

  /** Checks for synchronize and query; returns what to wait for. */
  Completion prepareWait(CuStream handle, DriverCall call) {
    SimStream stream = state.stream(handle, call);
    state.checkSticky(stream.context, call);
    if (stream.kind == SimStream.Kind.LEGACY) {
      state.checkLegacyUse(stream.context, call, true);
      state.checkUnsafe(call);
    } else if (stream.capture != null) {
      SimState.checkNotCapturing(stream, call);
    } else {
      state.checkUnsafe(call);
    }
    return stream.tail;
  }

  boolean query(CuStream handle) {
    DriverCall call = DriverCall.STREAM_QUERY;
    Completion tail = prepareWait(handle, call);
    boolean done = tail.isDone();
    if (done) {
      state.checkSticky(state.stream(handle, call).context, call);
    }
    return done;
  }

  void launchHostFunc(CuStream handle, HostFunction function) {
    if (function == null) {
      throw SimState.undefined("cuLaunchHostFunc was passed a NULL function");
    }
    SimStream stream = state.stream(handle, DriverCall.LAUNCH_HOST_FUNC);
    state.checkSticky(stream.context, DriverCall.LAUNCH_HOST_FUNC);
    state.submit(DriverCall.LAUNCH_HOST_FUNC, stream, new Op.Host(function));
  }
}
