package cuda.graph.internal.runtime;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.SchedulingPolicy;
import cuda.graph.internal.bootstrap.ProviderSelector;
import cuda.graph.internal.bootstrap.ProviderSelector.Outcome;
import cuda.graph.internal.bootstrap.SystemPlatform;
import cuda.graph.spi.CudaDriver;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link CudaPlatform}: owns the translating driver, the devices, the
 * completion service, the release queue and the default scheduling policy, and closes them in
 * reverse order of dependence.
 */
public final class CudaPlatformImpl implements CudaPlatform {

  /** Releases native objects that became unreachable without being closed. */
  public static final Cleaner CLEANER = Cleaner.create();

  private static final ScopedValue<CudaPlatformImpl> CURRENT = ScopedValue.newInstance();

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

  /** The policy the platform starts with; it owns its streams, closed with the platform. */
  private final RoundRobinPolicy defaultPolicy = new RoundRobinPolicy(4);

  private volatile SchedulingPolicy schedulingPolicy = defaultPolicy;

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
        opened -> new CudaPlatformImpl(opened.id(), opened.lines(), opened.driver(), false));
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
    ScopedValue.where(CURRENT, this).run(action);
  }

  @Override
  public <R extends @Nullable Object> R callAsCurrent(Supplier<R> action) {
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
      return; // the system platform lives as long as the process
    }
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    completions.close(false, 0);
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
    for (DeviceImpl d : devices) {
      d.close();
    }
    driver.close();
  }

  /** {@return whether {@link #close()} was called} */
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

  @Override
  public String toString() {
    return "CudaPlatform[provider=" + providerId + "]";
  }
}
