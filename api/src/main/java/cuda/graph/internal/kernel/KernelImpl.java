// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.JavaKernel;
import cuda.graph.Kernel;
import cuda.graph.KernelParam;
import cuda.graph.LaunchConfig;
import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelArguments;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/** The implementation of {@link Kernel}. */
public final class KernelImpl implements Kernel {

  private final KernelImageImpl image;
  private final String name;
  private final List<KernelParam> parameters;
  private final int[] sizes;
  private final ThreadLocal<KernelArguments> argumentBlocks;

  /** What the library calls the kernel in descriptions and messages, or null for its signature. */
  private final @Nullable String description;

  /** The function on the device it was last looked up for: launches rarely change device. */
  private volatile @Nullable Resolved lastResolved;

  /**
   * A device's function, with the shared memory its launches there were allowed, and the lifetime
   * of the module it is in, which every launch leases.
   */
  private record Resolved(DeviceImpl device, DeviceFunction function, RefCount module) {}

  KernelImpl(KernelImageImpl image, String name, List<KernelParam> parameters) {
    this(image, name, parameters, null);
  }

  private KernelImpl(
      KernelImageImpl image,
      String name,
      List<KernelParam> parameters,
      @Nullable String description) {
    this.image = image;
    this.name = name;
    this.description = description;
    this.parameters = List.copyOf(parameters);
    this.sizes = this.parameters.stream().mapToInt(KernelParam::size).toArray();
    // The driver copies argument values during each launch call, so one block per thread suffices.
    this.argumentBlocks =
        ThreadLocal.withInitial(() -> KernelArguments.allocate(Arena.ofAuto(), sizes));
  }

  /**
   * {@return a graph node that launches this kernel with {@code arguments}}: scalars as their boxed
   * types ({@code Integer} for {@link KernelParam#I32}, ...), pointers as {@link DeviceBuffer}s
   *
   * @throws IllegalArgumentException if the count or a type does not match the declaration, or the
   *     device of the buffer arguments cannot run the launch's shape
   */
  @Override
  public GraphNode<@Nullable Void> launch(LaunchConfig config, Object... arguments) {
    Objects.requireNonNull(config, "config");
    check(arguments);
    for (Object argument : arguments) {
      if (argument instanceof DeviceBuffer<?> buffer) {
        DeviceBufferImpl.requireLiveIfTemporary(buffer);
      }
    }
    boolean shapeChecked = false;
    for (Object argument : arguments) {
      if (argument instanceof DeviceBuffer<?> buffer) {
        // The launch can only run where its buffers live: check the shape there now.
        checkShape(config, DeviceImpl.of(buffer.device()));
        shapeChecked = true;
        break;
      }
    }
    return new KernelLaunchOp(this, config, arguments.clone(), shapeChecked);
  }

  /**
   * Fails unless {@code device} can run a launch of this kernel shaped by {@code config}, before
   * the driver sees it: when the launch is built (for the device of its buffers) and when it
   * executes on {@code device}. The dynamic shared memory counts beside the kernel's static shared
   * memory where that was read on the device already; {@link #function(DeviceImpl, int)} checks the
   * two together before the first launch of each larger amount. Allocates nothing unless it fails.
   *
   * @throws IllegalArgumentException naming the device's limit and the shape's value
   */
  public void checkShape(LaunchConfig config, DeviceImpl device) {
    Resolved last = lastResolved;
    int staticShared =
        last != null && last.device == device ? last.function.knownStaticSharedBytes() : 0;
    device.checkLaunch(config, this, staticShared);
  }

  /** Loads the kernel on {@code device} now, e.g. before a graph capture. */
  @Override
  public void load(Device device) {
    DeviceImpl impl = DeviceImpl.of(Objects.requireNonNull(device, "device"));
    impl.bind();
    resolved(impl);
  }

  /** {@return this kernel, named by {@code description} in descriptions and messages} */
  @Override
  public Kernel describedAs(String description) {
    Objects.requireNonNull(description, "description");
    if (description.isBlank() || description.contains("\n")) {
      throw new IllegalArgumentException(
          "Kernel.describedAs: \""
              + description
              + "\" is not one line of text; describe the kernel in one line that is not blank");
    }
    return new KernelImpl(image, name, parameters, description);
  }

  /** {@return whether the kernel has a Java reference} */
  @Override
  public boolean hasReference() {
    return image.reference(name) != null;
  }

  /**
   * Runs the kernel's Java reference on the host: pointer arguments are {@link
   * java.lang.foreign.MemorySegment}s or Java arrays, which it reads and writes in place.
   *
   * @throws IllegalStateException if the kernel has no reference
   */
  @Override
  public void runReference(LaunchConfig config, Object... arguments) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(arguments, "arguments");
    JavaKernel reference = image.reference(name);
    if (reference == null) {
      throw new IllegalStateException(
          "kernel " + name + " has no Java reference; add one with KernelImage.withReference");
    }
    if (arguments.length != parameters.size()) {
      throw new IllegalArgumentException(
          signature() + " takes " + parameters.size() + " arguments, got " + arguments.length);
    }
    reference.run(new HostKernelCall(config, parameters, arguments));
  }

  /** {@return the kernel's name in its image} */
  @Override
  public String name() {
    return name;
  }

  /** {@return the declared parameters} */
  @Override
  public List<KernelParam> parameters() {
    return parameters;
  }

  /** {@return the image the kernel comes from} */
  @Override
  public KernelImageImpl image() {
    return image;
  }

  /**
   * {@return the kernel's function on the execution's device, allowed {@code sharedMemoryBytes} of
   * dynamic shared memory}, loaded and its declaration checked there on the first lookup (see
   * {@link KernelImageImpl}). The execution leases the module the function is in, so that an unload
   * of the image leaves it loaded while the launch, or a graph that captured it, can run. Before
   * the first launch of each larger amount the amount is checked beside the kernel's static shared
   * memory (read from the driver once), and where the two pass the device's default for a block
   * ({@code MAX_SHARED_MEMORY_PER_BLOCK}, 48 KiB) the function opts in ({@code
   * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}); a launch on the device looked up last, at or
   * under the amount allowed, costs a field read, a lease and a comparison
   *
   * @throws IllegalArgumentException when the declaration does not fit the kernel the image
   *     defines, or the dynamic and static shared memory together are more than the device gives a
   *     block that opts in ({@code MAX_SHARED_MEMORY_PER_BLOCK_OPTIN})
   * @throws cuda.graph.CudaException when the driver refuses the amount
   */
  public CuFunction function(Execution ex, int sharedMemoryBytes) {
    DeviceImpl device = ex.device;
    Resolved r = resolved(device);
    if (!r.module.tryAcquire()) {
      // The image was unloaded from the device since: load it again, the lease taken meanwhile.
      KernelImageImpl.Function f = image.leasedFunction(device, this);
      r = new Resolved(device, f.function(), f.module());
      lastResolved = r;
    }
    ex.hold(r.module);
    DeviceFunction f = r.function;
    if (f.needsAllowing(sharedMemoryBytes)) {
      f.allow(device, sharedMemoryBytes, this);
    }
    return f.handle;
  }

  private Resolved resolved(DeviceImpl device) {
    Resolved last = lastResolved;
    if (last != null && last.device == device && !last.module.isClosed()) {
      return last;
    }
    KernelImageImpl.Function f = image.function(device, this);
    Resolved r = new Resolved(device, f.function(), f.module());
    lastResolved = r;
    return r;
  }

  public KernelArguments argumentBlock() {
    return argumentBlocks.get();
  }

  private void check(Object[] arguments) {
    Objects.requireNonNull(arguments, "arguments");
    if (arguments.length != parameters.size()) {
      throw new IllegalArgumentException(
          signature() + " takes " + parameters.size() + " arguments, got " + arguments.length);
    }
    for (int i = 0; i < arguments.length; i++) {
      String mismatch = mismatch(parameters.get(i), arguments[i]);
      if (mismatch != null) {
        throw new IllegalArgumentException(
            signature()
                + ": argument "
                + i
                + " must be "
                + describe(parameters.get(i))
                + ", got "
                + mismatch);
      }
    }
  }

  /** {@return why {@code argument} does not fit {@code p}, or null when it does} */
  private static @Nullable String mismatch(KernelParam p, @Nullable Object argument) {
    if (argument == null) {
      return "null";
    }
    if (p.accepts(argument)) {
      return null;
    }
    if (p.isPointer() && argument instanceof DeviceBuffer<?>) {
      return argument.toString(); // a buffer of another element type
    }
    if (argument instanceof DeviceOp<?> op) {
      // A lazy op (e.g. DeviceBuffer.zeros(...)) is not a buffer yet; its class is internal.
      return "an op ("
          + op
          + "), which is not a buffer until it executes: allocate first (op.syncOn(stream)) and"
          + " pass the buffer, or compose: op.then(buffer -> kernel.launch(config, ..., buffer))";
    }
    return "a " + argument.getClass().getSimpleName() + " (" + argument + ")";
  }

  private static String describe(KernelParam p) {
    if (p.isPointer()) {
      return p.elementType() == null ? "a DeviceBuffer" : "a DeviceBuffer<" + p.elementType() + ">";
    }
    return "an "
        + p
        + " ("
        + switch (p.size()) {
          case 1 -> "Byte";
          case 2 -> "Short";
          case 4 -> p == KernelParam.F32 ? "Float" : "Integer";
          default -> p == KernelParam.F64 ? "Double" : "Long";
        }
        + ")";
  }

  /** {@return what descriptions and messages call the kernel: its description, or its signature} */
  public String describe() {
    return description != null ? description : signature();
  }

  public String signature() {
    StringJoiner j = new StringJoiner(", ", name + "(", ")");
    parameters.forEach(p -> j.add(p.toString()));
    return j.toString();
  }

  /** {@return the implementation behind a kernel (the only one {@code Kernel} permits)} */
  public static KernelImpl of(Kernel kernel) {
    return (KernelImpl) kernel;
  }

  @Override
  public String toString() {
    return "Kernel[" + describe() + "]";
  }
}
