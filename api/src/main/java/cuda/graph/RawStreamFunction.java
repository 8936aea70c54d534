// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The body of a {@link DeviceOp#withRawStream} op: enqueues work on the raw stream through another
 * CUDA library and returns the op's result.
 *
 * @param <T> the result type
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface RawStreamFunction<T extends @Nullable Object> {

  /**
   * Enqueues asynchronous work on {@code stream}; must neither synchronize it nor keep it.
   *
   * @param stream the raw {@code CUstream} handle value to pass to the other library
   * @param device the device whose context is current on the calling thread
   * @return the op's result
   */
  T apply(long stream, Device device);
}
