// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * NCCL collectives as cuda-graph graph nodes: communicators over the devices of a process (or of
 * several processes, through NCCL's own bootstrap), and all-reduce, all-gather, reduce-scatter,
 * broadcast, send and receive as {@link cuda.graph.GraphNode}s, so a step of compute and
 * collectives is captured once per device and replayed together.
 *
 * <p>On the {@code cuda} provider the collectives are NCCL's ({@code libnccl.so.2}, through the
 * Foreign Function and Memory API; system property {@code cuda.graph.nccl.library} names the file
 * to load instead of searching the loader path). On the {@code simulator} provider the module runs
 * a model of them on the simulated devices. Native access: {@code
 * --enable-native-access=cuda.graph.nccl} on the module path, {@code ALL-UNNAMED} on the class
 * path.
 */
module cuda.graph.nccl {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph;

  exports cuda.graph.nccl;
}
