// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The base of driver decorators: {@link cuda.graph.spi.support.ForwardingCudaDriver} forwards every
 * entry point of a {@link cuda.graph.spi.CudaDriver} through two hooks (before the call, and on
 * failure), so that a decorator overrides only what it intercepts. The api's error translation is
 * one such decorator; the instruments tests use to prove a caller correct are another, published
 * apart in the test kit (artifact {@code cuda-graph-testkit}), so that no application or provider
 * loads them. May depend on {@code cuda.graph.spi}.
 */
@NullMarked
package cuda.graph.spi.support;

import org.jspecify.annotations.NullMarked;
