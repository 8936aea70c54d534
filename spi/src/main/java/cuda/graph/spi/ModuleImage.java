// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The input of {@code cuModuleLoadData}: a PTX, cubin or fatbin image, plus optional Java
 * implementations of its kernels.
 *
 * <p>A provider backed by the real driver loads the bytes and ignores the Java kernels. The
 * simulator runs the Java kernels and uses the bytes only to validate the image and to learn the
 * kernel names a PTX image declares. Instances are immutable; {@link #withJavaKernel} returns a new
 * image.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ModuleImage {

  private final ImageFormat format;
  private final byte[] bytes;
  private final Map<String, KernelBody> javaKernels;

  private ModuleImage(ImageFormat format, byte[] bytes, Map<String, KernelBody> javaKernels) {
    this.format = Objects.requireNonNull(format, "format");
    this.bytes = bytes;
    this.javaKernels = javaKernels;
  }

  /**
   * {@return an image of PTX text (without a trailing NUL: providers add what the driver needs)}
   *
   * @param text the PTX module; stored as UTF-8 bytes
   */
  public static ModuleImage ptx(String text) {
    return new ModuleImage(ImageFormat.PTX, text.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  /**
   * {@return an image of the given format from raw bytes, copied}
   *
   * @param format how a provider reads {@code bytes}
   * @param bytes the image; copied when this method is called
   */
  public static ModuleImage of(ImageFormat format, byte[] bytes) {
    return new ModuleImage(format, bytes.clone(), Map.of());
  }

  /**
   * {@return this image with a Java implementation for the kernel called {@code name}}, replacing
   * one of the same name; this image is unchanged
   *
   * @param name the kernel's (unmangled) name, as {@link CudaDriver#moduleGetFunction} asks for it
   * @param body what the simulator runs for every launch of that kernel
   */
  public ModuleImage withJavaKernel(String name, KernelBody body) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(body, "body");
    Map<String, KernelBody> kernels = new LinkedHashMap<>(javaKernels);
    kernels.put(name, body);
    return new ModuleImage(format, bytes, Map.copyOf(kernels));
  }

  /** {@return the image format} */
  public ImageFormat format() {
    return format;
  }

  /** {@return a copy of the image bytes} */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** {@return the image size in bytes} */
  public int size() {
    return bytes.length;
  }

  /** {@return the Java kernel implementations, by kernel name (unmodifiable)} */
  public Map<String, KernelBody> javaKernels() {
    return javaKernels;
  }

  /** {@return the image as text, for PTX images} */
  public String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "ModuleImage["
        + format
        + ", "
        + bytes.length
        + " bytes, java kernels "
        + javaKernels.keySet()
        + ", sha "
        + Integer.toHexString(Arrays.hashCode(bytes))
        + "]";
  }
}
