package cuda.graph;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelArguments;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * A kernel of a {@link KernelImage} with its declared parameter list. {@link #launch} type-checks
 * the arguments against the declaration when the op is built, and the launch reuses a prepared,
 * per-thread native argument block, so launching allocates no native memory. Thread-safe.
 */
public final class Kernel {

  private final KernelImage image;
  private final String name;
  private final List<KernelParam> parameters;
  private final int[] sizes;
  private final ThreadLocal<KernelArguments> argumentBlocks;
  /** The function on the device it was last looked up for: launches rarely change device. */
  private volatile @Nullable Resolved lastResolved;

  private record Resolved(Device device, CuFunction function) {}

  Kernel(KernelImage image, String name, List<KernelParam> parameters) {
    this.image = image;
    this.name = name;
    this.parameters = List.copyOf(parameters);
    this.sizes = this.parameters.stream().mapToInt(KernelParam::size).toArray();
    // The driver copies argument values during each launch call, so one block per thread suffices.
    this.argumentBlocks = ThreadLocal.withInitial(() -> KernelArguments.allocate(Arena.ofAuto(), sizes));
  }

  /**
   * {@return a graph node that launches this kernel with {@code arguments}}: scalars as their boxed
   * types ({@code Integer} for {@link KernelParam#I32}, ...), pointers as {@link DeviceBuffer}s
   *
   * @throws IllegalArgumentException if the count or a type does not match the declaration
   */
  public GraphNode<@Nullable Void> launch(LaunchConfig config, Object... arguments) {
    Objects.requireNonNull(config, "config");
    check(arguments);
    return new KernelLaunchOp(this, config, arguments.clone());
  }

  /** Loads the kernel on {@code device} now, e.g. before a graph capture. */
  public void load(Device device) {
    device.bind();
    function(device);
  }

  /** {@return whether the kernel has a Java reference} */
  public boolean hasReference() {
    return image.reference(name) != null;
  }

  /**
   * Runs the kernel's Java reference on the host: pointer arguments are {@link
   * java.lang.foreign.MemorySegment}s or Java arrays, which it reads and writes in place.
   *
   * @throws IllegalStateException if the kernel has no reference
   */
  public void runReference(LaunchConfig config, Object... arguments) {
    JavaKernel reference = image.reference(name);
    if (reference == null) {
      throw new IllegalStateException("kernel " + name + " has no Java reference; add one with KernelImage.withReference");
    }
    if (arguments.length != parameters.size()) {
      throw new IllegalArgumentException(signature() + " takes " + parameters.size() + " arguments, got " + arguments.length);
    }
    reference.run(new HostKernelCall(config, parameters, arguments));
  }

  /** {@return the kernel's name in its image} */
  public String name() {
    return name;
  }

  /** {@return the declared parameters} */
  public List<KernelParam> parameters() {
    return parameters;
  }

  /** {@return the image the kernel comes from} */
  public KernelImage image() {
    return image;
  }

  CuFunction function(Device device) {
    Resolved last = lastResolved;
    if (last != null && last.device == device) {
      return last.function;
    }
    CuFunction function = image.function(device, name);
    lastResolved = new Resolved(device, function);
    return function;
  }

  KernelArguments argumentBlock() {
    return argumentBlocks.get();
  }

  private void check(Object[] arguments) {
    if (arguments.length != parameters.size()) {
      throw new IllegalArgumentException(signature() + " takes " + parameters.size() + " arguments, got " + arguments.length);
    }
    for (int i = 0; i < arguments.length; i++) {
      String mismatch = parameters.get(i).mismatch(arguments[i]);
      if (mismatch != null) {
        throw new IllegalArgumentException(
            signature() + ": argument " + i + " must be " + describe(parameters.get(i)) + ", got " + mismatch);
      }
    }
  }

  private static String describe(KernelParam p) {
    if (p.isPointer()) {
      return p.elementType() == null ? "a DeviceBuffer" : "a DeviceBuffer<" + p.elementType() + ">";
    }
    return "an " + p + " (" + switch (p.size()) {
      case 1 -> "Byte";
      case 2 -> "Short";
      case 4 -> p == KernelParam.F32 ? "Float" : "Integer";
      default -> p == KernelParam.F64 ? "Double" : "Long";
    } + ")";
  }

  String signature() {
    StringJoiner j = new StringJoiner(", ", name + "(", ")");
    parameters.forEach(p -> j.add(p.toString()));
    return j.toString();
  }

  @Override
  public String toString() {
    return "Kernel[" + signature() + "]";
  }
}
