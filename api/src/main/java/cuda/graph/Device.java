package cuda.graph;

import cuda.graph.internal.runtime.DeviceImpl;

/**
 * One GPU of a {@link CudaPlatform}: its identity and limits, and the factory of its streams,
 * events and pinned host buffers.
 *
 * <p>A device's primary context is retained the first time the device is used and released when its
 * platform closes; the library makes it current on every thread before that thread issues work for
 * the device. Instances are created by the platform, one per ordinal, and are safe to use from any
 * thread.
 */
public sealed interface Device permits DeviceImpl {

  /** {@return the platform this device belongs to} */
  CudaPlatform platform();

  /** {@return the device's ordinal, from 0} */
  int ordinal();

  /** {@return the device's name, e.g. {@code NVIDIA H200}} */
  String name();

  /** {@return the device's compute capability} */
  ComputeCapability computeCapability();

  /** {@return the device's memory size in bytes} */
  long totalMemory();

  /** {@return the device memory not yet allocated, in bytes (a snapshot)} */
  long freeMemory();

  /** {@return a driver attribute of the device ({@code CUdevice_attribute} value)} */
  int attribute(int cudaDeviceAttribute);

  /**
   * Creates a stream on this device. Streams are non-blocking (independent of the legacy default
   * stream), which is what graph capture requires; close them when done.
   */
  Stream newStream();

  /** Creates an event on this device; close it when done. */
  CudaEvent newEvent();

  /**
   * Allocates {@code length} elements of page-locked host memory, which asynchronous copies and
   * graph memcpy nodes can read and write while the host goes on. Close it when done: its memory is
   * freed once no queued copy uses it.
   */
  <T> HostBuffer<T> allocateHost(ElementType<T> type, long length);
}
