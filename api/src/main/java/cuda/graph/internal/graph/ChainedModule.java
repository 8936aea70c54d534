// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.Module;
import org.jspecify.annotations.Nullable;

/** Two modules, the second fed the first's output. */
public final class ChainedModule<I, M extends @Nullable Object, O extends @Nullable Object>
    implements Module<I, O> {

  private final Module<I, M> first;
  private final Module<? super M, O> second;

  public ChainedModule(Module<I, M> first, Module<? super M, O> second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public O forward(I input) {
    return second.forward(first.forward(input));
  }

  @Override
  public void close() {
    try {
      first.close();
    } finally {
      second.close();
    }
  }

  @Override
  public String toString() {
    return first + ".andThen(" + second + ")";
  }
}
