// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.blas.BlasException;
import org.jspecify.annotations.Nullable;

/**
 * The one place a failed {@code cublasStatus_t} becomes a {@link BlasException}.
 *
 * <p>The message is one line: the entry point, the status's name and number, cuBLASLt's description
 * of it ({@code cublasLtGetStatusString}, when the library has it), what the call was for (the
 * product, when known) and what to do ({@link CublasLtStatus#advice}). cuBLASLt's texts are
 * parameters, not calls, so the message can be composed (and tested) without a library; {@link
 * CublasLtLibrary#failure} supplies them from the library loaded.
 */
public final class CublasLtErrors {

  private CublasLtErrors() {}

  /**
   * {@return the exception for {@code entry}'s call having returned {@code status}}
   *
   * @param entry the entry point that failed
   * @param status the {@code cublasStatus_t} it returned, not SUCCESS
   * @param libraryName {@code cublasLtGetStatusName(status)}, or null when not known: used only for
   *     a status this module does not know
   * @param description {@code cublasLtGetStatusString(status)}, or null when not known
   * @param context what the call was for, e.g. the product planned, or null
   */
  public static BlasException failure(
      CublasLtEntry entry,
      int status,
      @Nullable String libraryName,
      @Nullable String description,
      @Nullable String context) {
    String name = CublasLtStatus.name(status);
    boolean known = CublasLtStatus.isKnown(status);
    if (!known && libraryName != null && !libraryName.isBlank()) {
      // A newer cuBLAS's name for a code this module does not know; the number follows.
      name = libraryName.strip();
    }
    StringBuilder message = new StringBuilder(entry.symbol()).append(" failed: ").append(name);
    if (known || !name.endsWith(" " + status)) {
      message.append(" (").append(status).append(')');
    }
    String said = oneLine(description);
    if (!said.isEmpty()) {
      message.append(", \"").append(said).append('"');
    }
    String what = oneLine(context);
    if (!what.isEmpty()) {
      message.append(", for ").append(what);
    }
    message.append(". ").append(CublasLtStatus.advice(status));
    return new BlasException(entry.symbol(), status, name, message.toString());
  }

  /** {@return a text on one line, without the full stop that {@link #failure} adds} */
  private static String oneLine(@Nullable String text) {
    if (text == null) {
      return "";
    }
    String line = text.strip().replaceAll("\\s*\\R\\s*", " ");
    return line.endsWith(".") ? line.substring(0, line.length() - 1).stripTrailing() : line;
  }
}
