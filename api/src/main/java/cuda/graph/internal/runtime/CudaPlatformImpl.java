// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceOp;
import cuda.graph.SchedulingPolicy;
import cuda.graph.Stream;
import cuda.graph.internal.bootstrap.ProviderSelector;
import cuda.graph.internal.bootstrap.ProviderSelector.Outcome;
import cuda.graph.internal.bootstrap.SystemPlatform;
import cuda.graph.spi.CudaDriver;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link CudaPlatform}: owns the translating driver, the devices, the
 * completion service, the release queue and the default scheduling policy, and closes them in
 * reverse order of dependence.
 *
 * <p>Closing (by {@link #close()}, or by the exit hook of the process-wide platform) first admits
 * no new execution and waits for those running; then waits until the work submitted is done (the
 * futures still pending fail); then destroys the graphs still alive (whatever launches are still
 * out), the default policy's streams and the modules; closes the release queue (later releases are
 * dropped), then frees the device memory its ops allocated and the mapped host memory that are
 * still allocated (buffers still open, or dropped and not yet cleaned: the objects stay as they
 * are, and any later use fails because the platform is closed), then the staging memory, the
 * release streams and the contexts.
 */
public final class CudaPlatformImpl implements CudaPlatform {

  /** Releases native objects that became unreachable without being closed. */
  public static final Cleaner CLEANER = Cleaner.create();

  private static final ScopedValue<CudaPlatformImpl> CURRENT = ScopedValue.newInstance();

  private static final System.Logger LOG = System.getLogger("cuda.graph");

  /** How long the exit hook waits for running work before it leaves the rest to the driver. */
  public static final Duration EXIT_BUDGET = Duration.ofSeconds(5);

  private static final SystemPlatform<CudaPlatformImpl> SYSTEM =
      bootstrap(
          () ->
              ProviderSelector.open(
                  ProviderSelector.selectForProcess(),
                  System.getLogger(ProviderSelector.LOGGER_NAME)));

  private final String providerId;
  private final List<String> selectionReport;
  private final TranslatingDriver driver;
  private final int driverVersion;
  private final ThreadBinding binding;
  private final ReleaseQueue releases = new ReleaseQueue();
  private final List<DeviceImpl> devices;
  private final List<Device> deviceView;
  private final CompletionService completions;
  private final List<Runnable> closeActions = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final boolean ownedByCaller;

  /** Executions (ops, captures, updates) in progress: closing waits for them. */
  private final LongAdder executing = new LongAdder();

  /** Instantiated graphs not yet destroyed: closing destroys them, launches outstanding or not. */
  private final Set<GraphExecHandle> graphs = ConcurrentHashMap.newKeySet();

  /** Device memory the platform's ops allocated; pruned as it is freed. */
  private final Set<Allocation> memory = ConcurrentHashMap.newKeySet();

  /** One allocation of device memory, and the lifetime that frees it. */
  private record Allocation(DeviceImpl device, long address, RefCount lifetime) {}

  private final AtomicInteger memoryAdded = new AtomicInteger();

  /** Mapped host memory of buffers made on this platform; pruned as it is freed. */
  private final Set<HostAllocation> hostMemory = ConcurrentHashMap.newKeySet();

  /** One allocation of mapped host memory, and the lifetime that frees it. */
  private record HostAllocation(DeviceImpl device, MemorySegment memory, RefCount lifetime) {}

  private final AtomicInteger hostMemoryAdded = new AtomicInteger();

  /** The shutdown hook of the process-wide platform, or null. */
  private volatile @Nullable Thread exitHook;

  /** The policy the platform starts with; it owns its streams, closed with the platform. */
  private final RoundRobinPolicy defaultPolicy = new RoundRobinPolicy(4);

  private volatile SchedulingPolicy schedulingPolicy = new DefaultPolicy();

  /**
   * The default policy as users see it: it picks streams only while the platform is open, and
   * counts as an execution while it does, so that the close (which closes its streams) cannot race
   * with it creating some.
   */
  private final class DefaultPolicy implements SchedulingPolicy {
    @Override
    public Stream nextStream(Device device) {
      enterExecution();
      try {
        return defaultPolicy.nextStream(device);
      } finally {
        exitExecution();
      }
    }

    @Override
    public String toString() {
      return defaultPolicy.toString();
    }
  }

  private CudaPlatformImpl(
      String providerId, List<String> selectionReport, CudaDriver driver, boolean ownedByCaller) {
    this.providerId = providerId;
    this.selectionReport = List.copyOf(selectionReport);
    this.driver = new TranslatingDriver(driver);
    this.binding = new ThreadBinding(this.driver);
    this.driverVersion = this.driver.driverGetVersion();
    this.ownedByCaller = ownedByCaller;
    int count = this.driver.deviceGetCount();
    List<DeviceImpl> all = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      all.add(new DeviceImpl(this, i));
    }
    this.devices = List.copyOf(all);
    this.deviceView = List.<Device>copyOf(all);
    this.completions = new CompletionService(this);
  }

  /** {@return a process-wide platform made, once, from what {@code selection} opens} */
  public static SystemPlatform<CudaPlatformImpl> bootstrap(Supplier<Outcome> selection) {
    return new SystemPlatform<>(
        selection,
        opened -> {
          CudaPlatformImpl platform =
              new CudaPlatformImpl(opened.id(), opened.lines(), opened.driver(), false);
          platform.registerExitHook();
          return platform;
        });
  }

  /**
   * The process-wide platform is never closed by its users: when the JVM exits, a shutdown hook
   * releases what it owns (see {@link #closeAtExit()}), so that no allocation outlives it.
   */
  private void registerExitHook() {
    Thread hook = Thread.ofPlatform().name("cuda-graph-exit").unstarted(this::closeAtExit);
    Runtime.getRuntime().addShutdownHook(hook);
    exitHook = hook;
  }

  /** See {@link CudaPlatform#forDriver}. */
  public static CudaPlatformImpl forDriver(CudaDriver driver, String providerId) {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(providerId, "providerId");
    driver.init(0);
    return new CudaPlatformImpl(
        providerId,
        List.of("cuda.graph: using driver " + driver + " given to CudaPlatform.forDriver"),
        driver,
        true);
  }

  /** See {@link CudaPlatform#current}. */
  public static CudaPlatformImpl current() {
    return CURRENT.isBound() ? CURRENT.get() : system();
  }

  /** See {@link CudaPlatform#system}. */
  public static CudaPlatformImpl system() {
    return SYSTEM.get();
  }

  /** {@return the implementation behind a platform (the only one {@code CudaPlatform} permits)} */
  public static CudaPlatformImpl of(CudaPlatform platform) {
    return (CudaPlatformImpl) platform;
  }

  @Override
  public void runAsCurrent(Runnable action) {
    Objects.requireNonNull(action, "action");
    ScopedValue.where(CURRENT, this).run(action);
  }

  @Override
  public <R extends @Nullable Object> R callAsCurrent(Supplier<R> action) {
    Objects.requireNonNull(action, "action");
    return ScopedValue.where(CURRENT, this).call(action::get);
  }

  @Override
  public int driverVersion() {
    return driverVersion;
  }

  @Override
  public String providerId() {
    return providerId;
  }

  @Override
  public List<String> selectionReport() {
    return selectionReport;
  }

  @Override
  public List<Device> devices() {
    return deviceView;
  }

  @Override
  public DeviceImpl device(int ordinal) {
    if (ordinal < 0 || ordinal >= devices.size()) {
      throw new IllegalArgumentException(
          "no device "
              + ordinal
              + ": the '"
              + providerId
              + "' provider sees "
              + devices.size()
              + " device(s)");
    }
    return devices.get(ordinal);
  }

  @Override
  public DeviceImpl defaultDevice() {
    if (devices.isEmpty()) {
      throw new IllegalStateException("the '" + providerId + "' provider sees no CUDA device");
    }
    return devices.get(0);
  }

  @Override
  public SchedulingPolicy schedulingPolicy() {
    return schedulingPolicy;
  }

  @Override
  public void setSchedulingPolicy(SchedulingPolicy policy) {
    this.schedulingPolicy = Objects.requireNonNull(policy, "policy");
  }

  @Override
  public void close() {
    if (!ownedByCaller) {
      return; // the system platform lives as long as the process; see closeAtExit()
    }
    if (DeviceOp.isExecuting() && !closed.get()) {
      // The close waits for the executions in progress, this thread's own among them.
      throw new IllegalStateException(
          "cannot close "
              + this
              + " from inside an op or a graph capture: the close waits for the executions in"
              + " progress, this one too; close it once the op has returned");
    }
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    shutDown(false, 0, true);
  }

  /** What the exit hook of the process-wide platform runs: {@link #closeAtExit(Duration)}. */
  public void closeAtExit() {
    closeAtExit(EXIT_BUDGET);
  }

  /**
   * Does the close work of {@link #close()} once, as the process ends, even for the process-wide
   * platform: no new work is admitted, the work running is waited for, up to {@code budget}, then
   * everything the platform owns is released and its contexts too. The driver stays open (daemon
   * threads may still call it). If work is still running after {@code budget}, nothing is released
   * (never memory under running work); the driver reclaims it as the process ends. Never throws:
   * failures are logged.
   *
   * @param budget how long to wait for executions and submitted work to finish
   */
  public void closeAtExit(Duration budget) {
    Thread hook = exitHook;
    if (hook != null && hook != Thread.currentThread()) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs (or ran) anyway; the closed flag makes one of us do the work.
      }
    }
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (!shutDown(true, System.nanoTime() + budget.toNanos(), false)) {
        LOG.log(
            System.Logger.Level.WARNING,
            "cuda.graph: work was still running on "
                + this
                + " when the JVM exited; what it uses is left to the driver, which reclaims it"
                + " as the process ends");
      }
    } catch (RuntimeException | Error e) {
      LOG.log(System.Logger.Level.WARNING, "cuda.graph: releasing " + this + " at exit failed", e);
    }
  }

  /**
   * The close work, once {@link #closed} is set. {@return false, having released nothing, if work
   * was still running at {@code deadline} (when {@code bounded})}
   */
  private boolean shutDown(boolean bounded, long deadline, boolean closeDriver) {
    if (!awaitExecutions(bounded, deadline)) {
      return false;
    }
    if (!completions.close(bounded, deadline)) {
      return false;
    }
    // Nothing runs any more, and nothing can be launched: what is still alive goes now.
    for (GraphExecHandle graph : List.copyOf(graphs)) {
      graph.destroyAtClose();
    }
    defaultPolicy.close();
    synchronized (closeActions) {
      for (int i = closeActions.size() - 1; i >= 0; i--) {
        closeActions.get(i).run();
      }
      closeActions.clear();
    }
    // Objects closed from now on (or by a cleaner) die with their context: releasing them would
    // re-retain it.
    releases.close();
    freeMemoryStillAllocated();
    for (DeviceImpl d : devices) {
      d.close();
    }
    if (closeDriver) {
      driver.close();
    }
    return true;
  }

  /** Waits until no execution is in progress; {@return false if one still was at the deadline} */
  private boolean awaitExecutions(boolean bounded, long deadline) {
    long warnAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    boolean warned = false;
    while (executing.sum() != 0) {
      long now = System.nanoTime();
      if (bounded && now - deadline >= 0) {
        return false;
      }
      if (!warned && now - warnAt >= 0) {
        warned = true;
        LOG.log(
            System.Logger.Level.WARNING,
            "cuda.graph: closing "
                + this
                + " waits for executions still in progress (a thread in syncOn whose work does not"
                + " end, or close() called from inside an op?)");
      }
      LockSupport.parkNanos(this, 100_000);
    }
    return true;
  }

  /**
   * Admits an execution (an op, a capture, an update) until the platform closes; every call is
   * paired with {@link #exitExecution()}.
   *
   * @throws IllegalStateException if the platform is closed or closing
   */
  public void enterExecution() {
    executing.increment();
    if (closed.get()) {
      executing.decrement();
      throw new IllegalStateException(
          this + " is closed: it runs no new work; use a platform only before closing it");
    }
  }

  /** Ends what {@link #enterExecution()} admitted. */
  public void exitExecution() {
    executing.decrement();
  }

  /** Notes an instantiated graph, destroyed at the latest when the platform closes. */
  void graphInstantiated(GraphExecHandle graph) {
    graphs.add(graph);
  }

  void graphDestroyed(GraphExecHandle graph) {
    graphs.remove(graph);
  }

  /**
   * Notes device memory an op allocated at {@code address} on {@code device}, which {@code
   * lifetime} frees: if it is still allocated when the platform closes, the platform frees it.
   */
  public void ownMemory(DeviceImpl device, long address, RefCount lifetime) {
    memory.add(new Allocation(device, address, lifetime));
    if ((memoryAdded.incrementAndGet() & 255) == 0) {
      memory.removeIf(a -> a.lifetime().isDestroyed());
    }
  }

  /**
   * Notes mapped host memory ({@code Device.allocateMapped}) on {@code device}, which {@code
   * lifetime} frees: if it is still allocated when the platform closes, the platform frees it, so
   * that its segment dies before the context that owns the memory (a later access fails, and never
   * reads memory the driver reclaimed with the context).
   */
  public void ownHostMemory(DeviceImpl device, MemorySegment memory, RefCount lifetime) {
    hostMemory.add(new HostAllocation(device, memory, lifetime));
    if ((hostMemoryAdded.incrementAndGet() & 255) == 0) {
      hostMemory.removeIf(a -> a.lifetime().isDestroyed());
    }
  }

  /**
   * Frees, once the release queue is closed (so that no lifetime can free it too), the memory whose
   * buffer is still open or was dropped and not cleaned yet: device memory the platform's ops
   * allocated and mapped host memory. Nothing leases it any more, as all work has stopped and the
   * graphs are gone. The buffer objects stay open, and any later use fails because the platform is
   * closed.
   */
  private void freeMemoryStillAllocated() {
    for (HostAllocation a : List.copyOf(hostMemory)) {
      if (a.lifetime().isDestroyed()) {
        continue;
      }
      try {
        a.device().bind();
        driver.memFreeHost(a.memory());
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "cuda.graph: freeing mapped host memory while closing failed: " + e.getMessage());
      }
    }
    hostMemory.clear();
    for (Allocation a : List.copyOf(memory)) {
      if (a.lifetime().isDestroyed()) {
        continue;
      }
      try {
        a.device().bind();
        driver.memFreeAsync(a.address(), a.device().releaseStream());
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "cuda.graph: freeing device memory while closing failed: " + e.getMessage());
      }
    }
    memory.clear();
  }

  /**
   * {@return whether the platform is closed or closing ({@link #close()}, or the exit hook of the
   * process-wide platform)}
   */
  public boolean isClosed() {
    return closed.get();
  }

  /** {@return the translating driver every library call goes through} */
  public TranslatingDriver driver() {
    return driver;
  }

  public ThreadBinding binding() {
    return binding;
  }

  public ReleaseQueue releases() {
    return releases;
  }

  public CompletionService completions() {
    return completions;
  }

  /** Runs {@code action} when this platform closes, before its devices release their contexts. */
  public void onClose(Runnable action) {
    synchronized (closeActions) {
      closeActions.add(action);
    }
  }

  /**
   * Drops {@code action}, given to {@link #onClose} before, which has nothing left to do (what it
   * would release is released), so that objects made and released again do not pile up.
   */
  public void forgetOnClose(Runnable action) {
    synchronized (closeActions) {
      for (int i = closeActions.size() - 1; i >= 0; i--) {
        if (closeActions.get(i) == action) {
          closeActions.remove(i);
          return;
        }
      }
    }
  }

  @Override
  public String toString() {
    return "CudaPlatform[provider=" + providerId + "]";
  }
}
