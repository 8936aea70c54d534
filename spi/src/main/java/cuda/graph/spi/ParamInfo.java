// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What {@code cuFuncGetParamInfo} reports for one parameter of a kernel: where its value lies in
 * the kernel's parameter buffer and how many bytes it takes. The driver knows sizes, not types: a
 * {@code float} and an {@code int} both take 4 bytes.
 *
 * @param offset the parameter's byte offset in the parameter buffer
 * @param size the parameter's size in bytes
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ParamInfo(long offset, long size) {

  /** Checks that neither value is negative. */
  public ParamInfo {
    if (offset < 0 || size < 0) {
      throw new IllegalArgumentException(
          "offset " + offset + " and size " + size + " must be >= 0");
    }
  }
}
