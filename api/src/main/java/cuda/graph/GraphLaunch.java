package cuda.graph;

/** Placeholder until graphs land. */
final class GraphLaunch extends OnceGuard implements DeviceOp<@org.jspecify.annotations.Nullable Void> {
  void launchOn(Execution ex) {
    throw new UnsupportedOperationException();
  }
}
