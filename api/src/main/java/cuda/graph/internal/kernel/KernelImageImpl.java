// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.Device;
import cuda.graph.JavaKernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import cuda.graph.internal.ops.OpLists;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.ImageFormat;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompilationException;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/** The implementation of {@link KernelImage}. */
public final class KernelImageImpl implements KernelImage {

  private enum Kind {
    PTX,
    CUBIN,
    FATBIN,
    CUDA_SOURCE
  }

  private final Kind kind;
  private final byte[] bytes;
  private final String programName;
  private final List<String> compileOptions;
  private final Map<String, JavaKernel> references;

  /** The image on each device it is loaded on and not unloaded from; guarded by itself. */
  private final Map<DeviceImpl, Loaded> loaded = new WeakHashMap<>();

  /**
   * The image on one device: its module, the PTX it was compiled to (for {@link Kind#CUDA_SOURCE}),
   * the functions looked up (with the shared memory their launches were allowed, whichever
   * declaration of the kernel launched them), the kernels whose declarations were checked there,
   * and the module's lifetime: the image holds the owner's reference until {@link #unload}, every
   * launch of one of its kernels another (an execution until its work is done, a graph that
   * captured it until it is destroyed), and the last to let go unloads the module. Unloaded once,
   * by the last reference or by the platform's close, whichever comes first.
   */
  private static final class Loaded {
    final CuModule module;
    final @Nullable String compiledPtx;
    final Map<String, DeviceFunction> functions = new HashMap<>();
    // Weakly: a kernel declared and dropped again leaves nothing behind in its image.
    final Set<KernelImpl> checked = Collections.newSetFromMap(new WeakHashMap<>());
    final RefCount lifetime;
    private final AtomicBoolean unloaded = new AtomicBoolean();
    private final Runnable atClose;

    Loaded(DeviceImpl device, CuModule module, @Nullable String compiledPtx) {
      this.module = module;
      this.compiledPtx = compiledPtx;
      CudaPlatformImpl platform = device.platform();
      this.atClose =
          () -> {
            if (unloaded.compareAndSet(false, true)) {
              device.bind();
              platform.driver().moduleUnload(module);
            }
          };
      // Through the release queue: deferred while a capture is in progress, with the context bound.
      this.lifetime =
          device.lifetime(
              driver -> {
                platform.forgetOnClose(atClose);
                if (unloaded.compareAndSet(false, true)) {
                  driver.moduleUnload(module);
                }
              });
      platform.onClose(atClose);
    }
  }

  /** A kernel's function on a device, and the lifetime of the module it is in. */
  record Function(DeviceFunction function, RefCount module) {}

  private KernelImageImpl(
      Kind kind,
      byte[] bytes,
      String programName,
      List<String> compileOptions,
      Map<String, JavaKernel> references) {
    this.kind = kind;
    this.bytes = bytes;
    this.programName = programName;
    this.compileOptions = List.copyOf(compileOptions);
    this.references = Map.copyOf(references);
  }

  /** {@return an image of PTX assembly text} */
  public static KernelImage ptx(String text) {
    return new KernelImageImpl(
        Kind.PTX, text.getBytes(StandardCharsets.UTF_8), "ptx", List.of(), Map.of());
  }

  /** {@return an image of PTX text read from a class-path resource next to {@code anchor}} */
  public static KernelImage ptxResource(Class<?> anchor, String resource) {
    return new KernelImageImpl(
        Kind.PTX, KernelResources.read(anchor, resource), resource, List.of(), Map.of());
  }

  /** See {@link KernelImage#ptxResource(MethodHandles.Lookup, String)}. */
  public static KernelImage ptxResource(MethodHandles.Lookup lookup, String resource) {
    return new KernelImageImpl(
        Kind.PTX, KernelResources.read(lookup, resource), resource, List.of(), Map.of());
  }

  /**
   * {@return an image of a cubin (machine code for one architecture)}; a kernel's declaration is
   * checked against the parameter sizes the driver reports when it first loads on a device
   */
  public static KernelImage cubin(byte[] image) {
    return new KernelImageImpl(Kind.CUBIN, image.clone(), "cubin", List.of(), Map.of());
  }

  /** {@return an image of a fatbin (several architectures)}; checked as a cubin's kernels are */
  public static KernelImage fatbin(byte[] image) {
    return new KernelImageImpl(Kind.FATBIN, image.clone(), "fatbin", List.of(), Map.of());
  }

  /**
   * {@return an image compiled from CUDA C++ source with NVRTC when first loaded}; declare kernels
   * {@code extern "C"}. Unless the options name an architecture, the device's own virtual
   * architecture is used. A compile error fails the first launch with the compiler's log, and so
   * does a kernel declaration that does not fit the {@code .entry} of the PTX it compiled to.
   */
  public static KernelImage cudaSource(String programName, String source, String... nvrtcOptions) {
    Objects.requireNonNull(programName, "programName");
    return new KernelImageImpl(
        Kind.CUDA_SOURCE,
        source.getBytes(StandardCharsets.UTF_8),
        programName,
        List.of(nvrtcOptions),
        Map.of());
  }

  /** {@return this image with a Java reference for the kernel {@code kernelName}} */
  @Override
  public KernelImage withReference(String kernelName, JavaKernel reference) {
    Map<String, JavaKernel> refs = new LinkedHashMap<>(references);
    refs.put(
        Objects.requireNonNull(kernelName, "kernelName"),
        Objects.requireNonNull(reference, "reference"));
    return new KernelImageImpl(kind, bytes, programName, compileOptions, refs);
  }

  /** {@return the kernel {@code name} of this image, with its declared parameters} */
  @Override
  public KernelImpl kernel(String name, KernelParam... parameters) {
    KernelImpl kernel =
        new KernelImpl(
            this,
            Objects.requireNonNull(name, "name"),
            OpLists.copyWithoutNulls(parameters, "parameters"));
    if (kind == Kind.PTX) {
      // A name the PTX lacks is left to the driver, which reports it when the kernel loads.
      PtxSignature.find(new String(bytes, StandardCharsets.UTF_8), name)
          .map(ptx -> ptx.mismatch(kernel.signature(), kernel.parameters(), programName))
          .ifPresent(
              mismatch -> {
                throw new IllegalArgumentException(mismatch);
              });
    }
    return kernel;
  }

  public @Nullable JavaKernel reference(String kernelName) {
    return references.get(kernelName);
  }

  /**
   * Returns the function of {@code kernel} on {@code device}, loading the image there first if
   * needed (the device must be bound). The first lookup of a kernel on a device checks its
   * declaration against what the image defines where that was not known when it was declared: the
   * PTX a CUDA source compiled to, the parameter sizes the driver reports for a cubin or fatbin
   * (where the driver cannot tell, older than CUDA 12.4, the check is skipped). The module's
   * lifetime comes with it, without a reference for the caller.
   *
   * @throws IllegalArgumentException when the declaration does not fit the kernel
   */
  Function function(DeviceImpl device, KernelImpl kernel) {
    synchronized (loaded) {
      Loaded l = loadedOn(device);
      return new Function(function(device, l, kernel), l.lifetime);
    }
  }

  /**
   * {@return the function of {@code kernel} on {@code device}, as {@link #function(DeviceImpl,
   * KernelImpl)} does, with a reference to its module taken for the caller}, which releases it when
   * its launch can run no more
   */
  Function leasedFunction(DeviceImpl device, KernelImpl kernel) {
    synchronized (loaded) {
      Loaded l = loadedOn(device);
      DeviceFunction f = function(device, l, kernel);
      // Under the lock that unload takes: the module is loaded and its owner's reference held.
      l.lifetime.retain();
      return new Function(f, l.lifetime);
    }
  }

  /** {@return the image as loaded on {@code device}, loading it now if needed}; under the lock */
  private Loaded loadedOn(DeviceImpl device) {
    Loaded l = loaded.get(device);
    if (l == null) {
      l = load(device);
      loaded.put(device, l);
    }
    return l;
  }

  /** {@return the function of {@code kernel} in {@code l}, looked up and checked once}; locked */
  private DeviceFunction function(DeviceImpl device, Loaded l, KernelImpl kernel) {
    String name = kernel.name();
    DeviceFunction f = l.functions.get(name);
    if (f == null) {
      f = new DeviceFunction(device.platform().driver().moduleGetFunction(l.module, name));
      l.functions.put(name, f);
    }
    if (!l.checked.contains(kernel)) {
      String mismatch = mismatch(device, l, f.handle, kernel);
      if (mismatch != null) {
        throw new IllegalArgumentException(mismatch);
      }
      l.checked.add(kernel);
    }
    return f;
  }

  /** {@return why {@code kernel}'s declaration does not fit its function, or null when it does} */
  private @Nullable String mismatch(DeviceImpl device, Loaded l, CuFunction f, KernelImpl kernel) {
    return switch (kind) {
      case PTX -> null; // checked when the kernel was declared
      case CUDA_SOURCE ->
          PtxSignature.find(Objects.requireNonNull(l.compiledPtx), kernel.name())
              .map(ptx -> ptx.mismatch(kernel.signature(), kernel.parameters(), programName))
              .orElse(null);
      case CUBIN, FATBIN ->
          DriverSignature.read(device.platform().driver(), f, kernel.name())
              .map(sizes -> sizes.mismatch(kernel.signature(), kernel.parameters(), programName))
              .orElse(null);
    };
  }

  private Loaded load(DeviceImpl device) {
    CudaPlatformImpl platform = device.platform();
    String compiledPtx = kind == Kind.CUDA_SOURCE ? compile(device) : null;
    ModuleImage image =
        switch (kind) {
          case PTX -> ModuleImage.of(ImageFormat.PTX, bytes);
          case CUBIN -> ModuleImage.of(ImageFormat.CUBIN, bytes);
          case FATBIN -> ModuleImage.of(ImageFormat.FATBIN, bytes);
          case CUDA_SOURCE -> ModuleImage.ptx(Objects.requireNonNull(compiledPtx));
        };
    for (Map.Entry<String, JavaKernel> e : references.entrySet()) {
      image = image.withJavaKernel(e.getKey(), new DeviceKernelCall.Body(e.getValue()));
    }
    CuModule module = platform.driver().moduleLoadData(image);
    return new Loaded(device, module, compiledPtx);
  }

  /** Unloads the image from {@code device} once no launch of its kernels there can run. */
  @Override
  public void unload(Device device) {
    DeviceImpl impl = DeviceImpl.of(Objects.requireNonNull(device, "device"));
    Loaded l;
    synchronized (loaded) {
      l = loaded.remove(impl);
    }
    if (l != null) {
      l.lifetime.closeOwner();
    }
  }

  private String compile(DeviceImpl device) {
    RuntimeCompiler compiler =
        device
            .platform()
            .driver()
            .runtimeCompiler()
            .orElseThrow(
                () ->
                    new UnsupportedOperationException(
                        "the '"
                            + device.platform().providerId()
                            + "' provider cannot compile CUDA C++ (NVRTC not found): install the"
                            + " CUDA toolkit's NVRTC library, or ship PTX and load it with"
                            + " KernelImage.ptx"));
    List<String> options = new ArrayList<>(compileOptions);
    if (options.stream()
        .noneMatch(o -> o.startsWith("--gpu-architecture") || o.startsWith("-arch"))) {
      options.add("--gpu-architecture=" + device.computeCapability().virtualArchitecture());
    }
    try {
      return compiler.compileToPtx(new String(bytes, StandardCharsets.UTF_8), programName, options);
    } catch (RuntimeCompilationException e) {
      throw new IllegalArgumentException(programName + " does not compile:\n" + e.getMessage(), e);
    }
  }

  /** {@return the implementation behind an image (the only one {@code KernelImage} permits)} */
  public static KernelImageImpl of(KernelImage image) {
    return (KernelImageImpl) image;
  }

  @Override
  public String toString() {
    return "KernelImage[" + kind + " " + programName + ", references " + references.keySet() + "]";
  }
}
