// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * jqwik arbitraries of GPU work for the conformance properties: op sequences over pre-allocated
 * buffers ({@link cuda.graph.conformance.arbitraries.OpSequences}) with a Java model of what they
 * compute, and interleavings of graph and buffer lifetimes ({@link
 * cuda.graph.conformance.arbitraries.LifetimeScripts}).
 */
@NullMarked
package cuda.graph.conformance.arbitraries;

import org.jspecify.annotations.NullMarked;
