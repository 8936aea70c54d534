// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

/**
 * The {@code ncclResult_t} codes: their names and, for each, a sentence on what the user can do.
 * Codes a newer NCCL may add are named {@code ncclResult <n>}, so a message never loses the code.
 */
public final class NcclResults {

  /** {@code ncclSuccess}. */
  public static final int SUCCESS = 0;

  /** {@code ncclUnhandledCudaError}: a CUDA call inside NCCL failed. */
  public static final int UNHANDLED_CUDA_ERROR = 1;

  /** {@code ncclSystemError}: a system call or the network failed. */
  public static final int SYSTEM_ERROR = 2;

  /** {@code ncclInternalError}: an NCCL bug or corrupted state. */
  public static final int INTERNAL_ERROR = 3;

  /** {@code ncclInvalidArgument}: a bad argument, such as a host pointer for a device buffer. */
  public static final int INVALID_ARGUMENT = 4;

  /** {@code ncclInvalidUsage}: calls in the wrong order, or ranks that disagree. */
  public static final int INVALID_USAGE = 5;

  /** {@code ncclRemoteError}: another rank failed or went away. */
  public static final int REMOTE_ERROR = 6;

  /** {@code ncclInProgress}: a non-blocking communicator's operation has not finished yet. */
  public static final int IN_PROGRESS = 7;

  private static final String[] NAMES = {
    "ncclSuccess",
    "ncclUnhandledCudaError",
    "ncclSystemError",
    "ncclInternalError",
    "ncclInvalidArgument",
    "ncclInvalidUsage",
    "ncclRemoteError",
    "ncclInProgress",
  };

  private static final String[] ADVICE = {
    "Nothing to do: the call succeeded.",
    "A CUDA call inside NCCL failed: check the device and that earlier GPU work succeeded;"
        + " NCCL_DEBUG=WARN shows which.",
    "A system call or the network failed: NCCL_DEBUG=WARN names it.",
    "An NCCL bug or corrupted state: report it with NCCL_DEBUG=INFO output.",
    "Check the arguments: device buffers of the communicator's device, large enough for the"
        + " count, a data type and reduction NCCL knows, and a root or peer that is a rank of the"
        + " communicator; NCCL_DEBUG=WARN names the one refused.",
    "Check that every rank calls the same collectives in the same order, on a stream of its"
        + " communicator's device.",
    "Another rank failed or went away: look at that rank's error first.",
    "The operation is still running on a non-blocking communicator: poll ncclCommGetAsyncError"
        + " until it no longer returns ncclInProgress.",
  };

  private NcclResults() {}

  /** {@return whether NCCL's headers, as this module knows them, name {@code result}} */
  public static boolean isKnown(int result) {
    return result >= 0 && result < NAMES.length;
  }

  /**
   * {@return the name of {@code result}, e.g. {@code ncclInvalidUsage}}; {@code ncclResult <n>} for
   * a code this module does not know
   */
  public static String name(int result) {
    return isKnown(result) ? NAMES[result] : "ncclResult " + result;
  }

  /** {@return one sentence on what to do about {@code result}, starting with a capital} */
  public static String advice(int result) {
    return isKnown(result)
        ? ADVICE[result]
        : "A result this module does not know, perhaps from a newer NCCL: NCCL_DEBUG=WARN says"
            + " what failed.";
  }
}
