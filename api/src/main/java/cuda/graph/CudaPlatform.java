// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.spi.CudaDriver;
import java.util.List;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The CUDA driver this process uses, chosen among the installed providers.
 *
 * <p>{@link #system()} chooses the provider on its first call, opens its driver and initializes it;
 * every later call, from any thread, returns the same instance, or, if the first call failed,
 * throws a {@link CudaProviderException} with the same message. The choice follows these rules: the
 * provider named by the system property {@code cuda.graph.provider} (or, when that is not set, the
 * environment variable {@code CUDA_GRAPH_PROVIDER}) if it is installed and available, with no
 * fallback to another; otherwise the available provider with the highest priority, ties broken by
 * id. {@link #selectionReport()} explains the choice, and the same lines are logged to the {@link
 * System.Logger} named {@code cuda.graph}: at DEBUG on a normal start, at WARNING when a provider
 * failed or was passed over for a reason you can fix (such as a missing native-access grant).
 *
 * <p>A platform is safe to use from any thread. The system platform lives as long as the process:
 * its driver is never closed, and {@link #close()} does nothing for it; when the JVM exits, a
 * shutdown hook does its close work instead: it admits no new work, waits (a few seconds at most)
 * for the work still running, then releases everything the platform owns, as {@link #close()} does.
 * If work is still running after that, it releases nothing, rather than memory under running work,
 * and the driver reclaims it as the process ends. A platform made with {@link #forDriver} (tests,
 * provider authors) belongs to its caller, who {@linkplain #close() closes} it.
 *
 * <p>{@link DeviceOp#sync()} and {@link DeviceOp#async()} use the {@linkplain #current() current}
 * platform: the system one, unless code runs inside {@link #runAsCurrent}.
 *
 * <p>For example, the system platform's default device, a stream on it, and a buffer filled there
 * and read back:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=platform}
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface CudaPlatform extends AutoCloseable permits CudaPlatformImpl {

  /**
   * Makes a platform over a driver the caller opened: for tests (a simulator with a handle ledger,
   * a fault-injecting wrapper) and provider authors. The driver is initialized here; the caller
   * owns the platform and must {@linkplain #close() close} it, which also closes the driver.
   *
   * @param driver an opened, not yet initialized driver; the platform takes it over
   * @param providerId the id {@link #providerId()} reports, e.g. {@code "simulator"}
   * @return a new platform owned by the caller, whose {@link #selectionReport()} names the driver
   */
  @SuppressWarnings(
      "exports") // the SPI type is for provider authors and test kits, who require cuda.graph.spi
  static CudaPlatform forDriver(CudaDriver driver, String providerId) {
    return CudaPlatformImpl.forDriver(driver, providerId);
  }

  /**
   * {@return the platform {@code sync()} and {@code async()} use on this thread: see {@link
   * #runAsCurrent}}
   */
  static CudaPlatform current() {
    return CudaPlatformImpl.current();
  }

  /**
   * Runs {@code action} with this platform as the {@linkplain #current() current} one on this
   * thread.
   *
   * @param action run on this thread, with this platform current for its whole extent
   */
  void runAsCurrent(Runnable action);

  /**
   * Calls {@code action} with this platform as the {@linkplain #current() current} one on this
   * thread.
   *
   * @param <R> the type of the action's result
   * @param action called on this thread, with this platform current for its whole extent
   * @return what {@code action} returned
   */
  <R extends @Nullable Object> R callAsCurrent(Supplier<R> action);

  /**
   * Returns the process-wide platform, choosing, opening and initializing its provider on the first
   * call. Safe to call from any thread; concurrent first calls wait for one selection.
   *
   * @return the same instance on every call
   * @throws CudaProviderException if no provider can be used; the message says why and what to do,
   *     and every later call throws a new exception with the same message and cause, without
   *     selecting again
   */
  static CudaPlatform system() {
    return CudaPlatformImpl.system();
  }

  /**
   * {@return the CUDA version the driver supports, as CUDA encodes it}: {@code 1000 * major + 10 *
   * minor}, e.g. {@code 13000} for CUDA 13.0 ({@code cuDriverGetVersion}), read when the platform
   * was made
   */
  int driverVersion();

  /** {@return the id of the chosen provider, e.g. {@code "cuda"} or {@code "simulator"}} */
  String providerId();

  /**
   * {@return the lines that explain the choice of provider}: each starts with {@code "cuda.graph:
   * "}; the list is unmodifiable
   */
  List<String> selectionReport();

  /** {@return the devices, by ordinal (empty when the driver sees no GPU)} */
  List<Device> devices();

  /**
   * {@return the device with {@code ordinal}}
   *
   * @param ordinal the device's index in {@link #devices()}
   * @throws IllegalArgumentException if {@code ordinal} is negative or not below the device count
   */
  Device device(int ordinal);

  /** {@return device 0, which {@code sync()} and {@code async()} use} */
  Device defaultDevice();

  /** {@return the policy that picks streams for {@code sync()} and {@code async()}} */
  SchedulingPolicy schedulingPolicy();

  /**
   * Replaces the policy that picks streams for {@code sync()} and {@code async()}.
   *
   * @param policy used by every later {@code sync()} and {@code async()} on this platform; the
   *     caller keeps owning it and any streams it holds
   */
  void setSchedulingPolicy(SchedulingPolicy policy);

  /**
   * Closes a platform made with {@link #forDriver}. From the start of the call, no new work is
   * admitted ({@code syncOn}, {@code asyncOn}, captures and updates fail with {@link
   * IllegalStateException}); the call then waits for the executions in progress on other threads,
   * and for the work already submitted: every future still pending completes (failed, with a
   * message saying the platform was closed, unless its work was over first), and nothing is
   * released under work that still runs. Then it destroys every graph still alive (whatever
   * launches are still out), destroys the default policy's streams, the completion events and the
   * modules, frees the device memory its ops allocated that is still allocated (of buffers still
   * open, whose later use fails because the platform is closed, or dropped and not yet cleaned),
   * then the staging memory and the devices' contexts, and closes the driver. Other objects still
   * open (streams, events, host buffers) keep their native handles until the contexts go.
   * Idempotent. Does nothing for the {@linkplain #system() system} platform, which lives as long as
   * the process (see the class documentation), so {@code try (CudaPlatform p =
   * CudaPlatform.system())} ends cleanly.
   *
   * @throws IllegalStateException if called from inside an op or a graph capture (the close would
   *     wait for that execution too); the platform then stays open
   */
  void close();
}
