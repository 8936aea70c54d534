package cuda.graph;

import org.jspecify.annotations.Nullable;

/** A kernel launch with checked arguments; a graph kernel node. */
final class KernelLaunchOp extends OnceGuard implements GraphNode<@Nullable Void> {

  final Kernel kernel;
  final LaunchConfig config;
  final Object[] arguments;

  KernelLaunchOp(Kernel kernel, LaunchConfig config, Object[] arguments) {
    this.kernel = kernel;
    this.config = config;
    this.arguments = arguments;
  }

  @Override
  public String toString() {
    return "launch " + kernel.signature() + " " + config.grid() + "x" + config.block();
  }
}
