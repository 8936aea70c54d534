// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.fail;
import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphMemAttribute;
import java.util.ArrayList;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Initialization, devices and primary contexts. */
final class DeviceCalls {

  /** The modelled driver version: CUDA 13.0 (driver 580). */
  static final int DRIVER_VERSION = 13000;

  /** Attribute values of an NVIDIA H200, as the driver reported them. */
  private static final Map<Integer, Integer> H200 =
      Map.ofEntries(
          Map.entry(DeviceAttribute.MAX_THREADS_PER_BLOCK, 1024),
          Map.entry(DeviceAttribute.MAX_BLOCK_DIM_X, 1024),
          Map.entry(DeviceAttribute.MAX_BLOCK_DIM_Y, 1024),
          Map.entry(DeviceAttribute.MAX_BLOCK_DIM_Z, 64),
          Map.entry(DeviceAttribute.MAX_GRID_DIM_X, Integer.MAX_VALUE),
          Map.entry(DeviceAttribute.MAX_GRID_DIM_Y, 65535),
          Map.entry(DeviceAttribute.MAX_GRID_DIM_Z, 65535),
          Map.entry(DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK, 49152),
          Map.entry(DeviceAttribute.TOTAL_CONSTANT_MEMORY, 65536),
          Map.entry(DeviceAttribute.WARP_SIZE, 32),
          Map.entry(DeviceAttribute.MAX_REGISTERS_PER_BLOCK, 65536),
          Map.entry(DeviceAttribute.CLOCK_RATE, 1980000),
          Map.entry(DeviceAttribute.MULTIPROCESSOR_COUNT, 132),
          Map.entry(DeviceAttribute.COMPUTE_MODE, 0),
          Map.entry(DeviceAttribute.CONCURRENT_KERNELS, 1),
          Map.entry(DeviceAttribute.L2_CACHE_SIZE, 52428800),
          Map.entry(DeviceAttribute.MAX_THREADS_PER_MULTIPROCESSOR, 2048),
          Map.entry(DeviceAttribute.ASYNC_ENGINE_COUNT, 3),
          Map.entry(DeviceAttribute.UNIFIED_ADDRESSING, 1),
          Map.entry(DeviceAttribute.COMPUTE_CAPABILITY_MAJOR, 9),
          Map.entry(DeviceAttribute.COMPUTE_CAPABILITY_MINOR, 0),
          Map.entry(DeviceAttribute.MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472),
          Map.entry(DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448),
          Map.entry(DeviceAttribute.MAX_BLOCKS_PER_MULTIPROCESSOR, 32),
          Map.entry(DeviceAttribute.MEMORY_POOLS_SUPPORTED, 1));

  private final SimState state;

  DeviceCalls(SimState state) {
    this.state = state;
  }

  void init(int flags) {
    if (state.closed) {
      throw fail(CuResult.DEINITIALIZED, DriverCall.INIT, "this simulator was closed");
    }
    if (flags != 0) {
      throw invalid(DriverCall.INIT, "cuInit flags must be 0, got " + flags);
    }
    state.initialized = true;
  }

  int deviceGetCount() {
    state.requireInit(DriverCall.DEVICE_GET_COUNT);
    return state.devices.length;
  }

  int deviceGet(int ordinal) {
    return state.device(ordinal, DriverCall.DEVICE_GET).ordinal;
  }

  String deviceGetName(int device) {
    return state.device(device, DriverCall.DEVICE_GET_NAME).name;
  }

  int deviceGetAttribute(int attribute, int device) {
    SimDevice d = state.device(device, DriverCall.DEVICE_GET_ATTRIBUTE);
    if (attribute == DeviceAttribute.PCI_BUS_ID) {
      return d.ordinal + 1;
    }
    Integer value = H200.get(attribute);
    if (value == null) {
      throw invalid(
          DriverCall.DEVICE_GET_ATTRIBUTE, "the simulator models no device attribute " + attribute);
    }
    return value;
  }

  long deviceTotalMem(int device) {
    return state.device(device, DriverCall.DEVICE_TOTAL_MEM).totalMemory;
  }

  long graphMemAttribute(int device, GraphMemAttribute attribute) {
    return state
        .device(device, DriverCall.DEVICE_GET_GRAPH_MEM_ATTRIBUTE)
        .graphMemory
        .get(attribute);
  }

  void setGraphMemAttribute(int device, GraphMemAttribute attribute, long value) {
    DriverCall call = DriverCall.DEVICE_SET_GRAPH_MEM_ATTRIBUTE;
    SimDevice d = state.device(device, call);
    if (!attribute.isHighWater()) {
      throw invalid(
          call,
          attribute
              + " cannot be set: only the high-water marks USED_MEM_HIGH and RESERVED_MEM_HIGH"
              + " can, and only to 0, which resets them");
    }
    if (value != 0) {
      throw invalid(
          call,
          "a high-water mark can only be reset, with the value 0 (it then becomes the current"
              + " amount); got "
              + value);
    }
    d.graphMemory.resetHighWater(attribute);
  }

  void graphMemTrim(int device) {
    state.device(device, DriverCall.DEVICE_GRAPH_MEM_TRIM).graphMemory.trim();
  }

  CuContext primaryCtxRetain(int device) {
    SimDevice d = state.device(device, DriverCall.DEVICE_PRIMARY_CTX_RETAIN);
    if (d.poisoned != 0) {
      throw fail(
          d.poisoned,
          DriverCall.DEVICE_PRIMARY_CTX_RETAIN,
          "the device's previous context died of a sticky error; the process must be restarted");
    }
    if (d.primary == null) {
      long address = state.handles.newAddress(SimContext.class);
      d.primary = new SimContext(new CuContext(address), d);
      state.handles.add(address, d.primary);
    }
    d.primaryRetains++;
    return d.primary.handle;
  }

  void primaryCtxRelease(int device) {
    SimDevice d = state.device(device, DriverCall.DEVICE_PRIMARY_CTX_RELEASE);
    if (d.primaryRetains == 0 || d.primary == null) {
      throw fail(
          CuResult.INVALID_CONTEXT,
          DriverCall.DEVICE_PRIMARY_CTX_RELEASE,
          "device " + device + "'s primary context is not retained");
    }
    d.primaryRetains--;
    if (d.primaryRetains == 0) {
      destroy(d.primary);
      d.primary = null;
    }
  }

  /** Resets a primary context: everything it owns is destroyed with it. */
  private void destroy(SimContext context) {
    if (context.stickyError != 0) {
      context.device.poisoned = context.stickyError;
    }
    for (Object object : new ArrayList<>(context.owned)) {
      if (object instanceof HandleTable.Handled h) {
        state.handles.unregister(h.handle().address(), "was destroyed with its context");
      }
      if (object instanceof SimStream s) {
        s.destroyed = true;
      }
    }
    for (Allocation a : new ArrayList<>(context.allocations)) {
      a.unback();
      state.memory.remove(a);
    }
    context.allocations.clear();
    context.device.usedMemory = 0;
    context.device.graphMemory.unmapAll();
    context.owned.clear();
    context.destroyed = true;
    state.handles.unregister(
        context.handle.address(),
        "was destroyed by releasing the last retain of its primary context");
  }

  void ctxSetCurrent(@Nullable CuContext context) {
    state.requireInit(DriverCall.CTX_SET_CURRENT);
    if (context == null || context.address() == 0) {
      state.current.remove();
      return;
    }
    state.current.set(state.handles.resolve(context, SimContext.class, DriverCall.CTX_SET_CURRENT));
  }

  @Nullable CuContext ctxGetCurrent() {
    state.requireInit(DriverCall.CTX_GET_CURRENT);
    SimContext context = state.current.get();
    return context == null ? null : context.handle;
  }
}
