// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.KernelImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads kernel files that applications ship as resources. {@code Class.getResourceAsStream} is
 * caller-sensitive: called by this library, it cannot see a resource in a package its module does
 * not open to {@code cuda.graph}. A full-privilege {@link MethodHandles.Lookup} of the
 * application's class reads the resource as that class does, so it works in any module.
 */
final class KernelResources {

  private static final MethodType GET_RESOURCE =
      MethodType.methodType(InputStream.class, String.class);

  private KernelResources() {}

  /** {@return the bytes of {@code resource}, resolved and read as {@code lookup}'s class does} */
  static byte[] read(MethodHandles.Lookup lookup, String resource) {
    Objects.requireNonNull(lookup, "lookup");
    Objects.requireNonNull(resource, "resource");
    Class<?> owner = lookup.lookupClass();
    if ((lookup.lookupModes() & MethodHandles.Lookup.ORIGINAL) == 0) {
      throw new IllegalArgumentException(
          lookup
              + " is not a full-privilege lookup; pass MethodHandles.lookup() from "
              + owner.getName()
              + " itself");
    }
    InputStream in;
    try {
      // A handle to a caller-sensitive method runs with the lookup class as its caller.
      MethodHandle get = lookup.findVirtual(Class.class, "getResourceAsStream", GET_RESOURCE);
      in = (InputStream) get.invokeExact(owner, resource);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot look up resources of " + owner.getName(), e);
    }
    if (in == null) {
      throw new IllegalArgumentException(
          "no resource "
              + resource
              + " next to "
              + owner.getName()
              + " (looked up as "
              + where(owner, resource)
              + ")");
    }
    return readAll(in, resource);
  }

  /** {@return the bytes of {@code resource} next to {@code anchor}, as this library can read it} */
  static byte[] read(Class<?> anchor, String resource) {
    Objects.requireNonNull(anchor, "anchor");
    Objects.requireNonNull(resource, "resource");
    InputStream in = anchor.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalArgumentException(missing(anchor, resource));
    }
    return readAll(in, resource);
  }

  /** Says why a resource next to {@code anchor} is not there, or not visible to this library. */
  private static String missing(Class<?> anchor, String resource) {
    Module module = anchor.getModule();
    Module library = KernelImage.class.getModule();
    String pkg = packageOf(anchor, resource);
    if (module.isNamed() && module != library && pkg != null && !module.isOpen(pkg, library)) {
      return "cannot read "
          + resource
          + " next to "
          + anchor.getName()
          + ": package "
          + pkg
          + " of module "
          + module.getName()
          + " is not open to cuda.graph, so the JVM hides its"
          + " resources from the library; pass MethodHandles.lookup() instead of the class"
          + " (KernelImage.ptxResource(MethodHandles.lookup(), \""
          + resource
          + "\")), or add"
          + " 'opens "
          + pkg
          + " to cuda.graph;' to module "
          + module.getName();
    }
    return "no resource "
        + resource
        + " next to "
        + anchor.getName()
        + " (looked up as "
        + where(anchor, resource)
        + ")";
  }

  /** {@return the package a resource name resolves into, or null for the unnamed package} */
  private static @Nullable String packageOf(Class<?> anchor, String resource) {
    String path = where(anchor, resource);
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? null : path.substring(0, slash).replace('/', '.');
  }

  /** {@return the absolute resource path {@code Class.getResource} resolves {@code resource} to} */
  private static String where(Class<?> anchor, String resource) {
    if (resource.startsWith("/")) {
      return resource.substring(1);
    }
    String pkg = anchor.getPackageName();
    return pkg.isEmpty() ? resource : pkg.replace('.', '/') + "/" + resource;
  }

  private static byte[] readAll(InputStream in, String resource) {
    try (in) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
