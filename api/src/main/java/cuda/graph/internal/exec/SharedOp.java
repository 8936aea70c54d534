// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import cuda.graph.DeviceOp;
import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.EventFlags;
import org.jspecify.annotations.Nullable;

/**
 * Executes its source once for any number of consumers. The first consumer runs the source on its
 * stream and records an event after it; later consumers get the same result (or the same failure)
 * and, when they run on another stream while the producer's work may still be running, make that
 * stream wait for the event, so their GPU work is ordered after the producer's. The event is
 * destroyed as soon as the producer's work is known complete (its execution finished): later
 * consumers need no wait. Consumers on other threads wait until the producer has submitted.
 */
public final class SharedOp<T extends @Nullable Object> implements DeviceOp<T> {

  private enum Phase {
    READY,
    RUNNING,
    DONE
  }

  private final Object lock = new Object();
  private @Nullable DeviceOp<T> source;
  private Phase phase = Phase.READY;
  private @Nullable Thread producer;
  private @Nullable T result;
  private @Nullable Throwable failure;
  private @Nullable StreamImpl producerStream;
  private @Nullable Object producedInCapture;
  private @Nullable CuEvent event;

  public SharedOp(DeviceOp<T> source) {
    this.source = source;
  }

  public T run(Execution execution) {
    DeviceOp<T> toRun = null;
    synchronized (lock) {
      while (phase == Phase.RUNNING) {
        if (producer == Thread.currentThread()) {
          throw new IllegalStateException(
              this + " consumes its own result: a shared op cannot be part of itself");
        }
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(
              "interrupted while waiting for " + this + " to be produced", e);
        }
      }
      if (phase == Phase.READY) {
        phase = Phase.RUNNING;
        producer = Thread.currentThread();
        toRun = source;
        source = null;
      }
    }
    if (toRun != null) {
      produce(toRun, execution);
    }
    return consume(execution);
  }

  private void produce(DeviceOp<T> toRun, Execution execution) {
    T value = null;
    Throwable error = null;
    CuEvent recorded = null;
    try {
      value = Executor.execute(toRun, execution);
      if (!execution.isCapturing()) {
        recorded = execution.driver.eventCreate(EventFlags.DISABLE_TIMING);
        try {
          execution.driver.eventRecord(recorded, execution.cuStream);
        } catch (RuntimeException | Error e) {
          execution.driver.eventDestroy(recorded);
          throw e;
        }
        // Once the producing execution has finished, its work is done: the event can go.
        DeviceImpl device = execution.device;
        execution.hold(new RefCount(() -> retireEvent(device)));
      }
    } catch (RuntimeException | Error e) {
      error = e;
    }
    synchronized (lock) {
      result = value;
      failure = error;
      event = recorded;
      producerStream = execution.stream;
      producedInCapture = execution.capturing;
      phase = Phase.DONE;
      producer = null;
      lock.notifyAll();
    }
  }

  private T consume(Execution execution) {
    Throwable error;
    T value;
    StreamImpl stream;
    Object capture;
    synchronized (lock) {
      error = failure;
      value = result;
      stream = producerStream;
      capture = producedInCapture;
    }
    if (error instanceof RuntimeException e) {
      throw e;
    }
    if (error instanceof Error e) {
      throw e;
    }
    if (capture != null && capture != execution.capturing) {
      throw new IllegalStateException(
          this
              + " was executed while capturing a graph ("
              + capture
              + "): its result is computed only when the"
              + " graph is launched, so it cannot be used outside that capture");
    }
    if (stream != execution.stream) {
      waitForProducer(execution);
    }
    return value;
  }

  /** Orders the consumer's stream after the producer's work, if that work may still be running. */
  private void waitForProducer(Execution execution) {
    synchronized (lock) {
      CuEvent pending = event;
      if (pending == null) {
        return;
      }
      if (execution.isCapturing()) {
        throw new IllegalStateException(
            this
                + " was produced on another stream and its work may still be running; a capture"
                + " cannot wait for work outside it: synchronize the producer before capturing");
      }
      execution.driver.streamWaitEvent(execution.cuStream, pending, 0);
    }
  }

  private void retireEvent(DeviceImpl device) {
    CuEvent retired;
    synchronized (lock) {
      retired = event;
      event = null;
    }
    if (retired != null) {
      device.release(driver -> driver.eventDestroy(retired));
    }
  }

  @Override
  public String toString() {
    return "shared op@" + Integer.toHexString(System.identityHashCode(this));
  }
}
