// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Sets every element of a buffer to one value; a graph memset node. */
public final class FillOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public final DeviceBuffer<?> buffer;
  public final long bits;

  public FillOp(DeviceBuffer<?> buffer, long bits) {
    this.buffer = buffer;
    this.bits = bits;
  }

  /**
   * {@return the bit pattern of one element holding {@code value}}
   *
   * @throws IllegalArgumentException if {@code value} is not of the type's Java type (a raw type
   *     lets an {@code Integer} reach an {@code f32} buffer, whose bits would be written as they
   *     are)
   */
  public static <T> long bits(ElementType<T> type, T value) {
    Object v = requireElement(type, value, "fill " + type + " elements with");
    return switch (v) {
      case Float f -> Float.floatToRawIntBits(f) & 0xffff_ffffL;
      case Double d -> Double.doubleToRawLongBits(d);
      case Integer i -> i & 0xffff_ffffL;
      case Long l -> l;
      case Short s -> s & 0xffffL;
      case Byte b -> b & 0xffL;
      default -> throw new IllegalStateException("no element type is carried as " + v.getClass());
    };
  }

  /**
   * {@return {@code value}, checked to be one element of {@code type}}
   *
   * @param use what the value is for, completing "cannot ...", e.g. {@code "fill f32 elements
   *     with"}
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is another boxed type than {@code type}'s
   */
  public static <T> T requireElement(ElementType<T> type, @Nullable Object value, String use) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    if (!type.javaType().isInstance(value)) {
      String javaType = type.javaType().getSimpleName();
      throw new IllegalArgumentException(
          "cannot "
              + use
              + " the "
              + value.getClass().getSimpleName()
              + " "
              + value
              + ": "
              + type
              + " elements are "
              + javaType
              + "s, and a value of another type would be written as raw bits; pass a "
              + javaType
              + suggestion(type, value));
    }
    return type.javaType().cast(value);
  }

  /** {@return " (e.g. 1.0f)": the literal of the element type closest to {@code value}, if any} */
  private static String suggestion(ElementType<?> type, Object value) {
    if (!(value instanceof Number n)) {
      return "";
    }
    Class<?> t = type.javaType();
    String literal;
    if (t == Float.class) {
      literal = n.floatValue() + "f";
    } else if (t == Double.class) {
      literal = String.valueOf(n.doubleValue());
    } else if (t == Long.class) {
      literal = n.longValue() + "L";
    } else if (t == Integer.class) {
      literal = String.valueOf(n.intValue());
    } else if (t == Short.class) {
      literal = "(short) " + n.shortValue();
    } else {
      literal = "(byte) " + n.byteValue();
    }
    return " (e.g. " + literal + ")";
  }

  @Override
  public String toString() {
    return "fill " + buffer;
  }
}
