package cuda.graph;

import org.jspecify.annotations.Nullable;

/** A host function run in stream order ({@code cuLaunchHostFunc}); a graph host node when captured. */
final class HostCallbackOp extends OnceGuard implements GraphNode<@Nullable Void> {

  final Runnable callback;

  HostCallbackOp(Runnable callback) {
    this.callback = callback;
  }

  @Override
  public String toString() {
    return "hostCallback";
  }
}
