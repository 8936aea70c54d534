// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import cuda.graph.CudaDriverError;
import cuda.graph.DeviceOp;
import cuda.graph.GraphLaunch;
import cuda.graph.LaunchConfig;
import cuda.graph.ReentrantExecutionException;
import cuda.graph.Stream;
import cuda.graph.internal.kernel.KernelImpl;
import cuda.graph.internal.kernel.KernelLaunchOp;
import cuda.graph.internal.kernel.LaunchArguments;
import cuda.graph.internal.ops.AllocateOp;
import cuda.graph.internal.ops.ArrayReadOp;
import cuda.graph.internal.ops.ArrayWriteOp;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.ops.EventRecordOp;
import cuda.graph.internal.ops.EventWaitOp;
import cuda.graph.internal.ops.FillOp;
import cuda.graph.internal.ops.ForeignNodeOp;
import cuda.graph.internal.ops.FreeOp;
import cuda.graph.internal.ops.HostCallbackOp;
import cuda.graph.internal.ops.MapOp;
import cuda.graph.internal.ops.NodeOp;
import cuda.graph.internal.ops.OnceGuard;
import cuda.graph.internal.ops.ParallelOp;
import cuda.graph.internal.ops.RawStreamOp;
import cuda.graph.internal.ops.ThenOp;
import cuda.graph.internal.ops.ValueOp;
import cuda.graph.internal.ops.ZipAllOp;
import cuda.graph.internal.ops.ZipOp;
import cuda.graph.internal.runtime.CompletionService;
import cuda.graph.internal.runtime.CompletionService.HostTail;
import cuda.graph.internal.runtime.CudaEventImpl;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Runs op trees. {@link #execute} is one exhaustive {@code switch} over the closed set of op kinds:
 * it enqueues each op's GPU work on the execution's stream, in composition order, and leases every
 * buffer the work uses. {@link #onStream} is the one execution skeleton (execution lock, stream
 * lease, context binding) that {@link #syncOn}, {@link #asyncOn}, graph updates and captures run
 * their work in.
 */
public final class Executor {

  private Executor() {}

  /** What runs inside {@link #onStream}, with the stream leased and its device bound. */
  @FunctionalInterface
  public interface StreamWork<A, R extends @Nullable Object> {
    R run(StreamImpl stream, A argument);
  }

  /**
   * Runs {@code work} holding this thread's execution lock (for {@code what}), a lease on {@code
   * stream}, a place in the stream's gate (waiting while another thread captures on it) and with
   * its device's context current; releases all of them on every path.
   *
   * @throws ReentrantExecutionException if this thread already executes or captures
   */
  public static <A, R extends @Nullable Object> R onStream(
      Object what, Stream stream, A argument, StreamWork<A, R> work) {
    acquireLock(what);
    try {
      StreamImpl s = StreamImpl.of(stream);
      CudaPlatformImpl platform = s.device().platform();
      platform.enterExecution();
      try {
        s.acquire();
        s.enterWork();
        try {
          s.device().bind();
          return work.run(s, argument);
        } finally {
          s.exitWork();
          s.release();
        }
      } finally {
        platform.exitExecution();
      }
    } finally {
      ExecutionLock.release();
    }
  }

  public static <T extends @Nullable Object> T syncOn(DeviceOp<T> op, Stream stream) {
    OnceGuard.adopt(op); // handed to an execution: if it is refused, the caller is told
    return onStream(op, stream, op, Executor::runAndSynchronize);
  }

  private static <T extends @Nullable Object> T runAndSynchronize(
      StreamImpl stream, DeviceOp<T> op) {
    Execution execution = new Execution(stream, null);
    T result;
    try {
      result = execute(op, execution);
      execution.enqueued();
    } catch (RuntimeException | Error failure) {
      enqueuedAfterFailure(execution, failure);
      synchronizeAfterFailure(execution, failure);
      throw failure;
    }
    try {
      execution.driver.streamSynchronize(execution.cuStream);
    } catch (RuntimeException | Error syncFailure) {
      releaseOnceDone(execution, syncFailure);
      throw syncFailure;
    }
    execution.finish();
    return result;
  }

  /**
   * Ends the enqueue of an eager execution whose op failed part way ({@link Execution#enqueued}:
   * its exclusive buffers' uses are recorded as far as they went), adding a failure of that to
   * {@code failure}.
   */
  public static void enqueuedAfterFailure(Execution execution, Throwable failure) {
    try {
      execution.enqueued();
    } catch (RuntimeException | Error e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * Waits for what the failed op already enqueued, then releases its leases. A driver failure of
   * the synchronize wins over the op's own failure, as the device's error is the root cause.
   */
  private static void synchronizeAfterFailure(Execution execution, Throwable failure) {
    try {
      execution.driver.streamSynchronize(execution.cuStream);
    } catch (RuntimeException | Error syncFailure) {
      releaseOnceDone(execution, syncFailure);
      if (syncFailure instanceof CudaDriverError streamFailure) {
        streamFailure.addSuppressed(failure);
        throw streamFailure;
      }
      failure.addSuppressed(syncFailure);
      return;
    }
    try {
      execution.finish();
    } catch (RuntimeException | Error e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * The synchronize failed, so the work may still be queued: its leases go to the completion
   * service, which releases them once it sees the work done; at once only if the device is dead (a
   * sticky error), where nothing runs any more.
   */
  private static void releaseOnceDone(Execution execution, Throwable syncFailure) {
    if (CompletionService.deviceIsDead(syncFailure)) {
      execution.finish();
    } else {
      Throwable unobservable = execution.platform.completions().releaseWhenDone(execution, null);
      if (unobservable != null) {
        syncFailure.addSuppressed(unobservable);
      }
    }
  }

  public static <T extends @Nullable Object> CompletableFuture<T> asyncOn(
      DeviceOp<T> op, Stream stream) {
    OnceGuard.adopt(op); // handed to an execution: if it is refused, its future says so
    try {
      return onStream(op, stream, op, Executor::submit);
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Enqueues {@code op} and hands the execution to the completion service, which releases its
   * leases once the stream has run the work: even a failed op may have enqueued some.
   */
  public static <T extends @Nullable Object> CompletableFuture<T> submit(
      StreamImpl stream, DeviceOp<T> op) {
    Execution execution = new Execution(stream, null);
    Object result = null;
    Throwable failure = null;
    try {
      result = executeTail(op, execution);
      execution.enqueued();
    } catch (RuntimeException | Error e) {
      enqueuedAfterFailure(execution, e);
      failure = e;
    }
    return stream.device().platform().completions().submit(execution, result, failure);
  }

  /**
   * Executes {@code op} as {@link #execute} does, except that a read into a Java array in tail
   * position (the op itself, the op a {@code then} runs last, the source of a {@code map}, the
   * second part of a {@code zip}) only enqueues its copy into staging: {@return the op's result, or
   * a {@link HostTail} that converts the staged data and applies the host functions composed after
   * the read, once the work is done} A read anywhere else (its result feeds a {@code then}'s
   * function, the first part of a {@code zip}, a shared op) synchronizes, as under {@code syncOn}.
   */
  private static @Nullable Object executeTail(DeviceOp<?> op, Execution ex) {
    return run(op, ex, true);
  }

  public static void acquireLock(Object what) {
    Object busy = ExecutionLock.tryAcquire(what);
    if (busy != null) {
      throw new ReentrantExecutionException(
          "cannot execute "
              + what
              + ": this thread is already executing "
              + busy
              + ", and execution is not reentrant; compose the inner work into the outer op (then,"
              + " zip, or Scope.record in a capture) instead");
    }
  }

  // ---- the switch

  /**
   * Enqueues {@code op}'s work on the execution's stream, in composition order, leasing what it
   * uses; {@return the op's result}
   */
  @SuppressWarnings("unchecked")
  public static <T extends @Nullable Object> T execute(DeviceOp<T> op, Execution ex) {
    return (T) run(op, ex, false);
  }

  /**
   * Runs an op tree without recursing per composed op, so chains of any length, nested either way,
   * run on a small Java stack: a combinator pushes what remains of it onto {@code pending} and goes
   * on with its first part; the result of a finished part goes to the innermost pending combinator,
   * which either finishes too (its result goes on outwards) or names its next part. A {@code then}
   * pops itself before its next op runs, so a right-nested chain needs no stack either. {@code
   * rootInTail}: {@code root} is in tail position (see {@link #executeTail}); the flag is passed
   * down to the parts that stay in tail position.
   */
  @SuppressWarnings("unchecked")
  private static @Nullable Object run(DeviceOp<?> root, Execution ex, boolean rootInTail) {
    DeviceOp<?> op = root;
    boolean tail = rootInTail;
    @Nullable Pending pending = null;
    descend:
    while (true) {
      @Nullable Object value;
      switch (op) {
        case NodeOp<?> n -> {
          op = n.composition;
          continue descend;
        }
        case MapOp<?, ?> m -> {
          m.claim();
          pending = new Mapping(pending, m, tail);
          op = m.source;
          continue descend;
        }
        case ThenOp<?, ?> t -> {
          t.claim();
          pending = new Continuing(pending, t, tail);
          op = t.source;
          tail = false;
          continue descend;
        }
        case ZipOp<?, ?, ?> z -> {
          z.claim();
          pending = new Zipping(pending, z, tail);
          op = z.first;
          tail = false;
          continue descend;
        }
        case ZipAllOp<?> z -> {
          z.claim();
          if (!z.ops.isEmpty()) {
            ZippingAll all = new ZippingAll(pending, z);
            pending = all;
            op = all.next();
            tail = false;
            continue descend;
          }
          value = new ArrayList<>(0);
        }
        case SharedOp<?> s -> value = s.run(ex);
        case ValueOp<?> v -> {
          v.claim();
          value = v.value;
        }
        case ParallelOp<?> p -> {
          p.claim();
          value = ForkJoin.run(p, ex);
        }
        case AllocateOp<?> a -> {
          a.claim();
          value = MemoryOps.allocate(a, ex);
        }
        case FreeOp f -> {
          f.claim();
          ex.requireNotCapturing("freeing " + f.buffer);
          ex.use(f.buffer);
          f.buffer.close();
          value = null;
        }
        case CopyOp c -> {
          c.claim();
          MemoryOps.copy(c, ex);
          value = null;
        }
        case FillOp f -> {
          f.claim();
          MemoryOps.fill(
              ex, ex.use(f.buffer), f.buffer.elementType().byteSize(), f.buffer.length(), f.bits);
          value = null;
        }
        case ArrayWriteOp w -> {
          w.claim();
          MemoryOps.write(w, ex);
          value = null;
        }
        case ArrayReadOp<?> r -> {
          r.claim();
          value = tail ? MemoryOps.readLater(r, ex) : MemoryOps.read(r, ex);
        }
        case KernelLaunchOp k -> {
          k.claim();
          launch(k, ex);
          value = null;
        }
        case HostCallbackOp h -> {
          h.claim();
          ex.driver.launchHostFunc(ex.cuStream, h.callback::run);
          value = null;
        }
        case EventRecordOp r -> {
          r.claim();
          CudaEventImpl event = CudaEventImpl.of(r.event);
          ex.requireSameDevice(event.device(), event);
          event.lifetime().acquire(event);
          ex.hold(event.lifetime());
          ex.driver.eventRecord(event.handle(), ex.cuStream);
          value = null;
        }
        case EventWaitOp w -> {
          w.claim();
          CudaEventImpl event = CudaEventImpl.of(w.event);
          ex.requireSamePlatform(event.device(), event);
          event.lifetime().acquire(event);
          ex.hold(event.lifetime());
          ex.driver.streamWaitEvent(ex.cuStream, event.handle(), 0);
          value = null;
        }
        case ForeignNodeOp f -> {
          f.claim();
          ForeignStreamImpl.run(f, ex);
          value = null;
        }
        case RawStreamOp<?> r -> {
          r.claim();
          try {
            value = r.function.apply(ex.cuStream.address(), ex.device);
          } finally {
            // Foreign code may have changed the thread's current context: bind ours again if so.
            ex.platform.binding().rebindIfChanged(ex.device.context());
          }
        }
        case GraphLaunch g -> {
          GraphLaunchImpl launch = (GraphLaunchImpl) g;
          launch.claim();
          launch.launchOn(ex);
          value = null;
        }
      }
      // A part finished with value: the pending combinators take it, innermost first.
      while (pending != null) {
        switch (pending) {
          case Mapping m -> {
            pending = m.outer;
            Function<Object, Object> f = (Function<Object, Object>) m.op.function;
            value = m.tail && value instanceof HostTail later ? later.andThen(f) : f.apply(value);
          }
          case Continuing c -> {
            pending = c.outer;
            Function<Object, DeviceOp<?>> next = (Function<Object, DeviceOp<?>>) c.op.next;
            op = Objects.requireNonNull(next.apply(value), c.op.nullResultMessage());
            tail = c.tail;
            continue descend;
          }
          case Zipping z -> {
            if (!z.firstDone) {
              z.firstDone = true;
              z.first = value;
              op = z.op.second;
              tail = z.tail;
              continue descend;
            }
            pending = z.outer;
            BiFunction<Object, Object, Object> combine =
                (BiFunction<Object, Object, Object>) z.op.combine;
            Object a = z.first;
            value =
                z.tail && value instanceof HostTail later
                    ? later.andThen(b -> combine.apply(a, b))
                    : combine.apply(a, value);
          }
          case ZippingAll all -> {
            all.results.add(value);
            if (all.hasNext()) {
              op = all.next();
              continue descend;
            }
            pending = all.outer;
            value = all.results;
          }
        }
      }
      return value;
    }
  }

  /** What remains of a combinator once its current part has finished, and the one around it. */
  private abstract static sealed class Pending permits Mapping, Continuing, Zipping, ZippingAll {
    final @Nullable Pending outer;

    Pending(@Nullable Pending outer) {
      this.outer = outer;
    }
  }

  /** A {@code map} waiting for its source. */
  private static final class Mapping extends Pending {
    final MapOp<?, ?> op;
    final boolean tail;

    Mapping(@Nullable Pending outer, MapOp<?, ?> op, boolean tail) {
      super(outer);
      this.op = op;
      this.tail = tail;
    }
  }

  /** A {@code then} waiting for its source, to build the op it runs next. */
  private static final class Continuing extends Pending {
    final ThenOp<?, ?> op;
    final boolean tail;

    Continuing(@Nullable Pending outer, ThenOp<?, ?> op, boolean tail) {
      super(outer);
      this.op = op;
      this.tail = tail;
    }
  }

  /** A {@code zip} waiting for its first part, then for its second. */
  private static final class Zipping extends Pending {
    final ZipOp<?, ?, ?> op;
    final boolean tail;
    boolean firstDone;
    @Nullable Object first;

    Zipping(@Nullable Pending outer, ZipOp<?, ?, ?> op, boolean tail) {
      super(outer);
      this.op = op;
      this.tail = tail;
    }
  }

  /** A {@code zipAll} collecting its parts' results in order. */
  private static final class ZippingAll extends Pending {
    final List<? extends DeviceOp<?>> ops;
    final List<@Nullable Object> results;
    private int next;

    ZippingAll(@Nullable Pending outer, ZipAllOp<?> op) {
      super(outer);
      this.ops = op.ops;
      this.results = new ArrayList<>(ops.size());
    }

    boolean hasNext() {
      return next < ops.size();
    }

    DeviceOp<?> next() {
      return ops.get(next++);
    }
  }

  private static void launch(KernelLaunchOp k, Execution ex) {
    KernelImpl kernel = KernelImpl.of(k.kernel);
    if (!k.shapeChecked) {
      // A launch without buffer arguments could not be checked when built: its device is this one.
      kernel.checkShape(k.config, ex.device);
    }
    CuFunction function = kernel.function(ex, k.config.sharedMemoryBytes());
    KernelArguments block = kernel.argumentBlock();
    LaunchArguments.bind(k, ex, block);
    LaunchConfig c = k.config;
    if (c.programmaticDependentLaunch()) {
      ex.driver.launchKernelProgrammatic(
          function,
          c.grid().x(),
          c.grid().y(),
          c.grid().z(),
          c.block().x(),
          c.block().y(),
          c.block().z(),
          c.sharedMemoryBytes(),
          ex.cuStream,
          block);
      return;
    }
    ex.driver.launchKernel(
        function,
        c.grid().x(),
        c.grid().y(),
        c.grid().z(),
        c.block().x(),
        c.block().y(),
        c.block().z(),
        c.sharedMemoryBytes(),
        ex.cuStream,
        block);
  }
}
