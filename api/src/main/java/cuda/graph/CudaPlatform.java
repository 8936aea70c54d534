package cuda.graph;

/** Placeholder, replaced by the provider-selection work. */
public final class CudaPlatform {
  private CudaPlatform() {}
}
