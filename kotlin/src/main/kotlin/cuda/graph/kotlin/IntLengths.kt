// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.kotlin

import cuda.graph.Device
import cuda.graph.DeviceBuffer
import cuda.graph.ElementType
import cuda.graph.HostBuffer
import cuda.graph.MappedHostBuffer

// The Java API takes lengths, offsets and indices as `long`. Kotlin widens an integer literal to
// Long but not an Int variable, so `buffer.slice(0, rows)` with `rows: Int` would not compile:
// these
// overloads take Int and call the Java method with the same value. A member always wins over an
// extension when both apply, so calls with Long arguments still go straight to the Java method.

/** [DeviceBuffer.slice] with `Int` offset and length. */
fun <T : Any> DeviceBuffer<T>.slice(offset: Int, length: Int): DeviceBuffer<T> =
  slice(offset.toLong(), length.toLong())

/** [Device.allocateHost] with an `Int` length. */
fun <T : Any> Device.allocateHost(type: ElementType<T>, length: Int): HostBuffer<T> =
  allocateHost(type, length.toLong())

/** [Device.allocateMapped] with an `Int` length. */
fun <T : Any> Device.allocateMapped(type: ElementType<T>, length: Int): MappedHostBuffer<T> =
  allocateMapped(type, length.toLong())

/** [HostBuffer.get] with an `Int` index: `host[i]`. */
operator fun <T : Any> HostBuffer<T>.get(index: Int): T = get(index.toLong())

/** [HostBuffer.set] with an `Int` index: `host[i] = value`. */
operator fun <T : Any> HostBuffer<T>.set(index: Int, value: T) = set(index.toLong(), value)

/** [MappedHostBuffer.getIntAcquire] with an `Int` index. */
fun MappedHostBuffer<*>.getIntAcquire(index: Int): Int = getIntAcquire(index.toLong())

/** [MappedHostBuffer.getLongAcquire] with an `Int` index. */
fun MappedHostBuffer<*>.getLongAcquire(index: Int): Long = getLongAcquire(index.toLong())

/** [MappedHostBuffer.setIntRelease] with an `Int` index. */
fun MappedHostBuffer<*>.setIntRelease(index: Int, value: Int) = setIntRelease(index.toLong(), value)

/** [MappedHostBuffer.setLongRelease] with an `Int` index. */
fun MappedHostBuffer<*>.setLongRelease(index: Int, value: Long) =
  setLongRelease(index.toLong(), value)
