// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What {@code cuMemGetInfo_v2} reports for the current context's device.
 *
 * @param freeBytes bytes the device can still allocate
 * @param totalBytes the device's memory size
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record MemoryInfo(long freeBytes, long totalBytes) {}
