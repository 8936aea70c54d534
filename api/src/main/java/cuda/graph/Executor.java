package cuda.graph;

import cuda.graph.internal.ExecutionLock;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Runs op trees. {@link #execute} is one exhaustive {@code switch} over the closed set of op
 * kinds: it enqueues each op's GPU work on the execution's stream, in composition order, and
 * leases every buffer the work uses. {@link #syncOn} and {@link #asyncOn} wrap it with the
 * execution lock, context binding and completion.
 */
final class Executor {

  private Executor() {}

  static <T extends @Nullable Object> T syncOn(DeviceOp<T> op, Stream stream) {
    acquireLock(op);
    try {
      stream.acquire();
      try {
        stream.device().bind();
        Execution execution = new Execution(stream, null);
        try {
          T result;
          try {
            result = execute(op, execution);
          } catch (RuntimeException | Error failure) {
            synchronizeAfterFailure(execution, failure);
            throw failure;
          }
          execution.driver.streamSynchronize(execution.cuStream);
          return result;
        } finally {
          execution.finish();
        }
      } finally {
        stream.release();
      }
    } finally {
      ExecutionLock.release();
    }
  }

  /**
   * Waits for what the failed op already enqueued, so its leases can be released. A failure of
   * the stream's work wins over the op's own failure, as the device's error is the root cause.
   */
  private static void synchronizeAfterFailure(Execution execution, Throwable failure) {
    try {
      execution.driver.streamSynchronize(execution.cuStream);
    } catch (CudaDriverError streamFailure) {
      streamFailure.addSuppressed(failure);
      throw streamFailure;
    }
  }

  static <T extends @Nullable Object> CompletableFuture<T> asyncOn(DeviceOp<T> op, Stream stream) {
    Object busy = ExecutionLock.tryAcquire(op);
    if (busy != null) {
      return CompletableFuture.failedFuture(reentrant(op, busy));
    }
    try {
      stream.acquire();
      try {
        stream.device().bind();
        Execution execution = new Execution(stream, null);
        T result = null;
        Throwable failure = null;
        try {
          result = execute(op, execution);
        } catch (RuntimeException | Error e) {
          failure = e;
        }
        // Even a failed op may have enqueued work: its leases are released once the stream has run it.
        return stream.device().platform().completions().submit(execution, result, failure);
      } finally {
        stream.release();
      }
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    } finally {
      ExecutionLock.release();
    }
  }

  static void acquireLock(Object what) {
    Object busy = ExecutionLock.tryAcquire(what);
    if (busy != null) {
      throw reentrant(what, busy);
    }
  }

  private static ReentrantExecutionException reentrant(Object what, Object busy) {
    return new ReentrantExecutionException(
        "cannot execute " + what + ": this thread is already executing " + busy + ", and execution is not reentrant;"
            + " compose the inner work into the outer op (then, zip, or Scope.record in a capture) instead");
  }

  // ---- the switch

  @SuppressWarnings("unchecked")
  static <T extends @Nullable Object> T execute(DeviceOp<T> op, Execution ex) {
    if (op instanceof SharedOp<T> shared) {
      return shared.run(ex);
    }
    return (T) switch (op) {
      case ValueOp<?> v -> {
        v.claim();
        yield v.value;
      }
      case MapOp<?, ?> m -> {
        m.claim();
        yield map(m, ex);
      }
      case NodeMapOp<?, ?> m -> {
        m.claim();
        yield mapNode(m, ex);
      }
      case ThenOp<?, ?> t -> {
        t.claim();
        yield then(t, ex);
      }
      case NodeThenOp<?, ?> t -> {
        t.claim();
        yield thenNode(t, ex);
      }
      case ZipOp<?, ?, ?> z -> {
        z.claim();
        yield zip(z, ex);
      }
      case NodeZipOp<?, ?, ?> z -> {
        z.claim();
        yield zipNodes(z, ex);
      }
      case ZipAllOp<?> z -> {
        z.claim();
        List<Object> results = new ArrayList<>(z.ops.size());
        for (DeviceOp<?> part : z.ops) {
          results.add(execute(part, ex));
        }
        yield results;
      }
      case NodeSequenceOp q -> {
        q.claim();
        for (GraphNode<?> node : q.nodes) {
          execute(node, ex);
        }
        yield null;
      }
      case SharedOp<?> s -> throw new AssertionError("handled above: " + s);
      case AllocateOp<?> a -> {
        a.claim();
        yield Memory.allocate(a, ex);
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
        Memory.copy(c, ex);
        yield null;
      }
      case FillOp f -> {
        f.claim();
        Memory.fill(ex, ex.use(f.buffer), f.buffer.elementType().byteSize(), f.buffer.length(), f.bits);
        yield null;
      }
      case ArrayWriteOp w -> {
        w.claim();
        Memory.write(w, ex);
        yield null;
      }
      case ArrayReadOp<?> r -> {
        r.claim();
        yield Memory.read(r, ex);
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
        ex.requireSameDevice(r.event.device(), r.event);
        r.event.lifetime().acquire(r.event);
        ex.hold(r.event.lifetime());
        ex.driver.eventRecord(r.event.handle(), ex.cuStream);
        yield null;
      }
      case EventWaitOp w -> {
        w.claim();
        w.event.lifetime().acquire(w.event);
        ex.hold(w.event.lifetime());
        ex.driver.streamWaitEvent(ex.cuStream, w.event.handle(), 0);
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
        g.claim();
        g.launchOn(ex);
        yield null;
      }
    };
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R map(MapOp<T, R> m, Execution ex) {
    return map(m.source, m.function, ex);
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R map(
      DeviceOp<T> source, java.util.function.Function<? super T, ? extends R> function, Execution ex) {
    return function.apply(execute(source, ex));
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R mapNode(NodeMapOp<T, R> m, Execution ex) {
    return map(m.source, m.function, ex);
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R then(ThenOp<T, R> t, Execution ex) {
    DeviceOp<R> next = t.next.apply(execute(t.source, ex));
    return execute(java.util.Objects.requireNonNull(next, "then(...) returned null instead of an op"), ex);
  }

  private static <T extends @Nullable Object, R extends @Nullable Object> R thenNode(NodeThenOp<T, R> t, Execution ex) {
    GraphNode<R> next = t.next.apply(execute(t.source, ex));
    return execute(java.util.Objects.requireNonNull(next, "thenNode(...) returned null instead of a graph node"), ex);
  }

  private static <A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object> R zip(
      ZipOp<A, B, R> z, Execution ex) {
    A a = execute(z.first, ex);
    B b = execute(z.second, ex);
    return z.combine.apply(a, b);
  }

  private static <A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object> R zipNodes(
      NodeZipOp<A, B, R> z, Execution ex) {
    A a = execute(z.first, ex);
    B b = execute(z.second, ex);
    return z.combine.apply(a, b);
  }

  private static void launch(KernelLaunchOp k, Execution ex) {
    Kernel kernel = k.kernel;
    CuFunction function = kernel.function(ex.device);
    KernelArguments block = kernel.argumentBlock();
    List<KernelParam> params = kernel.parameters();
    Object[] args = k.arguments;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case DeviceBuffer<?> b -> block.setI64(i, ex.use(b));
        case Integer v -> block.setI32(i, v);
        case Float v -> block.setF32(i, v);
        case Long v -> block.setI64(i, v);
        case Double v -> block.setF64(i, v);
        case Short v -> block.setI16(i, v);
        case Byte v -> block.setI8(i, v);
        default -> throw new IllegalArgumentException("argument " + i + " of " + kernel + " cannot be passed as " + params.get(i));
      }
    }
    LaunchConfig c = k.config;
    ex.driver.launchKernel(
        function,
        c.grid().x(), c.grid().y(), c.grid().z(),
        c.block().x(), c.block().y(), c.block().z(),
        c.sharedMemoryBytes(), ex.cuStream, block);
  }

}
