// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.CudaDriverProvider;
import cuda.graph.spi.DriverCall;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The {@code cuda} provider: the NVIDIA driver through the FFM API, preferred over the simulator
 * wherever a GPU is present.
 *
 * <p>Construction does nothing. {@link #availability()} does the real work, in order, stopping at
 * the first problem with a one-line reason that names the fix: load {@code libcuda.so.1} (or the
 * library named by {@value CudaLibrary#LIBRARY_PROPERTY}: one that does not load, is not the driver
 * or comes too late is {@linkplain Availability#blocked blocked}, a setting the user can fix, so
 * selection warns instead of falling back quietly), check the driver is CUDA 12.0 or newer and
 * exports every entry point bound, bind it for the process, {@code cuInit(0)}, and count devices.
 * {@link #open()} returns a driver only when that succeeds.
 *
 * <p><b>Native access.</b> Where this module may not make native calls (it was not granted {@code
 * --enable-native-access}, and the JVM refuses the calls under {@code
 * --illegal-native-access=deny}), a machine that has an NVIDIA GPU ({@link GpuPresence}, asked
 * without a native call) gets the verdict {@linkplain Availability#blocked blocked}, so that
 * selection warns rather than quietly falling back to the simulator; a machine without one is
 * merely unavailable. The missing grant itself is logged once per process: at WARNING where a GPU
 * is present, at DEBUG where none is (there is nothing the provider could use anyway).
 */
public final class CudaProvider implements CudaDriverProvider {

  /** The provider id, as given to {@code -Dcuda.graph.provider}. */
  public static final String ID = "cuda";

  /** Above the simulator's 0, so a real GPU wins wherever one is present. */
  public static final int PRIORITY = 100;

  /**
   * {@code CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER}, which {@link CuResult} names but has no constant
   * for.
   */
  private static final int CALL_REQUIRES_NEWER_DRIVER = 36;

  private static final System.Logger LOG = System.getLogger("cuda.graph.driver");
  private static final AtomicBoolean NATIVE_ACCESS_WARNED = new AtomicBoolean();

  /** A probe's verdict and, when unavailable, the status {@link #open()} fails with. */
  record Verdict(Availability availability, int status) {
    static Verdict available(String reason) {
      return new Verdict(Availability.available(reason), CuResult.SUCCESS);
    }

    static Verdict unavailable(int status, String reason) {
      return new Verdict(Availability.unavailable(reason), status);
    }

    static Verdict blocked(int status, String reason) {
      return new Verdict(Availability.blocked(reason), status);
    }
  }

  private final GpuPresence gpus;

  /** Does nothing: loading and probing happen in {@link #availability()}. */
  public CudaProvider() {
    this(GpuPresence.system());
  }

  /** A provider that asks {@code gpus} whether this machine has a GPU: the tests' seam. */
  CudaProvider(GpuPresence gpus) {
    this.gpus = gpus;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public int priority() {
    return PRIORITY;
  }

  @Override
  public Availability availability() {
    return probe().availability();
  }

  /**
   * {@inheritDoc}
   *
   * @throws CudaDriverException with the status that made the provider unavailable (e.g. {@code
   *     CUDA_ERROR_NO_DEVICE}, or {@code CUDA_ERROR_NOT_INITIALIZED} when the library did not load)
   *     and the availability reason as detail
   */
  @Override
  public CudaDriver open() {
    Verdict verdict = probe();
    if (!verdict.availability().available()) {
      throw new CudaDriverException(
          verdict.status(), DriverCall.INIT, verdict.availability().reason());
    }
    return new FfmCudaDriver();
  }

  private Verdict probe() {
    Module module = CudaProvider.class.getModule();
    if (!module.isNativeAccessEnabled() && NATIVE_ACCESS_WARNED.compareAndSet(false, true)) {
      LOG.log(
          nativeAccessLogLevel(),
          NativeAccessAdvice.advice(
              module,
              "the JVM warns about its calls into libcuda (and refuses them under"
                  + " --illegal-native-access=deny, the future default)"));
    }
    String name = CudaLibrary.configuredName();
    try {
      return probe(name);
    } catch (IllegalCallerException refused) {
      return refused(module, name);
    }
  }

  /**
   * {@return the level at which a missing native-access grant is logged}: WARNING where this
   * machine has a GPU the grant would let the provider use, DEBUG where it has none
   */
  System.Logger.Level nativeAccessLogLevel() {
    return gpus.evidence().isPresent() ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG;
  }

  /**
   * {@return the verdict when the JVM refuses {@code module} the native access that loading {@code
   * name} needs}: blocked where this machine has a GPU, else unavailable; both name the flag
   */
  Verdict refused(Module module, String name) {
    Optional<String> gpu = gpus.evidence();
    if (gpu.isPresent()) {
      return Verdict.blocked(
          CuResult.NOT_INITIALIZED,
          NativeAccessAdvice.advice(
              module,
              "it may not load "
                  + name
                  + " although this machine has an NVIDIA GPU ("
                  + gpu.get()
                  + ")"));
    }
    return Verdict.unavailable(
        CuResult.NOT_INITIALIZED, NativeAccessAdvice.advice(module, "it may not load " + name));
  }

  private static Verdict probe(String name) {
    SymbolLookup lookup;
    try {
      lookup = CudaLibrary.open(name);
    } catch (IllegalArgumentException notLoaded) {
      return loadFailure(
          name,
          "cannot load " + name + " (" + oneLine(notLoaded.getMessage()) + "): " + loadFix(name));
    }
    int version;
    try {
      version = readVersion(lookup, name);
    } catch (UnsatisfiedLinkError notCuda) {
      return loadFailure(
          name, name + " is not the CUDA driver (it has no cuDriverGetVersion): " + loadFix(name));
    }
    if (version < CuEntry.MINIMUM_DRIVER_VERSION) {
      return Verdict.unavailable(
          CALL_REQUIRES_NEWER_DRIVER,
          "the NVIDIA driver supports CUDA %s, older than the CUDA 12.0 this provider needs:"
                  .formatted(cudaVersion(version))
              + " update the NVIDIA driver");
    }
    CuEntry missing = CudaLibrary.firstMissing(lookup, version);
    if (missing != null) {
      return Verdict.unavailable(
          CALL_REQUIRES_NEWER_DRIVER,
          "%s (CUDA %s) does not export %s: update the NVIDIA driver"
              .formatted(name, cudaVersion(version), missing.symbol()));
    }
    String bound = CudaLibrary.bind(name, lookup);
    if (!bound.equals(name)) {
      // The property's value was read too late to matter: the user's to fix.
      return Verdict.blocked(
          CuResult.NOT_INITIALIZED,
          "-D%s=%s came too late: this process already bound %s; set the property before the"
                  .formatted(CudaLibrary.LIBRARY_PROPERTY, name, bound)
              + " first CUDA call");
    }
    return probeDevices(name, version);
  }

  /**
   * Initializes the bound driver and counts its devices. The entries' handles are invoked as they
   * come, not held in static finals: this runs once per verdict, and static finals here would make
   * every entry's handle when the provider is constructed, for programs that merely discover it.
   */
  private static Verdict probeDevices(String name, int version) {
    try {
      int status = (int) CuEntry.INIT.handle().invokeExact(0);
      if (status != CuResult.SUCCESS) {
        return Verdict.unavailable(
            status, "cuInit failed with " + CuResult.describe(status) + ": " + initFix(status));
      }
      MemorySegment out = Scratch.get().slot(0);
      status = (int) CuEntry.DEVICE_GET_COUNT.handle().invokeExact(out);
      if (status != CuResult.SUCCESS) {
        return Verdict.unavailable(
            status,
            "cuDeviceGetCount failed with " + CuResult.describe(status) + ": " + initFix(status));
      }
      int count = out.get(ValueLayout.JAVA_INT, 0);
      if (count == 0) {
        return Verdict.unavailable(
            CuResult.NO_DEVICE,
            "the NVIDIA driver sees no CUDA device: " + initFix(CuResult.NO_DEVICE));
      }
      return Verdict.available(
          "%s: CUDA %s driver, %d device%s (%s%s)"
              .formatted(
                  name,
                  cudaVersion(version),
                  count,
                  count == 1 ? "" : "s",
                  firstDeviceName(),
                  count == 1 ? "" : ", ..."));
    } catch (Throwable t) {
      throw Downcall.rethrow(t);
    }
  }

  /**
   * Reads the driver version through a handle of its own: the library is not bound yet, because
   * binding comes only after the version shows which symbols it must export.
   */
  private static int readVersion(SymbolLookup lookup, String name) {
    CuEntry entry = CuEntry.DRIVER_GET_VERSION;
    MethodHandle getVersion = Ffm.downcall(lookup, name, entry.symbol(), entry.signature());
    MemorySegment out = Scratch.get().slot(0);
    int status;
    try {
      status = (int) getVersion.invokeExact(out);
    } catch (Throwable t) {
      throw new AssertionError("cuDriverGetVersion threw", t);
    }
    // cuDriverGetVersion only fails for a NULL argument; treat a failure as "too old to tell".
    return status == CuResult.SUCCESS ? out.get(ValueLayout.JAVA_INT, 0) : 0;
  }

  private static String firstDeviceName() {
    Scratch scratch = Scratch.get();
    MemorySegment device = scratch.slot(0);
    MemorySegment text = scratch.text();
    try {
      if ((int) CuEntry.DEVICE_GET.handle().invokeExact(device, 0) != CuResult.SUCCESS) {
        return "device 0 not readable";
      }
      int dev = device.get(ValueLayout.JAVA_INT, 0);
      int status =
          (int) CuEntry.DEVICE_GET_NAME.handle().invokeExact(text, (int) text.byteSize(), dev);
      return status == CuResult.SUCCESS ? text.getString(0) : "device 0 unnamed";
    } catch (Throwable t) {
      throw Downcall.rethrow(t);
    }
  }

  /**
   * {@return the verdict on a driver library that did not load as one}: blocked when the user named
   * it with {@value CudaLibrary#LIBRARY_PROPERTY} (a setting to fix, so selection warns rather than
   * fall back to the simulator quietly), merely unavailable for the default library (no driver
   * installed: the simulator is the fallback meant for such machines)
   */
  private static Verdict loadFailure(String name, String reason) {
    return name.equals(CudaLibrary.DEFAULT_LIBRARY)
        ? Verdict.unavailable(CuResult.NOT_INITIALIZED, reason)
        : Verdict.blocked(CuResult.NOT_INITIALIZED, reason);
  }

  private static String loadFix(String name) {
    if (name.equals(CudaLibrary.DEFAULT_LIBRARY)) {
      return "install the NVIDIA driver (it provides "
          + CudaLibrary.DEFAULT_LIBRARY
          + "), or run without a GPU through the simulator with -Dcuda.graph.provider=simulator";
    }
    return "point -D"
        + CudaLibrary.LIBRARY_PROPERTY
        + " at the NVIDIA driver's "
        + CudaLibrary.DEFAULT_LIBRARY
        + " (or remove it to use the loader path)";
  }

  private static String initFix(int status) {
    return switch (status) {
      case CuResult.STUB_LIBRARY ->
          "the library loaded is the CUDA toolkit's stub, not the driver: install the NVIDIA driver"
              + " or put its libcuda.so.1 ahead of the toolkit's stubs directory";
      case CuResult.NO_DEVICE ->
          "check nvidia-smi and CUDA_VISIBLE_DEVICES, or run through the simulator with"
              + " -Dcuda.graph.provider=simulator";
      case 803 -> // CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
          "the loaded kernel module and libcuda.so.1 come from different driver versions: reinstall"
              + " the driver or reboot";
      default ->
          "check that the NVIDIA kernel module is loaded and matches the driver library"
              + " (nvidia-smi)";
    };
  }

  /** {@return {@code 13000} as {@code "13.0"}} */
  static String cudaVersion(int version) {
    return version / 1000 + "." + (version % 1000) / 10;
  }

  private static String oneLine(@Nullable String message) {
    return message == null ? "no reason given" : message.replaceAll("\\s+", " ").strip();
  }
}
