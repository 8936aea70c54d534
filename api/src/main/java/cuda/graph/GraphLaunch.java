// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.exec.GraphLaunchImpl;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An op that replays a captured graph ({@code cuGraphLaunch}) on whichever stream executes it. Made
 * by {@link CudaGraph#launch()}.
 *
 * <p>A launch replays the graph as it is when the launch executes: a recapture, a node replaced or
 * switched off before then is what it replays, however the change was applied. It shares ownership
 * of the graph from the moment it is made: it stays valid after its {@link CudaGraph} is closed,
 * and the graph is destroyed only once every launch handed out has been executed (and its work
 * completed) or become unreachable, or when the platform closes. A launch executes once: an
 * execution that fails (a stream of another device, inside a capture) uses it up, and its share
 * goes with that execution. Launches of one graph are serialized by the driver, even on different
 * streams, and the library makes their driver calls one at a time, as CUDA requires for calls on
 * one graph. A launch is not a {@link GraphNode}: it cannot be recorded into another graph.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface GraphLaunch extends DeviceOp<@Nullable Void> permits GraphLaunchImpl {}
