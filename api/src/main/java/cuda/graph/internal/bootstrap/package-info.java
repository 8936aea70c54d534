// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Choosing and opening the process-wide provider: {@code ServiceLoader} discovery, the selection
 * rules and their report, and making the system platform once. May depend on {@code cuda.graph} and
 * {@code cuda.graph.spi}.
 */
@NullMarked
package cuda.graph.internal.bootstrap;

import org.jspecify.annotations.NullMarked;
