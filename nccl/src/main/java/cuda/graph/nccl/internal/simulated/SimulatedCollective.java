// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

import cuda.graph.ElementType;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.collective.Collective;
import cuda.graph.nccl.internal.collective.CollectiveKind;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A collective as the model's kernel receives it: the description travels as kernel arguments, so
 * the same captured kernel means the same collective at every replay.
 */
record SimulatedCollective(
    CollectiveKind kind, long count, ElementType<?> type, @Nullable ReduceOp op, int rankArgument) {

  private static final List<ElementType<?>> TYPES = ElementType.values();
  private static final CollectiveKind[] KINDS = CollectiveKind.values();
  private static final ReduceOp[] OPS = ReduceOp.values();

  static SimulatedCollective of(Collective c) {
    return new SimulatedCollective(c.kind(), c.count(), c.type(), c.op(), c.rankArgument());
  }

  /** {@return kind, type and op packed into one kernel argument} */
  int packed() {
    return kind.ordinal() | TYPES.indexOf(type) << 4 | (op == null ? 15 : op.ordinal()) << 12;
  }

  static SimulatedCollective unpack(int packed, long count, int rankArgument) {
    int op = packed >>> 12 & 15;
    return new SimulatedCollective(
        KINDS[packed & 15],
        count,
        TYPES.get(packed >>> 4 & 255),
        op == 15 ? null : OPS[op],
        rankArgument);
  }

  long sendBytes(int size) {
    return (kind == CollectiveKind.REDUCE_SCATTER ? count * size : count) * type.byteSize();
  }

  long recvBytes(int size) {
    return (kind == CollectiveKind.ALL_GATHER ? count * size : count) * type.byteSize();
  }

  String describe() {
    return Collective.describe(kind, op, count, type, rankArgument);
  }
}
