// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The runtime objects behind the public handles: platform, devices, streams, events, device and
 * host buffers, staging, the error-translating driver, context binding, shared ownership ({@code
 * RefCount}), deferred native releases and the completion of futures. May depend on {@code
 * cuda.graph}, {@code cuda.graph.spi}, {@code cuda.graph.spi.support} (the error-translating driver
 * is a forwarding one), {@code .ops} (buffers build their ops) and {@code .bootstrap}.
 */
@NullMarked
package cuda.graph.internal.runtime;

import org.jspecify.annotations.NullMarked;
