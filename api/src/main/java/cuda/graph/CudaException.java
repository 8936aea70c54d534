// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.io.Serial;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The root of the exceptions cuda-graph throws. It is unchecked, so Java and Kotlin callers need
 * not declare it, and sealed: the subclasses this library defines are all there are, so a {@code
 * switch} over them can be exhaustive.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public abstract sealed class CudaException extends RuntimeException
    permits CudaProviderException,
        CudaDriverError,
        ReentrantExecutionException,
        GraphCaptureException {

  @Serial private static final long serialVersionUID = 1L;

  CudaException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
