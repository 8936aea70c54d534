// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.lang.foreign.ValueLayout;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The element type of a buffer: its size and the Java type that carries one element.
 *
 * <p>{@code T} is the boxed Java type of an element; it types buffers at compile time ({@code
 * DeviceBuffer<Float>} holds {@link #F32}). The half-precision types {@link #F16} and {@link #BF16}
 * are carried as their raw 16 bits in a {@code short}. Instances are constants; compare them with
 * {@code ==}.
 *
 * @param <T> the Java type of one element
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class ElementType<T> {

  /** 32-bit IEEE float. */
  public static final ElementType<Float> F32 =
      new ElementType<>("f32", 4, Float.class, ValueLayout.JAVA_FLOAT_UNALIGNED);

  /** 64-bit IEEE float. */
  public static final ElementType<Double> F64 =
      new ElementType<>("f64", 8, Double.class, ValueLayout.JAVA_DOUBLE_UNALIGNED);

  /** 8-bit integer (also raw bytes). */
  public static final ElementType<Byte> I8 =
      new ElementType<>("i8", 1, Byte.class, ValueLayout.JAVA_BYTE);

  /** 16-bit integer. */
  public static final ElementType<Short> I16 =
      new ElementType<>("i16", 2, Short.class, ValueLayout.JAVA_SHORT_UNALIGNED);

  /** 32-bit integer. */
  public static final ElementType<Integer> I32 =
      new ElementType<>("i32", 4, Integer.class, ValueLayout.JAVA_INT_UNALIGNED);

  /** 64-bit integer. */
  public static final ElementType<Long> I64 =
      new ElementType<>("i64", 8, Long.class, ValueLayout.JAVA_LONG_UNALIGNED);

  /** IEEE half precision, as raw bits. */
  public static final ElementType<Short> F16 =
      new ElementType<>("f16", 2, Short.class, ValueLayout.JAVA_SHORT_UNALIGNED);

  /** bfloat16, as raw bits. */
  public static final ElementType<Short> BF16 =
      new ElementType<>("bf16", 2, Short.class, ValueLayout.JAVA_SHORT_UNALIGNED);

  private static final List<ElementType<?>> ALL = List.of(F32, F64, I8, I16, I32, I64, F16, BF16);

  private final String name;
  private final int byteSize;
  private final Class<T> javaType;
  private final ValueLayout layout;

  private ElementType(String name, int byteSize, Class<T> javaType, ValueLayout layout) {
    this.name = name;
    this.byteSize = byteSize;
    this.javaType = javaType;
    this.layout = layout;
  }

  /** {@return every element type} */
  public static List<ElementType<?>> values() {
    return ALL;
  }

  /** {@return the short name, e.g. {@code f32}} */
  public String name() {
    return name;
  }

  /** {@return the size of one element in bytes} */
  public int byteSize() {
    return byteSize;
  }

  /** {@return the boxed Java type of one element} */
  public Class<T> javaType() {
    return javaType;
  }

  /** {@return the unaligned memory layout of one element} */
  public ValueLayout layout() {
    return layout;
  }

  @Override
  public String toString() {
    return name;
  }
}
