// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * An opaque driver handle: the value of a {@code CUcontext}, {@code CUstream}, {@code CUevent},
 * {@code CUmodule}, {@code CUfunction}, {@code CUgraph}, {@code CUgraphExec} or {@code
 * CUgraphNode}.
 *
 * <p>Handles are plain values: two handles are equal when their kind and address are equal. Holding
 * one keeps nothing alive; the object behind it lives until its destroy call. Using a handle after
 * it was destroyed is undefined behaviour (the real driver may crash the process), so callers must
 * make that unreachable.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface CuHandle
    permits CuContext, CuStream, CuEvent, CuModule, CuFunction, CuGraph, CuGraphExec, CuGraphNode {

  /** {@return the raw handle value as the driver returned it} */
  long address();

  /** {@return which kind of driver object this handle names} */
  HandleKind kind();

  /**
   * Formats a handle as {@code CUstream(0x1f40)}, the way all handle records print.
   *
   * @param kind names the CUDA type the text starts with
   * @param address printed in lower-case hexadecimal
   * @return the CUDA type followed by the address in parentheses
   */
  static String format(HandleKind kind, long address) {
    return kind.cudaType() + "(0x" + Long.toHexString(address) + ")";
  }
}
