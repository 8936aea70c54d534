package cuda.graph.simulator.internal;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelBody;
import org.jspecify.annotations.Nullable;

/** A kernel of a loaded module; {@link #body} is its Java implementation, if one was supplied. */
final class SimFunction implements HandleTable.Handled {

  CuFunction handle = new CuFunction(0);
  final SimModule module;
  final String name;
  final @Nullable KernelBody body;

  SimFunction(SimModule module, String name, @Nullable KernelBody body) {
    this.module = module;
    this.name = name;
    this.body = body;
  }

  @Override
  public CuFunction handle() {
    return handle;
  }
}
