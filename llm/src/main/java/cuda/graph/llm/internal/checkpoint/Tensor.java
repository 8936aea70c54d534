// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.checkpoint;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * One tensor of a checkpoint: its dtype, shape and bytes, a read-only slice of the mapped
 * safetensors file (valid until the {@link Checkpoint} closes), row-major and little-endian.
 *
 * @param name its name in the checkpoint, e.g. {@code model.norm.weight}
 * @param dtype its element type
 * @param shape its dimensions, outermost first
 * @param data its bytes, {@code elementCount() * dtype.bytes()} long
 * @param file the safetensors file it lies in
 */
public record Tensor(String name, DType dtype, List<Long> shape, MemorySegment data, String file) {

  private static final ValueLayout.OfShort SHORT =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfFloat FLOAT =
      ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  public Tensor {
    shape = List.copyOf(shape);
  }

  /** {@return the number of elements, the product of the shape} */
  public long elementCount() {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }

  /**
   * {@return the elements as floats, converted exactly from bf16 and f16}
   *
   * @throws IllegalStateException when the tensor has more elements than a Java array holds
   */
  public float[] toFloats() {
    long n = elementCount();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "Tensor.toFloats(): "
              + name
              + " has "
              + n
              + " elements, more than a float[] holds; read its data() instead");
    }
    float[] out = new float[(int) n];
    switch (dtype) {
      case F32 -> {
        for (int i = 0; i < out.length; i++) {
          out[i] = data.getAtIndex(FLOAT, i);
        }
      }
      case BF16 -> {
        for (int i = 0; i < out.length; i++) {
          out[i] = Float.intBitsToFloat((data.getAtIndex(SHORT, i) & 0xffff) << 16);
        }
      }
      case F16 -> {
        for (int i = 0; i < out.length; i++) {
          out[i] = Float.float16ToFloat(data.getAtIndex(SHORT, i));
        }
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return name + " " + dtype + Arrays.toString(shape.toArray()) + " in " + file;
  }
}
