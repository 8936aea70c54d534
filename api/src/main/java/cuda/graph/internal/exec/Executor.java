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
    return onStream(op, stream, op, Executor::runAndSynchronize);
  }

  private static <T extends @Nullable Object> T runAndSynchronize(
      StreamImpl stream, DeviceOp<T> op) {
    Execution execution = new Execution(stream, null);
    T result;
    try {
      result = execute(op, execution);
    } catch (RuntimeException | Error failure) {
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
    } catch (RuntimeException | Error e) {
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
  @SuppressWarnings("unchecked")
  private static @Nullable Object executeTail(DeviceOp<?> op, Execution ex) {
    return switch (op) {
      case ArrayReadOp<?> r -> {
        r.claim();
        yield MemoryOps.readLater(r, ex);
      }
      case NodeOp<?> n -> executeTail(n.composition, ex);
      case MapOp<?, ?> m -> {
        m.claim();
        Object source = executeTail(m.source, ex);
        Function<Object, Object> f = (Function<Object, Object>) m.function;
        yield source instanceof HostTail tail ? tail.andThen(f) : f.apply(source);
      }
      case ThenOp<?, ?> t -> {
        t.claim();
        Function<Object, DeviceOp<?>> next = (Function<Object, DeviceOp<?>>) t.next;
        DeviceOp<?> last = next.apply(execute(t.source, ex));
        yield executeTail(Objects.requireNonNull(last, t.nullResultMessage()), ex);
      }
      case ZipOp<?, ?, ?> z -> {
        z.claim();
        Object a = execute(z.first, ex);
        Object b = executeTail(z.second, ex);
        BiFunction<Object, Object, Object> combine = (BiFunction<Object, Object, Object>) z.combine;
        yield b instanceof HostTail tail
            ? tail.andThen(x -> combine.apply(a, x))
            : combine.apply(a, b);
      }
      default -> execute(op, ex);
    };
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

  @SuppressWarnings("unchecked")
  public static <T extends @Nullable Object> T execute(DeviceOp<T> op, Execution ex) {
    if (op instanceof SharedOp<T> shared) {
      return shared.run(ex);
    }
    return (T)
        switch (op) {
          case ValueOp<?> v -> {
            v.claim();
            yield v.value;
          }
          case NodeOp<?> n -> execute(n.composition, ex);
          case MapOp<?, ?> m -> {
            m.claim();
            yield map(m, ex);
          }
          case ThenOp<?, ?> t -> {
            t.claim();
            yield then(t, ex);
          }
          case ZipOp<?, ?, ?> z -> {
            z.claim();
            yield zip(z, ex);
          }
          case ZipAllOp<?> z -> {
            z.claim();
            List<Object> results = new ArrayList<>(z.ops.size());
            for (DeviceOp<?> part : z.ops) {
              results.add(execute(part, ex));
            }
            yield results;
          }
          case ParallelOp<?> p -> {
            p.claim();
            yield ForkJoin.run(p, ex);
          }
          case SharedOp<?> s -> throw new AssertionError("handled above: " + s);
          case AllocateOp<?> a -> {
            a.claim();
            yield MemoryOps.allocate(a, ex);
          }
          case FreeOp f -> {
            f.claim();
            ex.requireNotCapturing("freeing " + f.buffer);
            ex.use(f.buffer);
            f.buffer.close();
            yield null;
          }
          case CopyOp c -> {
            c.claim();
            MemoryOps.copy(c, ex);
            yield null;
          }
          case FillOp f -> {
            f.claim();
            MemoryOps.fill(
                ex, ex.use(f.buffer), f.buffer.elementType().byteSize(), f.buffer.length(), f.bits);
            yield null;
          }
          case ArrayWriteOp w -> {
            w.claim();
            MemoryOps.write(w, ex);
            yield null;
          }
          case ArrayReadOp<?> r -> {
            r.claim();
            yield MemoryOps.read(r, ex);
          }
          case KernelLaunchOp k -> {
            k.claim();
            launch(k, ex);
            yield null;
          }
          case HostCallbackOp h -> {
            h.claim();
            ex.driver.launchHostFunc(ex.cuStream, h.callback::run);
            yield null;
          }
          case EventRecordOp r -> {
            r.claim();
            CudaEventImpl event = CudaEventImpl.of(r.event);
            ex.requireSameDevice(event.device(), event);
            event.lifetime().acquire(event);
            ex.hold(event.lifetime());
            ex.driver.eventRecord(event.handle(), ex.cuStream);
            yield null;
          }
          case EventWaitOp w -> {
            w.claim();
            CudaEventImpl event = CudaEventImpl.of(w.event);
            ex.requireSamePlatform(event.device(), event);
            event.lifetime().acquire(event);
            ex.hold(event.lifetime());
            ex.driver.streamWaitEvent(ex.cuStream, event.handle(), 0);
            yield null;
          }
          case ForeignNodeOp f -> {
            f.claim();
            ForeignStreamImpl.run(f, ex);
            yield null;
          }
          case RawStreamOp<?> r -> {
            r.claim();
            try {
              yield r.function.apply(ex.cuStream.address(), ex.device);
            } finally {
              // Foreign code may have changed the thread's current context: bind ours again if so.
              ex.platform.binding().rebindIfChanged(ex.device.context());
            }
          }
          case GraphLaunch g -> {
            GraphLaunchImpl launch = (GraphLaunchImpl) g;
            launch.claim();
            launch.launchOn(ex);
            yield null;
          }
        };
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R map(
      MapOp<T, R> m, Execution ex) {
    return m.function.apply(execute(m.source, ex));
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R then(
      ThenOp<T, R> t, Execution ex) {
    DeviceOp<R> next = t.next.apply(execute(t.source, ex));
    return execute(Objects.requireNonNull(next, t.nullResultMessage()), ex);
  }

  private static <
          A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object>
      R zip(ZipOp<A, B, R> z, Execution ex) {
    A a = execute(z.first, ex);
    B b = execute(z.second, ex);
    return z.combine.apply(a, b);
  }

  private static void launch(KernelLaunchOp k, Execution ex) {
    KernelImpl kernel = KernelImpl.of(k.kernel);
    if (!k.shapeChecked) {
      // A launch without buffer arguments could not be checked when built: its device is this one.
      kernel.checkShape(k.config, ex.device);
    }
    CuFunction function = kernel.function(ex.device);
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
