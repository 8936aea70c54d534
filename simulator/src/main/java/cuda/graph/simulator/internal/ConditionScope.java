// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The conditions one exec launch can set: the values of its conditional nodes, at any depth, by
 * handle. Making the scope is the start of the launch, when conditions created with {@code
 * CU_GRAPH_COND_ASSIGN_DEFAULT} take their default value.
 */
final class ConditionScope {

  private final Map<Long, AtomicInteger> values = new HashMap<>();

  private ConditionScope() {}

  /** Starts a launch of {@code ops}: assigns the defaults and collects the conditions. */
  static ConditionScope startLaunch(List<Op> ops) {
    ConditionScope scope = new ConditionScope();
    for (Op.ConditionalRun run : ExecTree.conditionals(ops)) {
      if (run.assignDefault()) {
        run.value().set(run.defaultValue());
      }
      scope.values.put(run.handle(), run.value());
    }
    return scope;
  }

  /** {@return the value of the launch's condition with this handle, or null if it has none} */
  @Nullable AtomicInteger value(long handle) {
    return values.get(handle);
  }
}
