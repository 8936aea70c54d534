// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Matrix products of cuBLASLt as cuda-graph graph nodes: a matmul is described once (shapes,
 * layouts, types, epilogue), checked when it is made, planned once by cuBLASLt's heuristic, and
 * becomes a {@link cuda.graph.GraphNode} that runs eagerly, in a capture and in a scope, with its
 * workspace leased as long as any graph that captured it can replay.
 *
 * <p>On the {@code cuda} provider the products are cuBLASLt's ({@code libcublasLt.so.13} or {@code
 * .12}, through the Foreign Function and Memory API; system property {@code
 * cuda.graph.blas.library} names the file to load instead of searching the loader path). On the
 * {@code simulator} provider the module runs a Java model of them with the same rounding. Native
 * access: {@code --enable-native-access=cuda.graph.blas} on the module path, {@code ALL-UNNAMED} on
 * the class path.
 */
module cuda.graph.blas {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph;

  exports cuda.graph.blas;
}
