// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.kernel.KernelImpl;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A kernel of a {@link KernelImage} with its declared parameter list. {@link #launch} type-checks
 * the arguments against the declaration when the op is built, and the launch reuses a prepared,
 * per-thread native argument block, so launching allocates no native memory. Thread-safe.
 *
 * <p>For example, the {@code scale} kernel of {@link KernelImage}'s example, launched on a buffer
 * and read back:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=kernel}
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface Kernel permits KernelImpl {

  /**
   * {@return a graph node that launches this kernel with {@code arguments}}: scalars as their boxed
   * types ({@code Integer} for {@link KernelParam#I32}, ...), pointers as {@link DeviceBuffer}s
   *
   * @param config the grid, block and dynamic shared memory of the launch
   * @param arguments one per declared parameter, in order; the array is copied
   * @throws IllegalArgumentException if the count or a type does not match the declaration
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> launch(LaunchConfig config, Object... arguments);

  /**
   * Loads the kernel on {@code device} now, e.g. before a graph capture. Later launches on that
   * device reuse the loaded function.
   *
   * @param device the device whose context loads the kernel's image
   * @throws CudaDriverError if the image does not load or has no kernel of this name
   */
  void load(Device device);

  /** {@return whether the kernel has a Java reference} */
  boolean hasReference();

  /**
   * Runs the kernel's Java reference on the host: pointer arguments are {@link
   * java.lang.foreign.MemorySegment}s or Java arrays, which it reads and writes in place.
   *
   * @param config the launch shape the reference sees through {@link KernelCall}
   * @param arguments one per declared parameter, in order: scalars boxed as for {@link #launch}
   * @throws IllegalStateException if the kernel has no reference
   * @throws IllegalArgumentException if the argument count does not match the declaration
   */
  void runReference(LaunchConfig config, Object... arguments);

  /** {@return the kernel's name in its image} */
  String name();

  /** {@return the declared parameters} */
  List<KernelParam> parameters();

  /** {@return the image the kernel comes from} */
  KernelImage image();

  /**
   * {@return this kernel, called {@code description} wherever the library describes it}: in the
   * {@code toString} of the kernel and of its launches, and in the messages that refuse a node's
   * replacement, which otherwise name the kernel by its name and parameters. For kernels a library
   * launches on its users' behalf, whose names mean nothing to them (a matrix product's kernel,
   * described by its product). The result is a kernel of its own: {@link CudaGraph#replaceNode}
   * gives a node that launched it only the parameters of another launch of this very object.
   *
   * @param description one line that is not blank
   * @throws IllegalArgumentException if {@code description} is blank or more than one line
   */
  Kernel describedAs(String description);
}
