package cuda.graph;

/** What {@link CudaGraph#scope} records: a function of the {@link Scope}. */
@FunctionalInterface
public interface ScopeBody {
  void record(Scope scope);
}
