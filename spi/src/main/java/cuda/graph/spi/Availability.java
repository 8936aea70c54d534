package cuda.graph.spi;

import java.util.Objects;

/**
 * Whether a provider can serve this process, and if not, why, in one line that names the fix.
 *
 * @param available whether {@link CudaDriverProvider#open()} is expected to succeed
 * @param reason why the provider is (un)available, e.g. {@code "libcuda.so.1 not found: install
 *     the NVIDIA driver or choose -Dcuda.graph.provider=simulator"}
 */
public record Availability(boolean available, String reason) {

  public Availability {
    Objects.requireNonNull(reason, "reason");
  }

  /** {@return an available verdict with a reason} */
  public static Availability available(String reason) {
    return new Availability(true, reason);
  }

  /** {@return an unavailable verdict with a reason that says what to do} */
  public static Availability unavailable(String reason) {
    return new Availability(false, reason);
  }
}
