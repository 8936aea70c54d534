// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

/**
 * Refuses to load cuBLASLt, with the flag that would allow it, when this module may not use native
 * access. Checked before any restricted call: the JVM's own refusal (or, by default, its warning)
 * would not say which flag fits the way the module was loaded.
 */
final class NativeAccess {

  private NativeAccess() {}

  /**
   * Checks that this module may use native access.
   *
   * @throws cuda.graph.blas.BlasException naming the flag when it may not
   */
  static void require() {
    require(NativeAccess.class.getModule());
  }

  /**
   * Checks that {@code module} may use native access.
   *
   * @throws cuda.graph.blas.BlasException naming the flag for {@code module} when it may not
   */
  static void require(Module module) {
    if (!module.isNativeAccessEnabled()) {
      throw Unavailable.because("java --enable-native-access", refusal(module), null);
    }
  }

  /** {@return the message for {@code module} lacking native access} */
  static String refusal(Module module) {
    String flag;
    String place;
    if (module.isNamed()) {
      flag = "--enable-native-access=" + module.getName();
      place = "module " + module.getName() + " is on the module path";
    } else {
      flag = "--enable-native-access=ALL-UNNAMED";
      place = "the cuBLASLt binding is on the class path";
    }
    return "native access is not enabled for the cuBLASLt binding, so it may not load "
        + CublasLtLoader.SONAMES.getFirst()
        + ": run java with "
        + flag
        + " ("
        + place
        + ")";
  }
}
