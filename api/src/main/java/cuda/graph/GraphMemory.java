// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * What a device's driver reports of the memory its graphs' allocation nodes use ({@link
 * Scope#temporary} makes them), read by {@link Device#graphMemory()}: a snapshot, in bytes.
 *
 * <p>The driver maps this memory when a graph is instantiated and uploaded, or launched, and keeps
 * it mapped afterwards, so later launches allocate nothing; it rounds each allocation up to its own
 * granularity, and it lets graphs share memory whenever their launches cannot overlap: graphs
 * launched one after the other on one stream need as much as the largest of them, not the sum,
 * while a launch on another stream reuses only memory whose launches have completed. Destroying a
 * graph unmaps nothing; {@link Device#trimGraphMemory()} gives back what no launch in flight needs.
 * (On the H200, with driver 580, used and reserved were equal in every case measured.)
 *
 * @param usedBytes memory now associated with graphs ({@code CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT})
 * @param usedHighBytes the most {@code usedBytes} has been since the last {@link
 *     Device#resetGraphMemoryHighWater()} ({@code CU_GRAPH_MEM_ATTR_USED_MEM_HIGH})
 * @param reservedBytes memory now mapped for graph allocations ({@code
 *     CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT})
 * @param reservedHighBytes the most {@code reservedBytes} has been since the last reset ({@code
 *     CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH})
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public record GraphMemory(
    long usedBytes, long usedHighBytes, long reservedBytes, long reservedHighBytes) {}
