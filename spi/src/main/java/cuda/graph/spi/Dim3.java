package cuda.graph.spi;

/** A grid or block shape, as in CUDA's {@code dim3}. */
public record Dim3(int x, int y, int z) {

  /** {@return x * y * z, as a long so that large grids do not overflow} */
  public long volume() {
    return (long) x * y * z;
  }

  @Override
  public String toString() {
    return "(" + x + ", " + y + ", " + z + ")";
  }
}
