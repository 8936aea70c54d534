package cuda.graph;

/** What {@link CudaGraph#scope} records: a function of the {@link Scope}. */
@FunctionalInterface
public interface ScopeBody {
  /**
   * Records the graph's nodes; called once, on the capturing thread, while the capture is open.
   *
   * @param scope records nodes into the graph; dead once this method returns
   */
  void record(Scope scope);
}
