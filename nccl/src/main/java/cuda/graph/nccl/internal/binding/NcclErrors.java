// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import cuda.graph.nccl.NcclException;
import org.jspecify.annotations.Nullable;

/**
 * The one place a failed {@code ncclResult_t} becomes an {@link NcclException}.
 *
 * <p>The message is one line: the entry point, the result's name and code, NCCL's description of
 * the code ({@code ncclGetErrorString}), NCCL's description of what went wrong ({@code
 * ncclGetLastError}, when it has one) and what to do ({@link NcclResults#advice}). NCCL's texts are
 * parameters, not calls, so the message can be composed (and tested) without a library; {@link
 * NcclLibrary#failure} supplies them from the library loaded.
 */
public final class NcclErrors {

  private NcclErrors() {}

  /**
   * {@return the exception for {@code entry}'s call having returned {@code result}}
   *
   * @param entry the entry point that failed
   * @param result the {@code ncclResult_t} it returned, not {@code ncclSuccess}
   * @param description {@code ncclGetErrorString(result)}, or null when not known
   * @param lastError {@code ncclGetLastError}, or null or empty when NCCL gave none
   */
  public static NcclException failure(
      NcclEntry entry, int result, @Nullable String description, @Nullable String lastError) {
    String name = NcclResults.name(result);
    StringBuilder message = new StringBuilder(entry.symbol()).append(" failed: ").append(name);
    if (NcclResults.isKnown(result)) {
      // An unknown code's name already carries the number.
      message.append(" (").append(result).append(')');
    }
    String said = oneLine(description);
    if (!said.isEmpty()) {
      message.append(", \"").append(said).append('"');
    }
    String last = oneLine(lastError);
    if (!last.isEmpty()) {
      message.append("; NCCL says: ").append(last);
    }
    message.append(". ").append(NcclResults.advice(result));
    return new NcclException(entry.symbol(), result, name, message.toString());
  }

  /**
   * {@return NCCL's text on one line, without the full stop that {@link #failure} adds}: its last
   * error can span lines and end with a newline
   */
  private static String oneLine(@Nullable String text) {
    if (text == null) {
      return "";
    }
    String line = text.strip().replaceAll("\\s*\\R\\s*", " ");
    return line.endsWith(".") ? line.substring(0, line.length() - 1).stripTrailing() : line;
  }
}
