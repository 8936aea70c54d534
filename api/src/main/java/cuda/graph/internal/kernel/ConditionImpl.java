// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.GraphCondition;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.spi.ConditionalHandle;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link GraphCondition}: the driver's handle, created for the graph of one
 * capture, and that capture, which is what makes it usable in a kernel launch (only kernels
 * recorded by the same capture, or replacing a node that capture recorded, may set it) and in a
 * conditional node (only a scope of the same capture may test it). A recapture makes new
 * conditions: the graph it applies, in place or not, has handles of its own.
 */
public final class ConditionImpl implements GraphCondition {

  public final ConditionalHandle handle;
  private final int defaultValue;
  private final @Nullable Object capture;
  private final Object scope;

  /**
   * @param capture an execution of the capture whose kernels may set the condition
   * @param scope the scope whose conditional nodes may test it
   */
  public ConditionImpl(
      ConditionalHandle handle, int defaultValue, Execution capture, Object scope) {
    this.handle = handle;
    this.defaultValue = defaultValue;
    this.capture = capture.capturing;
    this.scope = scope;
  }

  /** {@return whether {@code scope} made this condition} */
  public boolean madeBy(Object scope) {
    return this.scope == scope;
  }

  /**
   * {@return the implementation behind a condition (the only one {@code GraphCondition} permits)}
   */
  public static ConditionImpl of(GraphCondition condition) {
    return (ConditionImpl) condition;
  }

  @Override
  public int defaultValue() {
    return defaultValue;
  }

  /**
   * {@return whether kernels of {@code ex} may set this condition}: it records into the capture
   * that made the condition, or replaces a node that capture recorded
   */
  public boolean belongsTo(Execution ex) {
    return capture != null && ex.conditionsOf == capture;
  }

  @Override
  public String toString() {
    return "GraphCondition[" + handle.value() + ", default " + defaultValue + "]";
  }
}
