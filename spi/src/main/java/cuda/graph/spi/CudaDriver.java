// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The CUDA driver as a provider offers it: one method per driver entry point, in CUDA's terms.
 *
 * <p><b>Failures.</b> A call whose driver status is not {@code CUDA_SUCCESS} throws {@link
 * CudaDriverException} with that status; a call that returns normally succeeded. Statuses that are
 * answers rather than failures ({@code CUDA_ERROR_NOT_READY} from the query calls) are returned as
 * values. What each call does on each status is what the CUDA driver does, as measured and written
 * down in the project's driver specification.
 *
 * <p><b>Threads and contexts.</b> Implementations are thread-safe. As with the driver, calls that
 * create context-owned objects ({@link #streamCreate}, {@link #memAlloc}, {@link #eventCreate},
 * {@link #moduleLoadData}, ...) use the calling thread's current context, set with {@link
 * #ctxSetCurrent}; without one they fail with {@code CUDA_ERROR_INVALID_CONTEXT}.
 *
 * <p><b>Handles and memory.</b> Every handle a call returns is owned by the caller until passed to
 * its destroy call, exactly once. Using a handle after its destroy call is undefined behaviour.
 * Host memory passed to copies must be native (off-heap) memory that stays alive until the stream
 * has executed the copy; a heap segment fails with {@code CUDA_ERROR_INVALID_VALUE}.
 *
 * <p><b>Capture.</b> While a stream captures, asynchronous work issued to it is recorded into the
 * capture's graph instead of executed, and calls that conflict with capture fail and invalidate it
 * (see {@link CaptureMode}).
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface CudaDriver extends AutoCloseable {

  // ---- initialization, versions, errors

  /**
   * {@code cuInit}: initializes the driver; flags must be 0. Idempotent.
   *
   * @param flags {@code cuInit}'s flags; must be 0
   */
  void init(int flags);

  /**
   * {@code cuDriverGetVersion}: {@code 1000 * major + 10 * minor}; works before {@link #init}.
   *
   * @return the CUDA version the driver supports, e.g. 12040 for CUDA 12.4
   */
  int driverGetVersion();

  /**
   * {@code cuGetErrorName}: the {@code CUDA_ERROR_*} name of a status, empty for an unknown one.
   *
   * @param status a {@code CUresult} value
   * @return the status's {@code CUDA_ERROR_*} (or {@code CUDA_SUCCESS}) name; empty when the driver
   *     does not know {@code status}
   */
  Optional<String> getErrorName(int status);

  /**
   * {@code cuGetErrorString}: the description of a status, empty for an unknown one.
   *
   * @param status a {@code CUresult} value
   * @return the driver's one-line description of {@code status}; empty when it does not know it
   */
  Optional<String> getErrorString(int status);

  // ---- devices and contexts

  /**
   * {@code cuDeviceGetCount}: how many CUDA devices the driver sees.
   *
   * @return the number of devices; valid ordinals run from 0 to one less
   */
  int deviceGetCount();

  /**
   * {@code cuDeviceGet}: the {@code CUdevice} of an ordinal; INVALID_DEVICE when out of range.
   *
   * @param ordinal the device's position, from 0 to {@link #deviceGetCount} - 1
   * @return the {@code CUdevice} handle the other device calls take
   */
  int deviceGet(int ordinal);

  /**
   * {@code cuDeviceGetName}: the device's product name.
   *
   * @param device a {@code CUdevice} from {@link #deviceGet}
   * @return the name the driver reports for the device
   */
  String deviceGetName(int device);

  /**
   * {@code cuDeviceGetAttribute}: see {@link DeviceAttribute}; INVALID_VALUE for an unknown one.
   *
   * @param attribute the {@code CUdevice_attribute} to read, one of {@link DeviceAttribute}
   * @param device a {@code CUdevice} from {@link #deviceGet}
   * @return the attribute's value, in the unit {@link DeviceAttribute} gives for it
   */
  int deviceGetAttribute(int attribute, int device);

  /**
   * {@code cuDeviceTotalMem_v2}: the device's memory size in bytes.
   *
   * @param device a {@code CUdevice} from {@link #deviceGet}
   * @return the device's total global memory, in bytes
   */
  long deviceTotalMem(int device);

  /**
   * {@code cuDevicePrimaryCtxRetain}: the device's primary context, reference-counted; not made
   * current.
   *
   * @param device a {@code CUdevice} from {@link #deviceGet}
   * @return the device's primary context, retained once more; the caller releases it with {@link
   *     #devicePrimaryCtxRelease}
   */
  CuContext devicePrimaryCtxRetain(int device);

  /**
   * {@code cuDevicePrimaryCtxRelease_v2}: drops one retain; at zero the context and all it owns is
   * destroyed.
   *
   * @param device the {@code CUdevice} whose primary context the caller retained with {@link
   *     #devicePrimaryCtxRetain}
   */
  void devicePrimaryCtxRelease(int device);

  /**
   * {@code cuCtxSetCurrent}: binds a context to the calling thread (null unbinds).
   *
   * @param context the context to make current on the calling thread, or null to leave it without
   *     one
   */
  void ctxSetCurrent(@Nullable CuContext context);

  /**
   * {@code cuCtxGetCurrent}: the calling thread's current context, or null.
   *
   * @return the context bound to the calling thread (borrowed, not retained), or null if none is
   */
  @Nullable CuContext ctxGetCurrent();

  // ---- graph memory of a device (CUDA 11.4)

  /**
   * {@code cuDeviceGetGraphMemAttribute}: how much memory the device's graph allocations use or
   * hold mapped, now or at most since the last reset.
   *
   * @param device a {@code CUdevice} from {@link #deviceGet}
   * @param attribute which amount to read
   * @return the amount, in bytes
   */
  long deviceGetGraphMemAttribute(int device, GraphMemAttribute attribute);

  /**
   * {@code cuDeviceSetGraphMemAttribute}: resets a high-water mark. The driver accepts only the two
   * high-water attributes and only the value 0, which sets the mark to the current amount; anything
   * else fails with {@code CUDA_ERROR_INVALID_VALUE}.
   *
   * @param device a {@code CUdevice} from {@link #deviceGet}
   * @param attribute {@link GraphMemAttribute#USED_MEM_HIGH} or {@link
   *     GraphMemAttribute#RESERVED_MEM_HIGH}
   * @param value 0
   */
  void deviceSetGraphMemAttribute(int device, GraphMemAttribute attribute, long value);

  /**
   * {@code cuDeviceGraphMemTrim}: gives back to the system the graph memory of the device that no
   * launch executing or scheduled needs; later uploads and launches map it again.
   *
   * @param device a {@code CUdevice} from {@link #deviceGet}
   */
  void deviceGraphMemTrim(int device);

  // ---- streams

  /**
   * {@code cuStreamCreate}: flags are {@link StreamFlags}.
   *
   * @param flags {@link StreamFlags#DEFAULT} or {@link StreamFlags#NON_BLOCKING}
   * @return a new stream in the current context; the caller owns it until {@link #streamDestroy}
   */
  CuStream streamCreate(int flags);

  /**
   * {@code cuStreamDestroy_v2}: returns at once; queued work still completes.
   *
   * @param stream a stream from {@link #streamCreate}; invalid afterwards
   */
  void streamDestroy(CuStream stream);

  /**
   * {@code cuStreamSynchronize}: waits until all work queued on the stream is done.
   *
   * @param stream the stream to wait for; a created stream or a default stream
   */
  void streamSynchronize(CuStream stream);

  /**
   * {@code cuStreamQuery}: true when all queued work is done, false for CUDA_ERROR_NOT_READY.
   *
   * @param stream the stream to ask about; a created stream or a default stream
   * @return whether all work queued on {@code stream} so far has completed
   */
  boolean streamQuery(CuStream stream);

  /**
   * {@code cuStreamWaitEvent}: later work on the stream waits for the event's recorded work.
   *
   * @param stream the stream whose later work waits
   * @param event the event whose most recently recorded work is waited for; may belong to another
   *     stream or context
   * @param flags 0, or {@link EventFlags#WAIT_EXTERNAL} to capture the wait as a wait-event node
   */
  void streamWaitEvent(CuStream stream, CuEvent event, int flags);

  /**
   * {@code cuLaunchHostFunc}: runs {@code function} on a driver thread in stream order.
   *
   * @param stream the stream to enqueue on; its later work waits until {@code function} returns
   * @param function the host work; must neither call the driver nor throw (see {@link
   *     HostFunction})
   */
  void launchHostFunc(CuStream stream, HostFunction function);

  // ---- stream capture

  /**
   * {@code cuStreamBeginCapture_v2}: starts recording the stream's work into a new graph.
   *
   * @param stream the stream to capture; not the legacy default stream, and not capturing yet
   * @param mode which potentially unsafe calls the capture prohibits, fixed for its duration
   */
  void streamBeginCapture(CuStream stream, CaptureMode mode);

  /**
   * {@code cuStreamEndCapture}: ends the capture begun on this stream and returns its graph, owned
   * by the caller. Returns null only if the driver reports success without a graph.
   *
   * @param stream the stream a capture was begun on with {@link #streamBeginCapture}
   * @return the captured graph; the caller owns it until {@link #graphDestroy}; null only if the
   *     driver reports success without a graph
   */
  @Nullable CuGraph streamEndCapture(CuStream stream);

  /**
   * {@code cuStreamIsCapturing}: whether the stream is capturing, and whether its capture is still
   * valid.
   *
   * @param stream the stream to ask about
   * @return NONE, ACTIVE, or INVALIDATED when an illegal call broke the capture
   */
  CaptureStatus streamIsCapturing(CuStream stream);

  /**
   * {@code cuStreamGetCaptureInfo_v3}: the stream's capture status, and for an active capture its
   * id, graph and current dependencies.
   *
   * @param stream the stream to ask about
   * @return what the driver reports; its graph is borrowed, never to be destroyed
   */
  CaptureInfo streamGetCaptureInfo(CuStream stream);

  /**
   * {@code cuThreadExchangeStreamCaptureMode}: sets the calling thread's mode, returns the previous
   * one.
   *
   * @param mode the calling thread's new capture mode
   * @return the mode the calling thread had before; pass it back to restore it
   */
  CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode);

  /**
   * {@code cuStreamBeginCaptureToGraph}: starts recording the stream's work into an existing graph,
   * typically a conditional node's body; {@link #streamEndCapture} then returns that same graph,
   * which stays owned by whoever owned it before.
   *
   * @param stream the stream to capture; not the legacy default stream, and not capturing yet
   * @param graph the graph the captured nodes are added to
   * @param dependencies nodes of {@code graph} the first captured node depends on; may be empty
   * @param mode which potentially unsafe calls the capture prohibits, fixed for its duration
   */
  void streamBeginCaptureToGraph(
      CuStream stream, CuGraph graph, List<CuGraphNode> dependencies, CaptureMode mode);

  /**
   * {@code cuStreamUpdateCaptureDependencies_v2}: changes the nodes the next captured operation on
   * the stream depends on, e.g. to a node added to the capture's graph by {@link
   * #graphAddConditionalNode}.
   *
   * @param stream a stream whose capture is active
   * @param dependencies nodes of the capture's graph
   * @param flags {@link #SET_CAPTURE_DEPENDENCIES} to replace the dependencies, {@link
   *     #ADD_CAPTURE_DEPENDENCIES} to add to them
   */
  void streamUpdateCaptureDependencies(CuStream stream, List<CuGraphNode> dependencies, int flags);

  /** {@code CU_STREAM_ADD_CAPTURE_DEPENDENCIES}: adds to a capture's dependencies. */
  int ADD_CAPTURE_DEPENDENCIES = 0;

  /** {@code CU_STREAM_SET_CAPTURE_DEPENDENCIES}: replaces a capture's dependencies. */
  int SET_CAPTURE_DEPENDENCIES = 1;

  // ---- events

  /**
   * {@code cuEventCreate}: flags are {@link EventFlags}.
   *
   * @param flags an OR of {@link EventFlags#DEFAULT}, {@link EventFlags#BLOCKING_SYNC}, {@link
   *     EventFlags#DISABLE_TIMING} and {@link EventFlags#INTERPROCESS}
   * @return a new event in the current context; the caller owns it until {@link #eventDestroy}
   */
  CuEvent eventCreate(int flags);

  /**
   * {@code cuEventDestroy_v2}: returns at once, even while recorded work is pending.
   *
   * @param event an event from {@link #eventCreate}; invalid afterwards
   */
  void eventDestroy(CuEvent event);

  /**
   * {@code cuEventRecord}: the event now stands for the work queued on the stream so far.
   *
   * @param event the event to record; replaces what it recorded before
   * @param stream the stream to record on; must belong to the event's context
   */
  void eventRecord(CuEvent event, CuStream stream);

  /**
   * {@code cuEventRecordWithFlags}: as {@link #eventRecord}; flags are {@link
   * EventFlags#RECORD_EXTERNAL} or 0.
   *
   * @param event the event to record; replaces what it recorded before
   * @param stream the stream to record on; must belong to the event's context
   * @param flags 0, or {@link EventFlags#RECORD_EXTERNAL} to capture the record as an event-record
   *     node
   */
  void eventRecordWithFlags(CuEvent event, CuStream stream, int flags);

  /**
   * {@code cuEventQuery}: true when the recorded work is done, false for CUDA_ERROR_NOT_READY.
   *
   * @param event the event to ask about
   * @return whether the work the event last recorded has completed (true if it never recorded)
   */
  boolean eventQuery(CuEvent event);

  /**
   * {@code cuEventSynchronize}: waits until the recorded work is done.
   *
   * @param event the event whose most recently recorded work is waited for
   */
  void eventSynchronize(CuEvent event);

  /**
   * {@code cuEventElapsedTime_v2}: milliseconds between two completed, timed events.
   *
   * @param start the earlier event; recorded, completed, created without {@link
   *     EventFlags#DISABLE_TIMING}
   * @param end the later event; recorded, completed, created without {@link
   *     EventFlags#DISABLE_TIMING}
   * @return the time from {@code start} to {@code end}, in milliseconds (resolution about 0.5
   *     microseconds)
   */
  float eventElapsedTime(CuEvent start, CuEvent end);

  // ---- memory

  /**
   * {@code cuMemAlloc_v2}: device memory, at least 256-byte aligned.
   *
   * @param bytes the size to allocate, in bytes; positive
   * @return the device pointer ({@code CUdeviceptr}) of the new memory in the current context; the
   *     caller owns it until {@link #memFree}
   */
  long memAlloc(long bytes);

  /**
   * {@code cuMemFree_v2}: frees device memory at once, without waiting for queued work (0 is a
   * no-op).
   *
   * @param devicePointer the start of a live allocation, as {@link #memAlloc} returned it, or 0
   */
  void memFree(long devicePointer);

  /**
   * {@code cuMemAllocAsync}: stream-ordered allocation from the device's default pool.
   *
   * @param bytes the size to allocate, in bytes; positive
   * @param stream the stream the allocation is ordered on; while it captures, the allocation
   *     becomes a memory-allocation node
   * @return the device pointer, usable by work ordered after the allocation; the caller owns it
   *     until {@link #memFreeAsync}
   */
  long memAllocAsync(long bytes, CuStream stream);

  /**
   * {@code cuMemFreeAsync}: stream-ordered free.
   *
   * @param devicePointer the start of a live allocation; while {@code stream} captures, one that
   *     this capture allocated
   * @param stream the stream the free is ordered on; the memory is released after its earlier work
   */
  void memFreeAsync(long devicePointer, CuStream stream);

  /**
   * {@code cuMemAllocHost_v2}: page-locked host memory of exactly {@code bytes}, usable by
   * asynchronous copies.
   *
   * @param bytes the size to allocate, in bytes; positive
   * @return a native segment of {@code bytes} bytes; the caller owns it until {@link #memFreeHost},
   *     which invalidates it and every slice of it (an access afterwards fails with {@link
   *     IllegalStateException}, never touches freed memory)
   */
  MemorySegment memAllocHost(long bytes);

  /**
   * {@code cuMemFreeHost}: frees memory from {@link #memAllocHost} or {@link #memHostAlloc}; for
   * mapped memory the device pointers {@link #memHostGetDevicePointer} gave are invalid afterwards
   * too.
   *
   * @param hostMemory a segment {@link #memAllocHost} or {@link #memHostAlloc} returned; invalid
   *     afterwards
   */
  void memFreeHost(MemorySegment hostMemory);

  /**
   * {@code cuMemHostAlloc}: page-locked host memory of exactly {@code bytes}, allocated with {@code
   * flags}. With {@link HostAllocFlags#DEVICEMAP} the memory is also mapped into the device address
   * space: {@link #memHostGetDevicePointer} gives the address through which kernels, copies and
   * fills reach the same bytes while the host reads and writes the segment.
   *
   * @param bytes the size to allocate, in bytes; positive
   * @param flags {@link HostAllocFlags}, combined; any other bit fails with {@code
   *     CUDA_ERROR_INVALID_VALUE}
   * @return a native segment of {@code bytes} bytes; the caller owns it until {@link #memFreeHost},
   *     which invalidates it and every slice of it (an access afterwards fails with {@link
   *     IllegalStateException}, never touches freed memory)
   */
  MemorySegment memHostAlloc(long bytes, int flags);

  /**
   * {@code cuMemHostGetDevicePointer_v2}: the device address of mapped host memory, for the current
   * context. It allocates nothing and is valid until the memory is freed with {@link #memFreeHost};
   * fails with {@code CUDA_ERROR_INVALID_VALUE} for memory not allocated by {@link #memHostAlloc}
   * with {@link HostAllocFlags#DEVICEMAP}, or on a device that cannot map host memory.
   *
   * @param hostMemory a segment {@link #memHostAlloc} returned, or a slice of one: the result
   *     addresses the slice's first byte
   * @param flags must be 0
   * @return the device pointer of {@code hostMemory}'s first byte
   */
  long memHostGetDevicePointer(MemorySegment hostMemory, int flags);

  /**
   * {@code cuMemGetInfo_v2}: free and total memory of the current context's device.
   *
   * @return the device's free and total memory, in bytes
   */
  MemoryInfo memGetInfo();

  /**
   * {@code cuMemcpyHtoD_v2}: synchronous copy through the legacy stream.
   *
   * @param dst the device pointer to copy to
   * @param src native host memory to copy from, at least {@code bytes} long
   * @param bytes how many bytes to copy
   */
  void memcpyHtoD(long dst, MemorySegment src, long bytes);

  /**
   * {@code cuMemcpyDtoH_v2}: synchronous copy through the legacy stream.
   *
   * @param dst native host memory to copy to, at least {@code bytes} long
   * @param src the device pointer to copy from
   * @param bytes how many bytes to copy
   */
  void memcpyDtoH(MemorySegment dst, long src, long bytes);

  /**
   * {@code cuMemcpyHtoDAsync_v2}: reads {@code src} when the stream executes the copy.
   *
   * @param dst the device pointer to copy to
   * @param src native host memory to copy from, at least {@code bytes} long; must stay alive and
   *     unchanged until the stream has executed the copy
   * @param bytes how many bytes to copy
   * @param stream the stream to enqueue the copy on
   */
  void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream);

  /**
   * {@code cuMemcpyDtoHAsync_v2}: writes {@code dst} when the stream executes the copy.
   *
   * @param dst native host memory to copy to, at least {@code bytes} long; must stay alive until
   *     the stream has executed the copy
   * @param src the device pointer to copy from
   * @param bytes how many bytes to copy
   * @param stream the stream to enqueue the copy on
   */
  void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream);

  /**
   * {@code cuMemcpyDtoDAsync_v2}: copies between device memory in stream order.
   *
   * @param dst the device pointer to copy to
   * @param src the device pointer to copy from
   * @param bytes how many bytes to copy
   * @param stream the stream to enqueue the copy on
   */
  void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream);

  /**
   * {@code cuMemsetD8Async}: sets {@code count} bytes.
   *
   * @param dst the device pointer to the first byte to set
   * @param value the byte stored in each
   * @param count how many bytes to set
   * @param stream the stream to enqueue the fill on
   */
  void memsetD8Async(long dst, byte value, long count, CuStream stream);

  /**
   * {@code cuMemsetD16Async}: sets {@code count} 16-bit words; {@code dst} must be 2-byte aligned.
   *
   * @param dst the device pointer to the first word to set; 2-byte aligned
   * @param value the 16-bit word stored in each
   * @param count how many 16-bit words to set (not bytes)
   * @param stream the stream to enqueue the fill on
   */
  void memsetD16Async(long dst, short value, long count, CuStream stream);

  /**
   * {@code cuMemsetD32Async}: sets {@code count} 32-bit words; {@code dst} must be 4-byte aligned.
   *
   * @param dst the device pointer to the first word to set; 4-byte aligned
   * @param value the 32-bit word stored in each
   * @param count how many 32-bit words to set (not bytes)
   * @param stream the stream to enqueue the fill on
   */
  void memsetD32Async(long dst, int value, long count, CuStream stream);

  /**
   * {@code cuMemsetD2D32Async}: sets {@code width} 32-bit words in each of {@code height} rows that
   * start {@code pitch} bytes apart; {@code dst} and {@code pitch} must be 4-byte aligned.
   *
   * @param dst the device pointer to the first word of the first row; 4-byte aligned
   * @param pitch the distance between the starts of two rows, in bytes; 4-byte aligned
   * @param value the 32-bit word stored in each
   * @param width how many 32-bit words to set in each row (not bytes)
   * @param height how many rows to set
   * @param stream the stream to enqueue the fill on
   */
  void memsetD2D32Async(long dst, long pitch, int value, long width, long height, CuStream stream);

  // ---- modules and kernels

  /** {@return NVRTC, when this provider can compile CUDA C++ at run time; empty otherwise} */
  default Optional<RuntimeCompiler> runtimeCompiler() {
    return Optional.empty();
  }

  /**
   * {@code cuModuleLoadData}: loads an image into the current context.
   *
   * @param image the PTX, cubin or fatbin image to load (the simulator runs its Java kernels)
   * @return the new module; the caller owns it until {@link #moduleUnload}
   */
  CuModule moduleLoadData(ModuleImage image);

  /**
   * {@code cuModuleUnload}: unloads a module; its functions become invalid.
   *
   * @param module a module from {@link #moduleLoadData}; invalid afterwards
   */
  void moduleUnload(CuModule module);

  /**
   * {@code cuModuleGetFunction}: CUDA_ERROR_NOT_FOUND when the module has no such kernel.
   *
   * @param module the loaded module to look in
   * @param name the kernel's symbol name, as the image declares it
   * @return the kernel, borrowed: valid until {@code module} is unloaded, never destroyed itself
   */
  CuFunction moduleGetFunction(CuModule module, String name);

  /**
   * {@code cuFuncGetParamInfo} (CUDA 12.4): the offset and size of parameter {@code index} of a
   * kernel, as its image declares it. For an index past the last parameter the driver returns
   * {@code CUDA_ERROR_INVALID_VALUE}, which here is an answer, not a failure: the result is empty
   * (as it is for a negative index), so a caller counts a kernel's parameters by asking from 0
   * until the answer is empty.
   *
   * <p>A driver that cannot tell fails with {@code CUDA_ERROR_NOT_SUPPORTED}: a CUDA driver older
   * than 12.4, which lacks the entry point, or a provider that cannot read the parameters from the
   * image the kernel was loaded from (the simulator and a cubin, say). Callers that use the answer
   * for a check skip the check then.
   *
   * @param function a kernel of a loaded module
   * @param index the parameter's position, from 0
   * @return the parameter's offset and size, or empty when the kernel has no parameter {@code
   *     index}
   * @throws CudaDriverException {@code CUDA_ERROR_NOT_SUPPORTED} where the driver cannot tell
   */
  Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index);

  /**
   * {@code cuFuncGetAttribute}: one attribute of a kernel (see {@link FunctionAttribute}), such as
   * its static shared memory ({@link FunctionAttribute#SHARED_SIZE_BYTES}) or the dynamic shared
   * memory its launches may ask for ({@link FunctionAttribute#MAX_DYNAMIC_SHARED_SIZE_BYTES});
   * {@code CUDA_ERROR_INVALID_VALUE} for an attribute the driver does not know.
   *
   * @param function a kernel of a loaded module
   * @param attribute which attribute, a {@link FunctionAttribute} value
   * @return its value
   * @since 0.2.0
   */
  int funcGetAttribute(CuFunction function, int attribute);

  /**
   * {@code cuFuncSetAttribute}: sets one attribute of a kernel for every later launch of it in its
   * context (see {@link FunctionAttribute}); {@code CUDA_ERROR_INVALID_VALUE} for a value the
   * device cannot give, such as more dynamic shared memory than it has beside the kernel's static
   * shared memory.
   *
   * @param function a kernel of a loaded module
   * @param attribute which attribute, a {@link FunctionAttribute} value
   * @param value its new value
   */
  void funcSetAttribute(CuFunction function, int attribute, int value);

  /**
   * {@code cuLaunchKernel} with {@code kernelParams = arguments.pointerArray()} and no {@code
   * extra}: the driver copies the argument values during the call.
   *
   * @param function the kernel to launch, from {@link #moduleGetFunction}
   * @param gridX the grid's width, in blocks; positive
   * @param gridY the grid's height, in blocks; positive
   * @param gridZ the grid's depth, in blocks; positive
   * @param blockX the block's width, in threads; positive
   * @param blockY the block's height, in threads; positive
   * @param blockZ the block's depth, in threads; positive
   * @param sharedMemBytes the dynamic shared memory per block, in bytes
   * @param stream the stream to enqueue the launch on
   * @param arguments the kernel's parameter values, in parameter order; may be changed once the
   *     call returns
   */
  void launchKernel(
      CuFunction function,
      int gridX,
      int gridY,
      int gridZ,
      int blockX,
      int blockY,
      int blockZ,
      int sharedMemBytes,
      CuStream stream,
      KernelArguments arguments);

  /**
   * {@code cuLaunchKernelEx} with one launch attribute, {@code
   * CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION}: a programmatic dependent launch. The
   * kernel may begin once every block of the kernel before it on the stream has called {@code
   * cudaTriggerProgrammaticLaunchCompletion} (or exited), before that kernel has finished; it must
   * call {@code cudaGridDependencySynchronize} before it reads what that kernel writes, which waits
   * for that kernel to complete and its memory to be visible. Captured, the dependency becomes a
   * programmatic edge of the graph. Needs compute capability 9.0.
   *
   * @param function the kernel to launch, from {@link #moduleGetFunction}
   * @param gridX the grid's width, in blocks; positive
   * @param gridY the grid's height, in blocks; positive
   * @param gridZ the grid's depth, in blocks; positive
   * @param blockX the block's width, in threads; positive
   * @param blockY the block's height, in threads; positive
   * @param blockZ the block's depth, in threads; positive
   * @param sharedMemBytes the dynamic shared memory per block, in bytes
   * @param stream the stream to enqueue the launch on
   * @param arguments the kernel's parameter values, in parameter order; may be changed once the
   *     call returns
   */
  void launchKernelProgrammatic(
      CuFunction function,
      int gridX,
      int gridY,
      int gridZ,
      int blockX,
      int blockY,
      int blockZ,
      int sharedMemBytes,
      CuStream stream,
      KernelArguments arguments);

  // ---- graphs

  /**
   * {@code cuGraphCreate}: an empty graph; flags must be 0.
   *
   * @param flags {@code cuGraphCreate}'s flags; must be 0
   * @return a new graph with no nodes; the caller owns it until {@link #graphDestroy}
   */
  CuGraph graphCreate(int flags);

  /**
   * {@code cuGraphDestroy}: execs instantiated from the graph stay valid.
   *
   * @param graph a graph from {@link #graphCreate} or {@link #streamEndCapture}; invalid afterwards
   */
  void graphDestroy(CuGraph graph);

  /**
   * {@code cuGraphInstantiateWithFlags}: flags are {@link GraphInstantiateFlags}.
   *
   * @param graph the graph to instantiate; later changes to it do not reach the exec
   * @param flags an OR of {@link GraphInstantiateFlags}, or 0
   * @return the new executable graph; the caller owns it until {@link #graphExecDestroy}
   */
  CuGraphExec graphInstantiate(CuGraph graph, long flags);

  /**
   * {@code cuGraphUpload}: pre-stages the exec on the stream, in stream order.
   *
   * @param exec the executable graph to upload
   * @param stream the stream the upload is ordered on
   */
  void graphUpload(CuGraphExec exec, CuStream stream);

  /**
   * {@code cuGraphLaunch}: ordered after earlier work on the stream and earlier launches of the
   * exec.
   *
   * @param exec the executable graph to launch
   * @param stream the stream to enqueue the launch on
   */
  void graphLaunch(CuGraphExec exec, CuStream stream);

  /**
   * {@code cuGraphExecDestroy}: returns at once; a running launch completes first.
   *
   * @param exec an exec from {@link #graphInstantiate}; invalid afterwards
   */
  void graphExecDestroy(CuGraphExec exec);

  /**
   * {@code cuGraphExecUpdate_v2}: gives the exec the parameters of a topologically identical graph,
   * for launches issued afterwards.
   *
   * @param exec the executable graph to update
   * @param graph the graph whose node parameters the exec takes; still owned by the caller
   * @throws GraphExecUpdateException when the graphs differ in a way an update cannot express
   */
  void graphExecUpdate(CuGraphExec exec, CuGraph graph);

  /**
   * {@code cuGraphGetNodes}: the graph's nodes, in creation order.
   *
   * @param graph the graph to list
   * @return the graph's nodes, in creation order; borrowed, valid as long as the graph
   */
  List<CuGraphNode> graphGetNodes(CuGraph graph);

  /**
   * {@code cuGraphNodeGetType}: what kind of work a node does.
   *
   * @param node a node of a live graph
   * @return the node's {@code CUgraphNodeType}
   */
  GraphNodeType graphNodeGetType(CuGraphNode node);

  /**
   * {@code cuGraphDebugDotPrint}: writes the graph in Graphviz DOT to {@code path}.
   *
   * @param graph the graph to describe
   * @param path the file to create or overwrite; its directory must exist
   * @param flags an OR of {@code CU_GRAPH_DEBUG_DOT_FLAGS_*} for more detail, or 0
   */
  void graphDebugDotPrint(CuGraph graph, Path path, int flags);

  // ---- per-node updates of an exec (each affects launches issued afterwards only)

  /**
   * {@code cuGraphExecKernelNodeSetParams_v2}: gives a kernel node of an exec a new function, shape
   * and arguments, for launches issued afterwards.
   *
   * @param exec the executable graph to change
   * @param node the kernel node of the graph {@code exec} was instantiated from
   * @param function the kernel to run; of the node's context
   * @param grid the grid shape, in blocks
   * @param block the block shape, in threads
   * @param sharedMemBytes the dynamic shared memory per block, in bytes
   * @param arguments the parameter values, copied by the call
   */
  void graphExecKernelNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CuFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments);

  /**
   * {@code cuGraphExecMemcpyNodeSetParams}: gives a 1D copy node of an exec new endpoints and size,
   * for launches issued afterwards. The endpoints keep their memory kinds and contexts: measured on
   * an H100 (driver 580), moving either endpoint between memory of another kind fails with {@code
   * CUDA_ERROR_INVALID_VALUE} ("the memory operands' mappings changed"), where the kinds are a
   * graph's allocation (an allocation node's), mapped host memory, {@code cuMemAlloc}'s memory and
   * the stream-ordered pool's; any address of the same kind goes.
   *
   * @param exec the executable graph to change
   * @param node the copy node of the graph {@code exec} was instantiated from
   * @param destination where the bytes go
   * @param source where the bytes come from
   * @param bytes the number of bytes copied; positive
   */
  void graphExecMemcpyNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes);

  /**
   * {@code cuGraphExecMemsetNodeSetParams}: gives a 1D fill node of an exec a new destination,
   * value and width, for launches issued afterwards. Unlike a copy node's, the destination may move
   * from a graph's allocation to other device memory (measured on an H100, driver 580).
   *
   * @param exec the executable graph to change
   * @param node the fill node of the graph {@code exec} was instantiated from
   * @param destination the device address of the first element
   * @param elementSize 1, 2 or 4 bytes, as when the node was created
   * @param value the element value, in its low {@code elementSize} bytes
   * @param count the number of elements filled; positive
   */
  void graphExecMemsetNodeSetParams(
      CuGraphExec exec, CuGraphNode node, long destination, int elementSize, int value, long count);

  /**
   * {@code cuGraphNodeSetEnabled}: enables or disables a kernel, copy or fill node of an exec; a
   * disabled kernel or copy node does nothing but still orders its dependents. A disabled fill
   * (memset) node does not always: measured on an H100 (driver 580), with a copy or a memset node
   * before it and a kernel or copy node after it, the node after ran before the node before it had
   * finished in 10 to 19 of 20 launches (a kernel before it, or a memset after it, stayed ordered;
   * with the memset enabled, 0 of 20); a fuzz of 10,000 random changes found 21 wrong replays, each
   * with a memset node disabled. The library therefore never disables a fill node with this call;
   * it points the node at scratch memory instead.
   *
   * @param exec the executable graph to change
   * @param node a kernel, copy or fill node of the graph {@code exec} was instantiated from
   * @param enabled whether later launches run the node's work
   */
  void graphNodeSetEnabled(CuGraphExec exec, CuGraphNode node, boolean enabled);

  /**
   * {@code cuGraphNodeGetEnabled}: whether a kernel, copy or fill node of an exec is enabled.
   *
   * @param exec the executable graph to ask about
   * @param node a kernel, copy or fill node of the graph {@code exec} was instantiated from
   * @return whether launches run the node's work
   */
  boolean graphNodeGetEnabled(CuGraphExec exec, CuGraphNode node);

  // ---- child-graph nodes

  /**
   * {@code cuGraphAddChildGraphNode}: adds a node that runs a clone of {@code child}, in the
   * current context. The clone is made during the call: later changes to {@code child} do not
   * affect the node, and the caller still owns (and destroys) {@code child}. The driver refuses a
   * child that holds allocation, free or conditional nodes.
   *
   * @param graph the graph to add the node to, e.g. a capture's graph from {@link
   *     #streamGetCaptureInfo}
   * @param dependencies nodes of {@code graph} the new node depends on; may be empty
   * @param child the graph whose clone the node runs; not {@code graph}
   * @return the new node, owned by {@code graph}
   */
  CuGraphNode graphAddChildGraphNode(CuGraph graph, List<CuGraphNode> dependencies, CuGraph child);

  /**
   * {@code cuGraphExecChildGraphNodeSetParams}: gives a child-graph node of an exec the parameters
   * of {@code child}'s nodes, for launches issued afterwards. {@code child} must have the topology
   * of the node's graph (the same nodes, of the same types, created in the same order, with the
   * same edges) and each node may change only what {@link #graphExecUpdate} could change; the
   * driver refuses anything else with {@code CUDA_ERROR_INVALID_VALUE} and the exec is unchanged.
   *
   * @param exec the executable graph to change
   * @param node the child-graph node of the graph {@code exec} was instantiated from
   * @param child the graph whose nodes' parameters the node's graph takes; still owned by the
   *     caller
   */
  void graphExecChildGraphNodeSetParams(CuGraphExec exec, CuGraphNode node, CuGraph child);

  // ---- conditional nodes (CUDA 12.3; two-body IF and SWITCH: 12.8)

  /**
   * {@code cuGraphConditionalHandleCreate}: a condition for a conditional node of {@code graph}, in
   * the current context.
   *
   * @param graph the graph that will hold the conditional node using the handle
   * @param defaultLaunchValue the value the condition starts each launch with when {@code flags}
   *     has {@link ConditionalHandle#ASSIGN_DEFAULT}
   * @param flags {@link ConditionalHandle#ASSIGN_DEFAULT}, or 0 to keep the value across launches
   * @return the handle, valid as long as {@code graph}
   */
  ConditionalHandle graphConditionalHandleCreate(CuGraph graph, int defaultLaunchValue, int flags);

  /**
   * {@code cuGraphAddNode_v2} with {@code CU_GRAPH_NODE_TYPE_CONDITIONAL}: adds a conditional node
   * with {@code size} empty body graphs, in the current context.
   *
   * @param graph the graph to add the node to; the graph {@code handle} was created for
   * @param dependencies nodes of {@code graph} the new node depends on; may be empty
   * @param handle the node's condition
   * @param type how the node runs its bodies
   * @param size the number of bodies: 1 for WHILE, 1 or 2 for IF, at least 1 for SWITCH
   * @return the node and its bodies, owned by {@code graph}
   */
  ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size);

  /**
   * Releases what the provider itself holds (threads, libraries). Driver objects the caller still
   * owns are not destroyed. Idempotent.
   */
  @Override
  void close();
}
