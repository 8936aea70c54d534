// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuModule;
import java.util.LinkedHashMap;
import java.util.Map;

/** A loaded module: its kernels by name, each with or without a Java implementation. */
final class SimModule implements HandleTable.Handled {

  final CuModule handle;
  final SimContext context;
  final Map<String, SimFunction> functions = new LinkedHashMap<>();

  SimModule(CuModule handle, SimContext context) {
    this.handle = handle;
    this.context = context;
  }

  @Override
  public CuModule handle() {
    return handle;
  }
}
