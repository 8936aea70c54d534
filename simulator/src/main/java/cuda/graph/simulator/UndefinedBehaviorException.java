package cuda.graph.simulator;

/**
 * The caller did something that is undefined behaviour on the real driver (which may crash the
 * process or corrupt memory): using or destroying a destroyed handle, passing a handle that was
 * never created, or passing null where the driver dereferences.
 */
public final class UndefinedBehaviorException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public UndefinedBehaviorException(String message) {
    super(message);
  }
}
