// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * A device's compute capability, e.g. 9.0 for an H100 or H200.
 *
 * @param major the major version
 * @param minor the minor version
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public record ComputeCapability(int major, int minor) implements Comparable<ComputeCapability> {

  /** {@return the architecture name NVRTC and ptxas use, e.g. {@code compute_90}} */
  public String virtualArchitecture() {
    return "compute_" + major + minor;
  }

  @Override
  public int compareTo(ComputeCapability other) {
    return major != other.major
        ? Integer.compare(major, other.major)
        : Integer.compare(minor, other.minor);
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
