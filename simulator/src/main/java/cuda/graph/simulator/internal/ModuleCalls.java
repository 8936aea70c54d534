// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.FunctionAttribute;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.KernelBody;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Module loading, kernel lookup and kernel launches with the driver's launch validation (§5). */
final class ModuleCalls {

  private static final int MAX_THREADS_PER_BLOCK = 1024;
  private static final int MAX_BLOCK_X = 1024;
  private static final int MAX_BLOCK_Y = 1024;
  private static final int MAX_BLOCK_Z = 64;
  private static final long MAX_GRID_X = Integer.MAX_VALUE;
  private static final int MAX_GRID_YZ = 65535;

  /**
   * The simulated device's MAX_SHARED_MEMORY_PER_BLOCK: the shared memory, static and dynamic, a
   * block has without opting in.
   */
  static final int MAX_SHARED_MEMORY_PER_BLOCK = 48 * 1024;

  /** The simulated device's MAX_SHARED_MEMORY_PER_BLOCK_OPTIN (an H100's or H200's). */
  static final int MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 232448;

  private final SimState state;

  ModuleCalls(SimState state) {
    this.state = state;
  }

  CuModule load(ModuleImage image) {
    DriverCall call = DriverCall.MODULE_LOAD_DATA;
    SimContext context = state.currentContext(call);
    Map<String, ImageInspector.Kernel> entries = ImageInspector.inspect(image);
    Set<String> names = new LinkedHashSet<>(entries.keySet());
    names.addAll(image.javaKernels().keySet());
    long address = state.handles.newAddress(SimModule.class);
    SimModule module = new SimModule(new CuModule(address), context);
    state.adopt(address, module, context);
    for (String name : names) {
      KernelBody body = image.javaKernels().get(name);
      ImageInspector.Kernel kernel = entries.get(name);
      List<ParamInfo> parameters = kernel == null ? null : kernel.parameters().orElse(null);
      int staticShared = kernel == null ? -1 : kernel.staticSharedBytes().orElse(-1);
      SimFunction function = new SimFunction(module, name, body, parameters, staticShared);
      function.handle = new CuFunction(state.register(function, context));
      module.functions.put(name, function);
    }
    return module.handle;
  }

  void unload(CuModule handle) {
    DriverCall call = DriverCall.MODULE_UNLOAD;
    SimModule module = state.resolve(handle, SimModule.class, call);
    state.checkUnsafe(call);
    for (SimFunction f : module.functions.values()) {
      state.unregister(
          f.handle, f, module.context, "belonged to a module unloaded by cuModuleUnload");
    }
    state.unregister(handle, module, module.context, "was unloaded by cuModuleUnload");
  }

  CuFunction function(CuModule handle, String name) {
    DriverCall call = DriverCall.MODULE_GET_FUNCTION;
    SimModule module = state.resolve(handle, SimModule.class, call);
    SimFunction f = module.functions.get(name);
    if (f == null) {
      throw fail(
          CuResult.NOT_FOUND,
          call,
          "the module has no kernel named '" + name + "'; it has " + module.functions.keySet());
    }
    return f.handle;
  }

  /**
   * cuFuncGetAttribute: the simulator models the static shared memory, where the module's PTX tells
   * it (NOT_SUPPORTED elsewhere, so that a caller falls back rather than trusts a guess), and the
   * dynamic shared memory limit.
   */
  int getAttribute(CuFunction handle, int attribute) {
    DriverCall call = DriverCall.FUNC_GET_ATTRIBUTE;
    SimFunction function = state.resolve(handle, SimFunction.class, call);
    return switch (attribute) {
      case FunctionAttribute.SHARED_SIZE_BYTES -> {
        if (function.staticSharedMemory < 0) {
          throw fail(
              CuResult.NOT_SUPPORTED,
              call,
              "the simulator does not know the static shared memory of kernel '"
                  + function.name
                  + "': it reads it from the .shared declarations of a PTX module, and this"
                  + " kernel has none it can read (a cubin's or fatbin's, a Java kernel the image"
                  + " does not define, or a variable of a type it cannot size)");
        }
        yield function.staticSharedMemory;
      }
      case FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES -> function.maxDynamicSharedMemory;
      default ->
          throw invalid(
              call,
              "the simulator models only CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES ("
                  + FunctionAttribute.SHARED_SIZE_BYTES
                  + ") and CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ("
                  + FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES
                  + "), not attribute "
                  + attribute);
    };
  }

  /**
   * cuFuncSetAttribute: the simulator models the dynamic shared memory limit only, which may rise
   * to the device's opt-in limit less the kernel's static shared memory.
   */
  void setAttribute(CuFunction handle, int attribute, int value) {
    DriverCall call = DriverCall.FUNC_SET_ATTRIBUTE;
    SimFunction function = state.resolve(handle, SimFunction.class, call);
    if (attribute != FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES) {
      throw invalid(
          call,
          "the simulator models only CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ("
              + FunctionAttribute.MAX_DYNAMIC_SHARED_SIZE_BYTES
              + "), not attribute "
              + attribute);
    }
    int staticShared = function.countedStaticSharedMemory();
    if (value < 0 || value > MAX_SHARED_MEMORY_PER_BLOCK_OPTIN - staticShared) {
      throw invalid(
          call,
          value
              + " bytes of dynamic shared memory for kernel "
              + function.name
              + ": the device gives a block at most "
              + MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
              + (staticShared == 0
                  ? ""
                  : ", and the kernel's "
                      + staticShared
                      + " bytes of static shared memory leave "
                      + (MAX_SHARED_MEMORY_PER_BLOCK_OPTIN - staticShared)));
    }
    function.maxDynamicSharedMemory = value;
  }

  /**
   * {@code cuFuncGetParamInfo}: the layout of parameter {@code index}, read from the module's PTX
   * ({@link PtxEntries}) or cubin ({@link CubinKernels}); empty past the last parameter, as the
   * driver's INVALID_VALUE. A kernel whose parameters the simulator does not know (from a fatbin,
   * whose device code it does not read; a Java kernel the image does not define; a parameter type
   * it cannot size) answers NOT_SUPPORTED, so that a caller's check is skipped rather than failed
   * on a guess.
   */
  Optional<ParamInfo> paramInfo(CuFunction handle, int index) {
    DriverCall call = DriverCall.FUNC_GET_PARAM_INFO;
    SimFunction function = state.resolve(handle, SimFunction.class, call);
    List<ParamInfo> parameters = function.parameters;
    if (parameters == null) {
      throw fail(
          CuResult.NOT_SUPPORTED,
          call,
          "the simulator does not know the parameters of kernel '"
              + function.name
              + "': it reads them from the .entry of a PTX module and from the .nv.info."
              + function.name
              + " section of a cubin, and this module has neither that it can read (it does not"
              + " read the device code in a fatbin)");
    }
    return index >= 0 && index < parameters.size()
        ? Optional.of(parameters.get(index))
        : Optional.empty();
  }

  void launch(
      CuFunction handle,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      CuStream streamHandle,
      KernelArguments arguments,
      boolean programmatic) {
    DriverCall call = programmatic ? DriverCall.LAUNCH_KERNEL_EX : DriverCall.LAUNCH_KERNEL;
    SimFunction function = state.resolve(handle, SimFunction.class, call);
    SimStream stream = state.stream(streamHandle, call);
    state.checkSticky(stream.context, call);
    validateShape(grid, block, sharedMemBytes, function, call);
    if (function.module.context != stream.context) {
      throw fail(
          CuResult.INVALID_HANDLE,
          call,
          "kernel " + function.name + " belongs to another context than " + stream);
    }
    requireJavaBody(function, call);
    state.submit(
        call, stream, kernelOp(function, grid, block, sharedMemBytes, arguments, programmatic));
  }

  /** The simulator runs kernels through their Java reference: one without it cannot run. */
  static void requireJavaBody(SimFunction function, DriverCall call) {
    if (function.body == null) {
      throw fail(
          CuResult.NOT_SUPPORTED,
          call,
          "kernel '"
              + function.name
              + "' has no Java reference, and the simulator runs each kernel through its Java"
              + " reference: add one with KernelImage.withReference(\""
              + function.name
              + "\", ...) (at the SPI, ModuleImage.withJavaKernel)");
    }
  }

  /** {@return a kernel launch with a copy of the arguments, as a command or a node holds it} */
  static Op.Kernel kernelOp(
      SimFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments,
      boolean programmatic) {
    int count = arguments.count();
    long[] offsets = new long[count];
    int[] sizes = new int[count];
    for (int i = 0; i < count; i++) {
      offsets[i] = arguments.offset(i);
      sizes[i] = arguments.size(i);
    }
    return new Op.Kernel(
        function, grid, block, sharedMemBytes, arguments.snapshot(), offsets, sizes, programmatic);
  }

  /**
   * The launch limits: block and grid dimensions, and the dynamic shared memory the kernel may ask
   * for (48 KiB less its static shared memory without opt-in).
   */
  static void validateShape(
      Dim3 grid, Dim3 block, int sharedMemBytes, SimFunction function, DriverCall call) {
    if (grid.x() <= 0
        || grid.y() <= 0
        || grid.z() <= 0
        || block.x() <= 0
        || block.y() <= 0
        || block.z() <= 0) {
      throw invalid(
          call, "grid " + grid + " and block " + block + " dimensions must all be at least 1");
    }
    if (block.x() > MAX_BLOCK_X || block.y() > MAX_BLOCK_Y || block.z() > MAX_BLOCK_Z) {
      throw invalid(
          call, "block " + block + " exceeds the maximum block dimensions (1024, 1024, 64)");
    }
    if (block.volume() > MAX_THREADS_PER_BLOCK) {
      throw invalid(
          call, "block " + block + " has " + block.volume() + " threads; the maximum is 1024");
    }
    if (grid.x() > MAX_GRID_X || grid.y() > MAX_GRID_YZ || grid.z() > MAX_GRID_YZ) {
      throw invalid(
          call, "grid " + grid + " exceeds the maximum grid dimensions (2^31-1, 65535, 65535)");
    }
    int limit = function.maxDynamicSharedMemory;
    if (sharedMemBytes < 0 || sharedMemBytes > limit) {
      int staticShared = function.countedStaticSharedMemory();
      throw invalid(
          call,
          sharedMemBytes
              + " bytes of dynamic shared memory requested; kernel "
              + function.name
              + (limit == function.defaultMaxDynamicSharedMemory()
                  ? " may ask for "
                      + limit
                      + " without opt-in ("
                      + (staticShared == 0
                          ? ""
                          : MAX_SHARED_MEMORY_PER_BLOCK
                              + " less its "
                              + staticShared
                              + " bytes of static shared memory; ")
                      + "cuFuncSetAttribute raises it)"
                  : " was allowed " + limit + " by cuFuncSetAttribute"));
    }
  }
}
