package cuda.graph;

import cuda.graph.internal.ProviderSelector;
import cuda.graph.internal.ProviderSelector.Failure;
import cuda.graph.internal.ProviderSelector.Opened;
import cuda.graph.internal.ProviderSelector.Outcome;
import cuda.graph.internal.ReleaseQueue;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CudaDriver;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The CUDA driver this process uses, chosen among the installed providers.
 *
 * <p>{@link #system()} chooses the provider on its first call, opens its driver and initializes
 * it; every later call, from any thread, returns the same instance, or, if the first call failed,
 * throws a {@link CudaProviderException} with the same message. The choice follows these rules:
 * the provider named by the system property {@code cuda.graph.provider} (or, when that is not set,
 * the environment variable {@code CUDA_GRAPH_PROVIDER}) if it is installed and available, with no
 * fallback to another; otherwise the available provider with the highest priority, ties broken by
 * id. {@link #selectionReport()} explains the choice, and the same lines are logged to the
 * {@link System.Logger} named {@code cuda.graph}.
 *
 * <p>A platform is safe to use from any thread. The system platform lives as long as the process:
 * its driver is never closed. A platform made with {@link #forDriver} (tests, provider authors)
 * belongs to its caller, who {@linkplain #close() closes} it.
 *
 * <p>{@link DeviceOp#sync()} and {@link DeviceOp#async()} use the {@linkplain #current() current}
 * platform: the system one, unless code runs inside {@link #runAsCurrent}.
 */
public final class CudaPlatform implements AutoCloseable {

  /** Releases native objects that became unreachable without being closed. */
  static final Cleaner CLEANER = Cleaner.create();

  private static final ScopedValue<CudaPlatform> CURRENT = ScopedValue.newInstance();

  private static final Bootstrap SYSTEM =
      new Bootstrap(
          () ->
              ProviderSelector.open(
                  ProviderSelector.selectForProcess(),
                  System.getLogger(ProviderSelector.LOGGER_NAME)));

  private final String providerId;
  private final List<String> selectionReport;
  private final TranslatingDriver driver;
  private final ThreadBinding binding;
  private final ReleaseQueue releases = new ReleaseQueue();
  private final List<Device> devices;
  private final CompletionService completions;
  private final List<Runnable> closeActions = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final boolean ownedByCaller;
  /** The policy the platform starts with; it owns its streams, closed with the platform. */
  private final SchedulingPolicy.RoundRobin defaultPolicy = (SchedulingPolicy.RoundRobin) SchedulingPolicy.roundRobin(4);
  private volatile SchedulingPolicy schedulingPolicy = defaultPolicy;

  private CudaPlatform(String providerId, List<String> selectionReport, CudaDriver driver, boolean ownedByCaller) {
    this.providerId = providerId;
    this.selectionReport = List.copyOf(selectionReport);
    this.driver = new TranslatingDriver(driver);
    this.binding = new ThreadBinding(this.driver);
    this.ownedByCaller = ownedByCaller;
    int count = this.driver.deviceGetCount();
    List<Device> all = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      all.add(new Device(this, i));
    }
    this.devices = List.copyOf(all);
    this.completions = new CompletionService(this);
  }

  /**
   * Makes a platform over a driver the caller opened: for tests (a simulator with a handle
   * ledger, a fault-injecting wrapper) and provider authors. The driver is initialized here; the
   * caller owns the platform and must {@linkplain #close() close} it, which also closes the driver.
   */
  @SuppressWarnings("exports") // the SPI type is for provider authors and test kits, who require cuda.graph.spi
  public static CudaPlatform forDriver(CudaDriver driver, String providerId) {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(providerId, "providerId");
    driver.init(0);
    return new CudaPlatform(providerId, List.of("cuda.graph: using driver " + driver + " given to CudaPlatform.forDriver"), driver, true);
  }

  /** {@return the platform {@code sync()} and {@code async()} use on this thread: see {@link #runAsCurrent}} */
  public static CudaPlatform current() {
    return CURRENT.isBound() ? CURRENT.get() : system();
  }

  /** Runs {@code action} with this platform as the {@linkplain #current() current} one on this thread. */
  public void runAsCurrent(Runnable action) {
    ScopedValue.where(CURRENT, this).run(action);
  }

  /** Calls {@code action} with this platform as the {@linkplain #current() current} one on this thread. */
  public <R extends @Nullable Object> R callAsCurrent(Supplier<R> action) {
    return ScopedValue.where(CURRENT, this).call(action::get);
  }

  /**
   * Returns the process-wide platform, choosing, opening and initializing its provider on the first
   * call. Safe to call from any thread; concurrent first calls wait for one selection.
   *
   * @return the same instance on every call
   * @throws CudaProviderException if no provider can be used; the message says why and what to do,
   *     and every later call throws a new exception with the same message and cause, without
   *     selecting again
   */
  public static CudaPlatform system() {
    return SYSTEM.get();
  }

  /** {@return the id of the chosen provider, e.g. {@code "cuda"} or {@code "simulator"}} */
  public String providerId() {
    return providerId;
  }

  /**
   * {@return the lines that explain the choice of provider}: each starts with
   * {@code "cuda.graph: "}; the list is unmodifiable
   */
  public List<String> selectionReport() {
    return selectionReport;
  }

  /** {@return the devices, by ordinal (empty when the driver sees no GPU)} */
  public List<Device> devices() {
    return devices;
  }

  /** {@return the device with {@code ordinal}} */
  public Device device(int ordinal) {
    if (ordinal < 0 || ordinal >= devices.size()) {
      throw new IllegalArgumentException(
          "no device " + ordinal + ": the '" + providerId + "' provider sees " + devices.size() + " device(s)");
    }
    return devices.get(ordinal);
  }

  /** {@return device 0, which {@code sync()} and {@code async()} use} */
  public Device defaultDevice() {
    if (devices.isEmpty()) {
      throw new IllegalStateException("the '" + providerId + "' provider sees no CUDA device");
    }
    return devices.get(0);
  }

  /** {@return the policy that picks streams for {@code sync()} and {@code async()}} */
  public SchedulingPolicy schedulingPolicy() {
    return schedulingPolicy;
  }

  /** Replaces the policy that picks streams for {@code sync()} and {@code async()}. */
  public void setSchedulingPolicy(SchedulingPolicy policy) {
    this.schedulingPolicy = Objects.requireNonNull(policy, "policy");
  }

  /**
   * Closes a platform made with {@link #forDriver}: stops its completion thread, unloads its
   * modules, releases its devices' contexts and closes the driver. Objects still open keep their
   * native handles until the driver goes. Idempotent.
   *
   * @throws UnsupportedOperationException for the system platform, which lives as long as the process
   */
  @Override
  public void close() {
    if (!ownedByCaller) {
      throw new UnsupportedOperationException("the system platform lives as long as the process and cannot be closed");
    }
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    completions.close();
    defaultPolicy.close();
    synchronized (closeActions) {
      for (int i = closeActions.size() - 1; i >= 0; i--) {
        closeActions.get(i).run();
      }
      closeActions.clear();
    }
    // Objects closed from now on (or by a cleaner) die with their context: releasing them would re-retain it.
    releases.close();
    for (Device d : devices) {
      d.close();
    }
    driver.close();
  }

  /** {@return whether {@link #close()} was called} */
  boolean isClosed() {
    return closed.get();
  }

  /** {@return the translating driver; for the library's own use, not public API} */
  TranslatingDriver driver() {
    return driver;
  }

  ThreadBinding binding() {
    return binding;
  }

  ReleaseQueue releases() {
    return releases;
  }

  CompletionService completions() {
    return completions;
  }

  /** Unloads {@code module} when this platform closes. */
  void adoptModule(Device device, CuModule module) {
    synchronized (closeActions) {
      closeActions.add(() -> {
        device.bind();
        driver.moduleUnload(module);
      });
    }
  }

  @Override
  public String toString() {
    return "CudaPlatform[provider=" + providerId + "]";
  }

  /**
   * Makes one platform, once: the first {@link #get()} runs the selection, and its result, a
   * platform or a failure, is what every later call gets. A selection that throws (it does not, but
   * an {@link Error} can escape) leaves nothing behind, so the next call selects again.
   */
  static final class Bootstrap {
    private final Supplier<Outcome> selection;
    private volatile @Nullable Object result; // a CudaPlatform or a Failed
    private boolean selecting; // guarded by this

    Bootstrap(Supplier<Outcome> selection) {
      this.selection = Objects.requireNonNull(selection, "selection");
    }

    CudaPlatform get() {
      Object known = result;
      if (known == null) {
        synchronized (this) {
          known = result;
          if (known == null) {
            if (selecting) {
              // Only the selecting thread can get here while selecting (others wait above).
              throw new IllegalStateException(
                  "CudaPlatform.system() was called while its provider is being chosen, on the same"
                      + " thread: a provider's availability() or open() must not use CudaPlatform");
            }
            selecting = true;
            try {
              known = create(selection.get());
              result = known;
            } finally {
              selecting = false;
            }
          }
        }
      }
      if (known instanceof Failed failed) {
        throw new CudaProviderException(failed.message(), failed.cause());
      }
      return (CudaPlatform) known;
    }

    private static Object create(Outcome outcome) {
      return switch (outcome) {
        case Opened opened -> new CudaPlatform(opened.id(), opened.lines(), opened.driver(), false);
        case Failure failure -> new Failed(String.join("\n", failure.lines()), failure.cause());
        case ProviderSelector.Selection selection ->
            throw new IllegalStateException(
                "the provider " + selection.id() + " was chosen but not opened");
      };
    }

    private record Failed(String message, @Nullable Throwable cause) {}
  }
}
