// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

/**
 * Says which {@code --enable-native-access} flag grants this provider native access, for the way it
 * was actually loaded: its module's name on the module path, {@code ALL-UNNAMED} on the class path.
 */
final class NativeAccessAdvice {

  private NativeAccessAdvice() {}

  /** {@return the flag that grants native access to {@code module}} */
  static String flagFor(Module module) {
    return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
  }

  /** {@return where {@code module} was loaded from, in the words a user would search for} */
  static String placeOf(Module module) {
    return module.isNamed() ? "on the module path" : "on the class path";
  }

  /**
   * {@return a one-line sentence telling the user to enable native access for {@code module}}, e.g.
   * {@code "... run java with --enable-native-access=cuda.graph.driver (the provider is on the
   * module path)"}
   */
  static String advice(Module module, String consequence) {
    return "native access is not enabled for the CUDA provider, so "
        + consequence
        + ": run java with "
        + flagFor(module)
        + " (the provider is "
        + placeOf(module)
        + ")";
  }
}
