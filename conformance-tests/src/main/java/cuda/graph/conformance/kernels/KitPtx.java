// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.kernels;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads the kit's PTX files, which lie beside the kernel classes in this package. */
final class KitPtx {

  private KitPtx() {}

  /**
   * {@return the text of {@code name}}, read here, in this module: the resource's package is not
   * open to the API module
   *
   * @throws IllegalStateException if the kit's jar lacks the file
   */
  static String read(String name) {
    try (InputStream in = KitPtx.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the conformance kit's jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }
}
