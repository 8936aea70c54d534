// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.exec;

import cuda.graph.DeviceBuffer;
import cuda.graph.internal.ops.AllocateOp;
import cuda.graph.internal.ops.ArrayReadOp;
import cuda.graph.internal.ops.ArrayWriteOp;
import cuda.graph.internal.ops.CopyOp;
import cuda.graph.internal.runtime.CompletionService.HostTail;
import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.internal.runtime.HostBufferImpl;
import java.lang.foreign.MemorySegment;

/** How the memory ops execute: allocation, copies, fills and staged array transfers. */
public final class MemoryOps {

  private MemoryOps() {}

  public static <T> DeviceBuffer<T> allocate(AllocateOp<T> op, Execution ex) {
    ex.requireNotCapturing("allocating a buffer");
    long bytes = op.length * op.type.byteSize();
    long address = ex.driver.memAllocAsync(bytes, ex.cuStream);
    DeviceBufferImpl<T> buffer =
        DeviceBufferImpl.allocated(ex.device, op.type, op.length, address, op.exclusive);
    // The platform frees what is still allocated when it closes (or the process exits).
    ex.platform.ownMemory(ex.device, address, buffer.lifetime());
    try {
      ex.use(buffer);
      switch (op.init) {
        case NONE -> {}
        case FILL -> fill(ex, address, op.type.byteSize(), op.length, op.fillBits);
        case COPY_HOST -> stageIn(ex, address, op.hostData);
        case COPY_DEVICE ->
            ex.driver.memcpyDtoDAsync(address, ex.use(op.deviceData), bytes, ex.cuStream);
      }
      return buffer;
    } catch (RuntimeException | Error e) {
      buffer.close();
      throw e;
    }
  }

  public static void copy(CopyOp c, Execution ex) {
    switch (c.kind) {
      case HOST_TO_DEVICE -> {
        long target = ex.use(c.deviceTarget);
        ex.use(c.hostSource);
        ex.driver.memcpyHtoDAsync(
            target, HostBufferImpl.of(c.hostSource).memory(), c.bytes, ex.cuStream);
      }
      case DEVICE_TO_HOST -> {
        long source = ex.use(c.deviceSource);
        ex.use(c.hostTarget);
        ex.driver.memcpyDtoHAsync(
            HostBufferImpl.of(c.hostTarget).memory(), source, c.bytes, ex.cuStream);
      }
      case DEVICE_TO_DEVICE -> {
        long source = ex.use(c.deviceSource);
        long target = ex.use(c.deviceTarget);
        ex.driver.memcpyDtoDAsync(target, source, c.bytes, ex.cuStream);
      }
    }
  }

  /**
   * Sets {@code count} elements of {@code size} bytes at {@code address} to the pattern {@code
   * bits}.
   */
  public static void fill(Execution ex, long address, int size, long count, long bits) {
    switch (size) {
      case 1 -> ex.driver.memsetD8Async(address, (byte) bits, count, ex.cuStream);
      case 2 -> ex.driver.memsetD16Async(address, (short) bits, count, ex.cuStream);
      case 4 -> ex.driver.memsetD32Async(address, (int) bits, count, ex.cuStream);
      default -> {
        int low = (int) bits;
        int high = (int) (bits >>> 32);
        if (low == high) {
          ex.driver.memsetD32Async(address, low, count * 2, ex.cuStream);
        } else {
          // No 64-bit memset exists: write the two halves as strided 32-bit columns.
          ex.driver.memsetD2D32Async(address, 8, low, 1, count, ex.cuStream);
          ex.driver.memsetD2D32Async(address + 4, 8, high, 1, count, ex.cuStream);
        }
      }
    }
  }

  public static void write(ArrayWriteOp w, Execution ex) {
    ex.requireNotCapturing("copying a Java array or segment into " + w.target);
    stageIn(ex, ex.use(w.target), w.data);
  }

  public static <A> A read(ArrayReadOp<A> r, Execution ex) {
    ex.requireNotCapturing("reading " + r.source + " into a Java array");
    long source = ex.use(r.source);
    long bytes = r.source.byteSize();
    MemorySegment staging = ex.device.staging().lease(bytes, ex);
    ex.driver.memcpyDtoHAsync(staging, source, bytes, ex.cuStream);
    // The array must hold the data before anything composed after this op runs on the host.
    ex.driver.streamSynchronize(ex.cuStream);
    return r.convert.apply(staging);
  }

  /**
   * Enqueues the copy of {@code r}'s buffer into pinned staging, without waiting: {@return the
   * conversion to run once the copy is seen complete}, while the execution still leases the staging
   */
  public static HostTail readLater(ArrayReadOp<?> r, Execution ex) {
    ex.requireNotCapturing("reading " + r.source + " into a Java array");
    long source = ex.use(r.source);
    long bytes = r.source.byteSize();
    MemorySegment staging = ex.device.staging().lease(bytes, ex);
    ex.driver.memcpyDtoHAsync(staging, source, bytes, ex.cuStream);
    return HostTail.read(staging, r.convert);
  }

  private static void stageIn(Execution ex, long target, MemorySegment data) {
    long bytes = data.byteSize();
    MemorySegment staging = ex.device.staging().lease(bytes, ex);
    MemorySegment.copy(data, 0, staging, 0, bytes);
    ex.driver.memcpyHtoDAsync(target, staging, bytes, ex.cuStream);
  }
}
