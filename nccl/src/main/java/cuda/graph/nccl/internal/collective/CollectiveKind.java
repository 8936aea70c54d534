// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.collective;

/** The collectives a group may hold, named as NCCL names their entry points. */
public enum CollectiveKind {
  ALL_REDUCE("ncclAllReduce", true),
  ALL_GATHER("ncclAllGather", true),
  REDUCE_SCATTER("ncclReduceScatter", true),
  BROADCAST("ncclBroadcast", true),
  SEND("ncclSend", false),
  RECV("ncclRecv", false);

  /** The NCCL entry point. */
  public final String function;

  /** Whether every rank takes part (true) or a pair of ranks (send and receive). */
  public final boolean everyRank;

  CollectiveKind(String function, boolean everyRank) {
    this.function = function;
    this.everyRank = everyRank;
  }
}
