// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * An NCCL call failed. Carries the entry point that failed, its {@code ncclResult_t} code and name,
 * and a sentence on what to do; the message holds all of them and, where NCCL gave one, its own
 * description of the last error.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class NcclException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The NCCL entry point that failed. */
  private final String function;

  /** The {@code ncclResult_t} it returned; never {@code ncclSuccess}. */
  private final int result;

  /** The name of {@link #result}. */
  private final String resultName;

  /**
   * Creates an exception for a failed NCCL call.
   *
   * @param function the NCCL entry point, e.g. {@code ncclAllReduce}
   * @param result the {@code ncclResult_t} it returned
   * @param resultName the name of {@code result}, e.g. {@code ncclInvalidArgument}
   * @param message the whole message: call, code, name, NCCL's words and what to do
   */
  public NcclException(String function, int result, String resultName, String message) {
    super(Objects.requireNonNull(message, "message"));
    this.function = Objects.requireNonNull(function, "function");
    this.result = result;
    this.resultName = Objects.requireNonNull(resultName, "resultName");
  }

  /** {@return the NCCL entry point that failed, e.g. {@code ncclCommInitRank}} */
  public String function() {
    return function;
  }

  /** {@return the {@code ncclResult_t} code the call returned} */
  public int result() {
    return result;
  }

  /** {@return the name of {@link #result()}, e.g. {@code ncclInvalidUsage}} */
  public String resultName() {
    return resultName;
  }
}
