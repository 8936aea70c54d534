// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Whether a provider can serve this process, and if not, why, in one line that names the fix.
 *
 * @param available whether {@link CudaDriverProvider#open()} is expected to succeed
 * @param reason why the provider is (un)available, e.g. {@code "libcuda.so.1 not found: install the
 *     NVIDIA driver or choose -Dcuda.graph.provider=simulator"}
 * @param blocked whether an unavailable provider could serve this machine but the process's
 *     configuration stops it (native access denied on a host with a GPU, say): selection then warns
 *     instead of quietly falling back
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Availability(boolean available, String reason, boolean blocked) {

  /** Checks the reason, and that only an unavailable provider can be blocked. */
  public Availability {
    Objects.requireNonNull(reason, "reason");
    if (available && blocked) {
      throw new IllegalArgumentException("an available provider is not blocked");
    }
  }

  /**
   * {@return an available verdict with a reason}
   *
   * @param reason what the provider found, e.g. the driver library and version it loaded
   */
  public static Availability available(String reason) {
    return new Availability(true, reason, false);
  }

  /**
   * {@return an unavailable verdict with a reason that says what to do}
   *
   * @param reason one line naming what is missing and the fix
   */
  public static Availability unavailable(String reason) {
    return new Availability(false, reason, false);
  }

  /**
   * {@return an unavailable verdict for a provider that would work here but for the process's
   * configuration}, with a reason that says what to change
   *
   * @param reason one line naming the configuration that stops the provider and how to change it
   */
  public static Availability blocked(String reason) {
    return new Availability(false, reason, true);
  }
}
