package cuda.graph.internal.kernel;

import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.internal.ops.OnceGuard;
import org.jspecify.annotations.Nullable;

/** A kernel launch with checked arguments; a graph kernel node. */
public final class KernelLaunchOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public final Kernel kernel;
  public final LaunchConfig config;
  public final Object[] arguments;

  public KernelLaunchOp(Kernel kernel, LaunchConfig config, Object[] arguments) {
    this.kernel = kernel;
    this.config = config;
    this.arguments = arguments;
  }

  @Override
  public String toString() {
    return "launch "
        + KernelImpl.of(kernel).signature()
        + " "
        + config.grid()
        + "x"
        + config.block();
  }
}
