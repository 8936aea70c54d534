// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.kernel.KernelImageImpl;
import java.lang.invoke.MethodHandles;
import org.apiguardian.api.API;

/**
 * Device code: a PTX, cubin or fatbin image, or CUDA C++ source compiled at run time (NVRTC), plus
 * optional Java references of its kernels ({@link #withReference}), which the simulator runs and
 * tests use as the CPU reference.
 *
 * <p>An image is immutable and loaded lazily, once per device, when a kernel of it first runs
 * there, and stays loaded until the platform closes or it is {@linkplain #unload unloaded}. Load
 * kernels before capturing a graph ({@link Kernel#load}) to keep module loading out of the capture.
 * Thread-safe.
 *
 * <p>For example, a kernel from CUDA C++ source, with a Java reference ({@link JavaKernel}) the
 * simulator runs in its place (on a GPU the source compiles at the first launch, for the device's
 * architecture):
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=kernel-image}
 *
 * <p>and one from PTX shipped beside a class:
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=kernel-image-ptx}
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface KernelImage permits KernelImageImpl {

  /**
   * {@return an image of PTX assembly text}
   *
   * @param text the PTX module, as {@code nvcc -ptx} writes it
   */
  static KernelImage ptx(String text) {
    return KernelImageImpl.ptx(text);
  }

  /**
   * {@return an image of PTX text read from the resource {@code resource} next to the class of
   * {@code lookup}}, read with that class's own access, so it works from any module, open or not:
   * {@code KernelImage.ptxResource(MethodHandles.lookup(), "saxpy.ptx")}. A relative name is
   * resolved against the class's package, as {@link Class#getResource} does.
   *
   * @param lookup a full-privilege lookup of the class the resource lies next to
   * @param resource the resource name, relative to that class's package or absolute with a leading
   *     {@code /}
   * @throws IllegalArgumentException if there is no such resource, or {@code lookup} is not a
   *     full-privilege lookup ({@code MethodHandles.lookup()} of the class itself)
   */
  static KernelImage ptxResource(MethodHandles.Lookup lookup, String resource) {
    return KernelImageImpl.ptxResource(lookup, resource);
  }

  /**
   * {@return an image of PTX text read from the resource {@code resource} next to {@code anchor}},
   * as this library can see it: on the class path, or in a package that is open to {@code
   * cuda.graph}. From a named module that opens nothing, use {@link
   * #ptxResource(MethodHandles.Lookup, String)}; the exception says so when that is the problem.
   *
   * @param anchor the class the resource lies next to
   * @param resource the resource name, relative to {@code anchor}'s package or absolute with a
   *     leading {@code /}
   * @throws IllegalArgumentException if the resource is missing or hidden from this library
   */
  static KernelImage ptxResource(Class<?> anchor, String resource) {
    return KernelImageImpl.ptxResource(anchor, resource);
  }

  /**
   * {@return an image of a cubin (machine code for one architecture)}
   *
   * @param image the cubin's bytes; copied when this method is called
   */
  static KernelImage cubin(byte[] image) {
    return KernelImageImpl.cubin(image);
  }

  /**
   * {@return an image of a fatbin (several architectures)}
   *
   * @param image the fatbin's bytes; copied when this method is called
   */
  static KernelImage fatbin(byte[] image) {
    return KernelImageImpl.fatbin(image);
  }

  /**
   * {@return an image compiled from CUDA C++ source with NVRTC when first loaded}; declare kernels
   * {@code extern "C"}. Unless the options name an architecture, the device's own virtual
   * architecture is used. A compile error fails the first launch with the compiler's log.
   *
   * @param programName the name NVRTC gives the program in its log, e.g. {@code "saxpy.cu"}
   * @param source the CUDA C++ translation unit
   * @param nvrtcOptions options passed to NVRTC as given, e.g. {@code "--use_fast_math"}
   */
  static KernelImage cudaSource(String programName, String source, String... nvrtcOptions) {
    return KernelImageImpl.cudaSource(programName, source, nvrtcOptions);
  }

  /**
   * {@return this image with a Java reference for the kernel {@code kernelName}}: a new image,
   * which also keeps this one's references (one of the same name is replaced); this image is
   * unchanged
   *
   * @param kernelName the kernel's name in the image
   * @param reference what the simulator runs and {@link Kernel#runReference} calls for that kernel
   */
  KernelImage withReference(String kernelName, JavaKernel reference);

  /**
   * {@return the kernel {@code name} of this image, with its declared parameters}
   *
   * <p>The declaration is checked against the kernel, on every provider, because a launch with a
   * wrong one reads garbage on a GPU: a PTX image's {@code .entry} is checked here (count, size and
   * kind of each parameter); a CUDA source image's is checked against the PTX it compiles to, and a
   * cubin's or fatbin's against the parameter sizes the driver reports ({@code cuFuncGetParamInfo},
   * CUDA 12.4 and newer; skipped where the driver cannot tell, as the simulator cannot for a
   * fatbin, whose device code it does not read), once per device, when the kernel first loads
   * there. Each mismatch is an {@code IllegalArgumentException} naming the declaration and what the
   * image defines.
   *
   * @param name the kernel's (unmangled) name in the image
   * @param parameters the kernel's parameter types, in order
   * @throws IllegalArgumentException if the image is PTX whose entry {@code name} declares other
   *     parameters; a name the PTX lacks fails when the kernel loads
   */
  Kernel kernel(String name, KernelParam... parameters);

  /**
   * Unloads this image from {@code device} ({@code cuModuleUnload}) once nothing can run its
   * kernels there any more: work already executed or submitted that launches one of them keeps the
   * module loaded until it is done, and so does every graph that captured such a launch (or took
   * one as a node's replacement), until the graph is destroyed. A launch of one of its kernels
   * after this loads the image on the device again. Does nothing where the image is not loaded; the
   * platform's close unloads what is still loaded. For libraries that make images of their own and
   * must not keep them loaded for the life of the platform.
   *
   * @param device the device to unload the image from
   */
  void unload(Device device);
}
