// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * A small two-layer perceptron for the example contracts: {@code y = W2 relu(W1 x + b1) + b2}, with
 * seeded random weights on the device, its Java model, and an eager forward pass over buffers of
 * its own.
 */
final class TwoLayerModel implements AutoCloseable {

  static final int IN = 24;
  static final int HIDDEN = 40;
  static final int OUT = 10;

  private final float[] w1;
  private final float[] b1;
  private final float[] w2;
  private final float[] b2;
  private final DeviceBuffer<Float> deviceW1;
  private final DeviceBuffer<Float> deviceB1;
  private final DeviceBuffer<Float> deviceW2;
  private final DeviceBuffer<Float> deviceB2;
  private final DeviceBuffer<Float> eagerX;
  private final DeviceBuffer<Float> eagerH;
  private final DeviceBuffer<Float> eagerY;

  TwoLayerModel(Stream stream, long seed) {
    Random random = new Random(seed);
    w1 = randoms(random, IN * HIDDEN);
    b1 = randoms(random, HIDDEN);
    w2 = randoms(random, HIDDEN * OUT);
    b2 = randoms(random, OUT);
    deviceW1 = DeviceBuffer.fromArray(w1).syncOn(stream);
    deviceB1 = DeviceBuffer.fromArray(b1).syncOn(stream);
    deviceW2 = DeviceBuffer.fromArray(w2).syncOn(stream);
    deviceB2 = DeviceBuffer.fromArray(b2).syncOn(stream);
    eagerX = DeviceBuffer.zeros(ElementType.F32, IN).syncOn(stream);
    eagerH = DeviceBuffer.zeros(ElementType.F32, HIDDEN).syncOn(stream);
    eagerY = DeviceBuffer.zeros(ElementType.F32, OUT).syncOn(stream);
  }

  /** {@return {@code count} values in [-1, 1)} */
  static float[] randoms(Random random, int count) {
    float[] values = new float[count];
    for (int i = 0; i < count; i++) {
      values[i] = random.nextFloat() * 2 - 1;
    }
    return values;
  }

  /** {@return the first layer, {@code h = relu(W1 x + b1)}, as a graph node} */
  GraphNode<@Nullable Void> layer1(DeviceBuffer<Float> x, DeviceBuffer<Float> h) {
    return ConformanceKernels.dense(deviceW1, deviceB1, x, h, true);
  }

  /** {@return the second layer, {@code y = W2 h + b2}, as a graph node} */
  GraphNode<@Nullable Void> layer2(DeviceBuffer<Float> h, DeviceBuffer<Float> y) {
    return ConformanceKernels.dense(deviceW2, deviceB2, h, y, false);
  }

  /** {@return the forward pass run eagerly on the device, over this model's own buffers} */
  float[] eager(Stream stream, float[] x) {
    return eagerX
        .write(x)
        .andThen(layer1(eagerX, eagerH))
        .andThen(layer2(eagerH, eagerY))
        .andThen(eagerY.toFloatArray())
        .syncOn(stream);
  }

  /** {@return the first layer computed by the Java model} */
  float[] hidden(float[] x) {
    return ConformanceKernels.dense(w1, b1, x, true);
  }

  /** {@return the forward pass computed by the Java model} */
  float[] reference(float[] x) {
    return ConformanceKernels.dense(w2, b2, hidden(x), false);
  }

  @Override
  public void close() {
    List.of(deviceW1, deviceB1, deviceW2, deviceB2, eagerX, eagerH, eagerY)
        .forEach(DeviceBuffer::close);
  }
}
