// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.internal.runtime.MappedHostBufferImpl;
import org.apiguardian.api.API;

/**
 * Page-locked host memory mapped into the device's address space: kernels read and write it through
 * {@link #deviceView()} while they run, and Java reads and writes the same bytes at the same time,
 * without a copy. Made by {@link Device#allocateMapped}. Every access a kernel makes crosses the
 * bus to host memory, so use it for what the host must see while work runs (progress counters,
 * flags, results published one at a time, a host acknowledging them), not for data kernels read
 * often: that belongs in a {@link DeviceBuffer}.
 *
 * <p><b>Reading what a running kernel publishes.</b> The protocol has an order on both sides. In
 * the kernel, write the data, then call {@code __threadfence_system()}, then store the flag or
 * counter that announces it (a {@code volatile} store, or an atomic one):
 *
 * <pre>{@code
 * values[i] = result;                                    // the data
 * __threadfence_system();                                // ordered before the flag for the host
 * *(volatile int *)&control[0] = i + 1;                  // the counter that publishes it
 * while (*(volatile int *)&control[1] < i + 1) { }       // optional: wait for the host's answer
 * }</pre>
 *
 * <p>In Java, read the counter with {@link #getIntAcquire} (or {@link #getLongAcquire}) and read
 * the data after it: once an acquire read has returned a value the kernel stored after its system
 * fence, every write the kernel made before that fence is visible to this thread's later reads of
 * the buffer (and of any other mapped buffer). A plain read ({@link #get}, {@link #segment()}) of
 * the counter gives no such guarantee: the JIT may hoist or reorder it. To answer the kernel, store
 * with {@link #setIntRelease} (or {@link #setLongRelease}) after the data the kernel is to read;
 * the kernel reads the word with a {@code volatile} (or acquire) load, which it must re-read in its
 * wait loop. Nothing orders a kernel's writes without its fence: without {@code
 * __threadfence_system()}, the host may see the counter before the data.
 *
 * <p>A kernel waiting for the host holds its stream, and a graph replaying it; bound the wait in
 * the kernel ({@code %globaltimer}) and give up with a flag the host can read, as a wait without a
 * bound hangs the device if the host never answers. On the simulator such a handshake needs
 * asynchronous streams (its default): a deterministic simulator runs kernels on the calling thread,
 * which then cannot answer.
 *
 * <p><b>Lifetime.</b> The buffer owns the memory; {@link #deviceView()} is a view of it that owns
 * nothing. Ops and graphs that use the view lease the buffer's memory as they lease any buffer's,
 * so {@link #close()} frees it ({@code cuMemFreeHost}) only once every queued kernel, copy and
 * captured graph that uses the view or the buffer is done, never under a running kernel. After
 * {@code close()} the host accessors, {@link #segment()} and {@link #deviceView()} fail with {@link
 * IllegalStateException}, and so do building a copy, fill or read on the view or a slice of it and
 * executing a kernel launch that names it (before the launch reaches the driver); the view's {@link
 * DeviceBuffer#isClosed()} is true. The view keeps the buffer reachable, so the cleaner does not
 * free memory a view is still used for; closing the view does nothing. A buffer still open when its
 * platform closes is freed by the platform's close, after all work has stopped; its accessors and
 * {@link #segment()} fail from then on, rather than touch memory the driver reclaims with the
 * device's context.
 *
 * <p><b>Threads.</b> The acquire and release accessors are atomic on their element and may be used
 * from any number of threads while kernels run; the other accessors ({@link #get}, {@link #set},
 * {@code write}, {@code to*Array}) are plain, unordered accesses, for data whose publication the
 * acquire and release accessors order. {@code close()} is idempotent and safe from any thread; an
 * access racing with it either completes or fails with {@link IllegalStateException}.
 *
 * @param <T> the Java type of one element
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface MappedHostBuffer<T> extends HostBuffer<T> permits MappedHostBufferImpl {

  /**
   * {@return the device's view of this memory}: a {@link DeviceBuffer} of the same element type and
   * length on {@link #device()}, usable as a kernel argument, in copies and fills, eagerly and in
   * captured graphs, on streams of that device. It is the same object on every call.
   *
   * <p>The view owns nothing: {@link DeviceBuffer#close()} does nothing and {@link
   * DeviceBuffer#free()} is refused. It lives as long as this buffer: once this buffer is closed,
   * ops are refused on the view and its slices, and the memory is freed after the last op or graph
   * that leased it.
   *
   * @throws IllegalStateException if this buffer is closed
   */
  DeviceBuffer<T> deviceView();

  /**
   * {@return element {@code index}, read with acquire semantics}: no later read or write of this
   * thread is ordered before it, so a value a kernel stored after {@code __threadfence_system()}
   * makes visible to this thread's later reads everything the kernel wrote before that fence.
   *
   * @param index the element's index, from 0 to {@code length() - 1}
   * @throws IllegalArgumentException if the buffer does not hold {@link ElementType#I32}
   * @throws IndexOutOfBoundsException if {@code index} is outside the buffer
   * @throws IllegalStateException if the buffer is closed
   */
  int getIntAcquire(long index);

  /**
   * {@return element {@code index}, read with acquire semantics}, as {@link #getIntAcquire} reads.
   *
   * @param index the element's index, from 0 to {@code length() - 1}
   * @throws IllegalArgumentException if the buffer does not hold {@link ElementType#I64}
   * @throws IndexOutOfBoundsException if {@code index} is outside the buffer
   * @throws IllegalStateException if the buffer is closed
   */
  long getLongAcquire(long index);

  /**
   * Stores {@code value} in element {@code index} with release semantics: every read and write this
   * thread made before it is ordered before it, so a kernel that sees the value with a {@code
   * volatile} or acquire load also sees what this thread wrote into mapped memory before.
   *
   * @param index the element's index, from 0 to {@code length() - 1}
   * @param value the value to store
   * @throws IllegalArgumentException if the buffer does not hold {@link ElementType#I32}
   * @throws IndexOutOfBoundsException if {@code index} is outside the buffer
   * @throws IllegalStateException if the buffer is closed
   */
  void setIntRelease(long index, int value);

  /**
   * Stores {@code value} in element {@code index} with release semantics, as {@link #setIntRelease}
   * stores.
   *
   * @param index the element's index, from 0 to {@code length() - 1}
   * @param value the value to store
   * @throws IllegalArgumentException if the buffer does not hold {@link ElementType#I64}
   * @throws IndexOutOfBoundsException if {@code index} is outside the buffer
   * @throws IllegalStateException if the buffer is closed
   */
  void setLongRelease(long index, long value);

  /**
   * Frees the memory ({@code cuMemFreeHost}) once no queued op or captured graph uses it or its
   * {@link #deviceView()}. Idempotent.
   */
  @Override
  void close();
}
